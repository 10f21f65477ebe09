package org.etw4j.consumer.etl;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.format.LogfileHeaderLayout;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.format.TraceHeaderTypes;
import org.etw4j.format.WmiBufferLayout;

/**
 * Builds synthetic .etl files for tests, byte by byte from the layouts in
 * {@code ../shared/docs/etw-formats.md} section 3: a header buffer with the logfile header, then per-processor
 * data buffers (optionally Plain-LZ77 compressed), plus helpers that encode each record header kind.
 *
 * <p>Mutable builder; not thread-safe; one file per instance.
 */
final class EtlBuilder {
    int bufferSize = 0x1000;
    boolean is64 = true;
    int clockType = LogfileHeaderLayout.CLOCK_PERFCOUNTER;
    long perfFreq = 10_000_000L;
    long cpuMhz = 3000;
    long startTime = 132_392_018_711_387_363L;
    long t0 = 1_000_000L;
    long logFileMode = LogfileHeaderLayout.MODE_SEQUENTIAL;
    long osBuild = 19041;
    long pointerSizeField = 8;
    String sessionName = "synthetic";
    String logFileName = "C:\\synthetic.etl";
    boolean compress;
    /**
     * Records buffer 0 holds after the logfile header record (Windows 11 writes EventTrace-group SYSTEM and
     * PERFINFO records there).
     */
    final List<byte[]> headerBufferRecords = new ArrayList<>();
    /**
     * Whether a buffer's SavedOffset and Offset end at its last record's Size rather than at its 8-aligned end
     * (both are seen in ETW's own shapes: the last record's alignment padding may or may not be counted).
     */
    boolean unalignedEnd;

    /** Records per processor, in insertion order; buffers are written processor by processor. */
    private final Map<Integer, List<byte[]>> records = new LinkedHashMap<>();
    private final List<Integer> bufferOrder = new ArrayList<>();

    EtlBuilder add(int processor, byte[] record) {
        records.computeIfAbsent(processor, p -> new ArrayList<>()).add(record);
        return this;
    }

    /** Forces the next records of {@code processor} into a new buffer. */
    EtlBuilder breakBuffer(int processor) {
        records.computeIfAbsent(processor, p -> new ArrayList<>()).add(null);
        return this;
    }

    byte[] build() {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        int count = 1;
        List<byte[]> buffers = new ArrayList<>();
        long sequence = 1;
        for (Map.Entry<Integer, List<byte[]>> e : records.entrySet()) {
            List<byte[]> current = new ArrayList<>();
            int used = WmiBufferLayout.HEADER_SIZE;
            for (byte[] r : e.getValue()) {
                if (r == null || used + WmiBufferLayout.align(r.length) > bufferSize) {
                    if (!current.isEmpty()) {
                        buffers.add(dataBuffer(e.getKey(), current, sequence++));
                    }
                    current = new ArrayList<>();
                    used = WmiBufferLayout.HEADER_SIZE;
                    if (r == null) {
                        continue;
                    }
                }
                current.add(r);
                used += WmiBufferLayout.align(r.length);
            }
            if (!current.isEmpty()) {
                buffers.add(dataBuffer(e.getKey(), current, sequence++));
            }
        }
        count += buffers.size();
        file.writeBytes(headerBuffer(count));
        for (byte[] b : buffers) {
            file.writeBytes(b);
        }
        return file.toByteArray();
    }

    private byte[] headerBuffer(int buffersWritten) {
        int fixed = is64 ? LogfileHeaderLayout.SIZE_64 : LogfileHeaderLayout.SIZE_32;
        byte[] names = (sessionName + "\0" + logFileName + "\0").getBytes(StandardCharsets.UTF_16LE);
        ByteBuffer h = le(fixed + names.length);
        h.putInt(LogfileHeaderLayout.BUFFER_SIZE, bufferSize);
        h.put(LogfileHeaderLayout.MAJOR_VERSION, (byte) 10);
        h.put(LogfileHeaderLayout.SUB_VERSION, (byte) 1);
        h.put(LogfileHeaderLayout.SUB_MINOR_VERSION, (byte) 5);
        h.putInt(LogfileHeaderLayout.PROVIDER_VERSION, (int) osBuild);
        h.putInt(LogfileHeaderLayout.NUMBER_OF_PROCESSORS, 4);
        h.putLong(LogfileHeaderLayout.END_TIME, startTime + 600_000_000L);
        h.putInt(LogfileHeaderLayout.TIMER_RESOLUTION, 156250);
        h.putInt(LogfileHeaderLayout.LOG_FILE_MODE, (int) logFileMode);
        h.putInt(LogfileHeaderLayout.BUFFERS_WRITTEN, buffersWritten);
        h.putInt(LogfileHeaderLayout.START_BUFFERS, 1);
        h.putInt(LogfileHeaderLayout.POINTER_SIZE, (int) pointerSizeField);
        h.putInt(LogfileHeaderLayout.EVENTS_LOST, 7);
        h.putInt(LogfileHeaderLayout.CPU_SPEED_MHZ, (int) cpuMhz);
        h.putInt(is64 ? LogfileHeaderLayout.TIME_ZONE_64 : LogfileHeaderLayout.TIME_ZONE_32, -60);
        h.putLong(is64 ? LogfileHeaderLayout.BOOT_TIME_64 : LogfileHeaderLayout.BOOT_TIME_32, startTime - 36_000_000_000L);
        h.putLong(is64 ? LogfileHeaderLayout.PERF_FREQ_64 : LogfileHeaderLayout.PERF_FREQ_32, perfFreq);
        h.putLong(is64 ? LogfileHeaderLayout.START_TIME_64 : LogfileHeaderLayout.START_TIME_32, startTime);
        h.putInt(is64 ? LogfileHeaderLayout.CLOCK_TYPE_64 : LogfileHeaderLayout.CLOCK_TYPE_32, clockType);
        h.put(fixed, names);
        byte[] record = system(is64 ? TraceHeaderTypes.SYSTEM64 : TraceHeaderTypes.SYSTEM32, 2, 0, 0, 0x1f80, 0x17e0, t0,
                1, 0, h.array());
        List<byte[]> recs = new ArrayList<>();
        recs.add(record);
        recs.addAll(headerBufferRecords);
        return assemble(0, recs, 0, WmiBufferLayout.TYPE_HEADER, false);
    }

    private byte[] dataBuffer(int processor, List<byte[]> recs, long sequence) {
        return assemble(processor, recs, sequence, WmiBufferLayout.TYPE_GENERIC, compress);
    }

    private byte[] assemble(int processor, List<byte[]> recs, long sequence, int type, boolean compressed) {
        ByteBuffer b = le(bufferSize);
        int p = WmiBufferLayout.HEADER_SIZE;
        for (byte[] r : recs) {
            b.put(p, r);
            int aligned = WmiBufferLayout.align(r.length);
            for (int i = r.length; i < aligned; i++) {
                b.put(p + i, (byte) 0);
            }
            p += aligned;
        }
        for (int i = p; i < bufferSize; i++) {
            b.put(i, WmiBufferLayout.PADDING_BYTE);
        }
        if (unalignedEnd && !recs.isEmpty()) {
            byte[] last = recs.get(recs.size() - 1);
            int cut = WmiBufferLayout.align(last.length) - last.length;
            p -= cut;
            for (int i = p; i < p + cut; i++) {
                b.put(i, WmiBufferLayout.PADDING_BYTE);
            }
        }
        boolean header = type == WmiBufferLayout.TYPE_HEADER;
        b.putInt(WmiBufferLayout.SAVED_OFFSET, p);
        b.putInt(WmiBufferLayout.CURRENT_OFFSET, p);
        b.putLong(WmiBufferLayout.TIMESTAMP, header ? 0 : t0 + 1000 * sequence);
        b.putLong(WmiBufferLayout.SEQUENCE_NUMBER, sequence);
        b.putLong(WmiBufferLayout.CLOCK_OR_LIST, 0);
        b.putShort(WmiBufferLayout.PROCESSOR_INDEX, (short) processor);
        b.putShort(WmiBufferLayout.LOGGER_ID, (short) 0x10);
        b.putInt(WmiBufferLayout.STATE, WmiBufferLayout.STATE_FLUSH);
        b.putInt(WmiBufferLayout.OFFSET, p);
        int flags = WmiBufferLayout.FLAG_PROC_INDEX | (header ? WmiBufferLayout.FLAG_FLUSH_MARKER : 0);
        b.putShort(WmiBufferLayout.BUFFER_TYPE, (short) type);
        boolean compressedMode = (logFileMode & LogfileHeaderLayout.MODE_COMPRESSED) != 0;
        if (compressed) {
            byte[] body = new byte[p - WmiBufferLayout.HEADER_SIZE];
            b.get(WmiBufferLayout.HEADER_SIZE, body);
            byte[] packed = Lz77Encoder.encode(body);
            int stored = WmiBufferLayout.HEADER_SIZE + packed.length;
            b.putShort(WmiBufferLayout.BUFFER_FLAG, (short) (flags | WmiBufferLayout.FLAG_COMPRESSED));
            b.putInt(WmiBufferLayout.BUFFER_SIZE, stored);
            byte[] out = new byte[stored];
            b.get(0, out, 0, WmiBufferLayout.HEADER_SIZE);
            System.arraycopy(packed, 0, out, WmiBufferLayout.HEADER_SIZE, packed.length);
            return out;
        }
        b.putShort(WmiBufferLayout.BUFFER_FLAG, (short) flags);
        if (compressedMode) {
            // Stored uncompressed in a compressed-mode file: BufferSize is the stored size (as buffer 0 of
            // perfview__smallEtlFile.etl: 0x200 bytes for 0x1d8 of data).
            int stored = (p + 0x1FF) & ~0x1FF;
            b.putInt(WmiBufferLayout.BUFFER_SIZE, stored);
            byte[] out = new byte[stored];
            b.get(0, out);
            return out;
        }
        b.putInt(WmiBufferLayout.BUFFER_SIZE, bufferSize);
        return b.array();
    }

    // ------------------------------------------------------------------------------ record encoders

    static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** SYSTEM_TRACE_HEADER, full; {@code version} may carry PEBS/PMC bits, whose extension bytes are zero-filled with a pattern. */
    static byte[] system(int type, int version, int group, int hookType, int tid, int pid, long ts, int kernel, int user,
            byte[] payload) {
        int ext = SystemTraceHeaderLayout.extensionBytes(version);
        ByteBuffer b = le(SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE + ext + payload.length);
        b.putShort(0, (short) version);
        b.put(2, (byte) type);
        b.put(3, (byte) TraceHeaderTypes.MARKER_STRUCTURED);
        b.putShort(SystemTraceHeaderLayout.SIZE, (short) b.capacity());
        b.put(SystemTraceHeaderLayout.HOOK_TYPE, (byte) hookType);
        b.put(SystemTraceHeaderLayout.HOOK_GROUP, (byte) group);
        b.putInt(SystemTraceHeaderLayout.THREAD_ID, tid);
        b.putInt(SystemTraceHeaderLayout.PROCESS_ID, pid);
        b.putLong(SystemTraceHeaderLayout.SYSTEM_TIME, ts);
        b.putInt(SystemTraceHeaderLayout.KERNEL_TIME, kernel);
        b.putInt(SystemTraceHeaderLayout.USER_TIME, user);
        for (int i = 0; i < ext; i++) {
            b.put(SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE + i, (byte) 0xEE);
        }
        b.put(SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE + ext, payload);
        return b.array();
    }

    static byte[] compact(int type, int group, int hookType, int tid, int pid, long ts, byte[] payload) {
        ByteBuffer b = le(SystemTraceHeaderLayout.COMPACT_HEADER_SIZE + payload.length);
        b.putShort(0, (short) 2);
        b.put(2, (byte) type);
        b.put(3, (byte) TraceHeaderTypes.MARKER_STRUCTURED);
        b.putShort(SystemTraceHeaderLayout.SIZE, (short) b.capacity());
        b.put(SystemTraceHeaderLayout.HOOK_TYPE, (byte) hookType);
        b.put(SystemTraceHeaderLayout.HOOK_GROUP, (byte) group);
        b.putInt(SystemTraceHeaderLayout.THREAD_ID, tid);
        b.putInt(SystemTraceHeaderLayout.PROCESS_ID, pid);
        b.putLong(SystemTraceHeaderLayout.SYSTEM_TIME, ts);
        b.put(SystemTraceHeaderLayout.COMPACT_HEADER_SIZE, payload);
        return b.array();
    }

    static byte[] perfinfo(int type, int version, int group, int hookType, long ts, byte[] payload) {
        int ext = SystemTraceHeaderLayout.extensionBytes(version);
        ByteBuffer b = le(SystemTraceHeaderLayout.PERFINFO_HEADER_SIZE + ext + payload.length);
        b.putShort(0, (short) version);
        b.put(2, (byte) type);
        b.put(3, (byte) TraceHeaderTypes.MARKER_STRUCTURED);
        b.putShort(SystemTraceHeaderLayout.SIZE, (short) b.capacity());
        b.put(SystemTraceHeaderLayout.HOOK_TYPE, (byte) hookType);
        b.put(SystemTraceHeaderLayout.HOOK_GROUP, (byte) group);
        b.putLong(SystemTraceHeaderLayout.PERFINFO_TIMESTAMP, ts);
        b.put(SystemTraceHeaderLayout.PERFINFO_HEADER_SIZE + ext, payload);
        return b.array();
    }

    static byte[] classic(int type, int classType, int level, int version, int tid, int pid, long ts, Guid guid,
            int kernel, int user, byte[] payload) {
        ByteBuffer b = le(ClassicLayout.HEADER_SIZE + payload.length);
        classicHeader(b, type, classType, level, version, tid, pid, ts, guid, kernel, user);
        b.put(ClassicLayout.HEADER_SIZE, payload);
        return b.array();
    }

    static byte[] instance(int type, int classType, int tid, int pid, long ts, Guid guid, int instanceId, int parentId,
            Guid parent, byte[] payload) {
        ByteBuffer b = le(ClassicLayout.INSTANCE_HEADER_SIZE + payload.length);
        classicHeader(b, type, classType, 4, 1, tid, pid, ts, guid, 0, 0);
        b.putInt(ClassicLayout.INSTANCE_ID, instanceId);
        b.putInt(ClassicLayout.PARENT_INSTANCE_ID, parentId);
        parent.writeTo(b, ClassicLayout.PARENT_GUID);
        b.put(ClassicLayout.INSTANCE_HEADER_SIZE, payload);
        return b.array();
    }

    private static void classicHeader(ByteBuffer b, int type, int classType, int level, int version, int tid, int pid,
            long ts, Guid guid, int kernel, int user) {
        b.putShort(0, (short) b.capacity());
        b.put(2, (byte) type);
        b.put(3, (byte) TraceHeaderTypes.MARKER_STRUCTURED);
        b.put(ClassicLayout.CLASS_TYPE, (byte) classType);
        b.put(ClassicLayout.CLASS_LEVEL, (byte) level);
        b.putShort(ClassicLayout.CLASS_VERSION, (short) version);
        b.putInt(ClassicLayout.THREAD_ID, tid);
        b.putInt(ClassicLayout.PROCESS_ID, pid);
        b.putLong(ClassicLayout.TIMESTAMP, ts);
        guid.writeTo(b, ClassicLayout.GUID);
        b.putInt(ClassicLayout.KERNEL_TIME, kernel);
        b.putInt(ClassicLayout.USER_TIME, user);
    }

    /** One extended data item: type and data. */
    record Ext(int type, byte[] data) {
    }

    static byte[] event(int type, int tid, int pid, long ts, Guid provider, int id, int version, int channel, int level,
            int opcode, int task, long keyword, int kernel, int user, Guid activity, List<Ext> ext, byte[] payload) {
        int extBytes = 0;
        for (Ext e : ext) {
            extBytes += WmiBufferLayout.align(EventHeaderLayout.EXT_ITEM_HEADER_SIZE + e.data().length);
        }
        ByteBuffer b = le(EventHeaderLayout.HEADER_SIZE + extBytes + payload.length);
        b.putShort(EventHeaderLayout.SIZE, (short) b.capacity());
        b.put(EventHeaderLayout.HEADER_TYPE, (byte) type);
        b.put(EventHeaderLayout.MARKER_FLAGS, (byte) EventHeaderLayout.MARKER_STRUCTURED);
        b.putShort(EventHeaderLayout.FLAGS, (short) (ext.isEmpty() ? 0 : EventHeaderLayout.FLAG_EXTENDED_INFO));
        b.putShort(EventHeaderLayout.EVENT_PROPERTY, (short) 0x8);
        b.putInt(EventHeaderLayout.THREAD_ID, tid);
        b.putInt(EventHeaderLayout.PROCESS_ID, pid);
        b.putLong(EventHeaderLayout.TIMESTAMP, ts);
        provider.writeTo(b, EventHeaderLayout.PROVIDER_ID);
        b.putShort(EventHeaderLayout.DESCRIPTOR_ID, (short) id);
        b.put(EventHeaderLayout.DESCRIPTOR_VERSION, (byte) version);
        b.put(EventHeaderLayout.DESCRIPTOR_CHANNEL, (byte) channel);
        b.put(EventHeaderLayout.DESCRIPTOR_LEVEL, (byte) level);
        b.put(EventHeaderLayout.DESCRIPTOR_OPCODE, (byte) opcode);
        b.putShort(EventHeaderLayout.DESCRIPTOR_TASK, (short) task);
        b.putLong(EventHeaderLayout.DESCRIPTOR_KEYWORD, keyword);
        b.putInt(EventHeaderLayout.KERNEL_TIME, kernel);
        b.putInt(EventHeaderLayout.USER_TIME, user);
        activity.writeTo(b, EventHeaderLayout.ACTIVITY_ID);
        int q = EventHeaderLayout.HEADER_SIZE;
        for (int i = 0; i < ext.size(); i++) {
            Ext e = ext.get(i);
            int itemSize = WmiBufferLayout.align(EventHeaderLayout.EXT_ITEM_HEADER_SIZE + e.data().length);
            b.putShort(q + EventHeaderLayout.EXT_ITEM_SIZE, (short) itemSize);
            b.putShort(q + EventHeaderLayout.EXT_ITEM_TYPE, (short) e.type());
            b.putShort(q + EventHeaderLayout.EXT_ITEM_LINKAGE, (short) (i + 1 < ext.size() ? 1 : 0));
            b.putShort(q + EventHeaderLayout.EXT_ITEM_DATA_SIZE, (short) e.data().length);
            b.put(q + EventHeaderLayout.EXT_ITEM_HEADER_SIZE, e.data());
            q += itemSize;
        }
        b.put(q, payload);
        return b.array();
    }

    /** MESSAGE_TRACE_HEADER with the optional fields its option flags announce, in ntwmi.h order. */
    static byte[] message(int options, int number, int sequence, Guid guid, int componentId, long ts, int tid, int pid,
            byte[] payload) {
        int size = ClassicLayout.MESSAGE_HEADER_SIZE + payload.length;
        size += (options & RecordStream.MESSAGE_SEQUENCE) != 0 ? 4 : 0;
        size += (options & RecordStream.MESSAGE_GUID) != 0 ? 16 : (options & RecordStream.MESSAGE_COMPONENT_ID) != 0 ? 4 : 0;
        size += (options & RecordStream.MESSAGE_TIMESTAMP) != 0 ? 8 : 0;
        size += (options & RecordStream.MESSAGE_SYSTEM_INFO) != 0 ? 8 : 0;
        ByteBuffer b = le(size);
        b.putShort(0, (short) size);
        b.put(3, (byte) TraceHeaderTypes.MARKER_MESSAGE);
        b.putShort(ClassicLayout.MESSAGE_NUMBER, (short) number);
        b.putShort(ClassicLayout.MESSAGE_OPTION_FLAGS, (short) options);
        int q = ClassicLayout.MESSAGE_HEADER_SIZE;
        if ((options & RecordStream.MESSAGE_SEQUENCE) != 0) {
            b.putInt(q, sequence);
            q += 4;
        }
        if ((options & RecordStream.MESSAGE_GUID) != 0) {
            guid.writeTo(b, q);
            q += 16;
        } else if ((options & RecordStream.MESSAGE_COMPONENT_ID) != 0) {
            b.putInt(q, componentId);
            q += 4;
        }
        if ((options & RecordStream.MESSAGE_TIMESTAMP) != 0) {
            b.putLong(q, ts);
            q += 8;
        }
        if ((options & RecordStream.MESSAGE_SYSTEM_INFO) != 0) {
            b.putInt(q, tid);
            b.putInt(q + 4, pid);
            q += 8;
        }
        b.put(q, payload);
        return b.array();
    }

    /** A TraceLogging provider-traits blob: u16 size, UTF-8 name, NUL (no traits). */
    static byte[] providerTraits(String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = le(2 + n.length + 1);
        b.putShort(0, (short) b.capacity());
        b.put(2, n);
        return b.array();
    }

    static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }
}
