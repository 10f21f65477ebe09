package org.etw4j.consumer.etl;

import static org.etw4j.format.EventHeaderLayout.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.etw4j.format.EventHeaderView;
import org.etw4j.LogfileHeader;
import org.etw4j.format.LogfileHeaderLayout;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.TimestampConverter;
import org.etw4j.format.TraceHeaderTypes;
import org.etw4j.format.WmiBufferLayout;
import org.etw4j.RawEventRecord;

/**
 * Writes an .etl file laid out as Windows lays it out: fixed-size buffers, buffer 0 holding the logfile header,
 * records 8-aligned in per-processor buffers, {@code 0xFF} padding, file length {@code BuffersWritten x
 * BufferSize}.
 *
 * <p>Threading, reuse and close contract: not thread-safe (one thread writes, as one ETW logger thread does);
 * not reusable. {@link #close()} (or {@link #close(LogfileHeader)}) seals the partly filled buffers, rewrites
 * buffer 0 with the final BuffersWritten, EndTime, EventsLost and NumberOfProcessors, and closes the file; it is
 * idempotent. A provisional buffer 0 is written at creation, so a file abandoned without close is still
 * readable up to the last buffer written. Memory: one buffer per processor seen.
 *
 * <p><b>Not verified on Windows.</b> The layout mirrors real 64-bit files (a logfile-header
 * record as evntrace.h's {@code TRACE_LOGFILE_HEADER}, buffers as ntwmi.h's {@code _WMI_BUFFER_HEADER}), and this project's pure-Java reader reads the
 * result back exactly; whether {@code tracerpt}, PerfView and WPA accept these files has NOT been checked (no
 * Windows host was available). Until it is, treat the files as readable by etw4j and plausible for Windows.
 *
 * <p>Three ways to fill the file, freely mixed:
 * <ul>
 *   <li>{@link #writeRecord(ByteBuffer, int, int)}: a record already in stored form (any header kind ETW
 *       writes), copied byte for byte; {@link #writeRecord(ByteBuffer, int, int, long)} replaces only its
 *       timestamp (a record from a trace with another clock);</li>
 *   <li>{@link #writeEvent(RawEventRecord)}: an event as a consumer sees it, encoded as an EVENT_HEADER
 *       record with its extended data items;</li>
 *   <li>{@link #writeBuffer(ByteBuffer)}: a whole buffer already in WMI_BUFFER_HEADER form (what the
 *       simulated backend's file-mode sessions hand over), written as it is.</li>
 * </ul>
 * Record timestamps must be in this file's clock ({@link #timestamps()}: the header's clock type, StartTime and
 * PerfFreq, with the {@code startRaw} given at creation as T0).
 */
public final class EtlWriter implements AutoCloseable {
    /** LoggerId written into the buffers this writer fills (any value works; 0x10 as in the recipe). */
    public static final int DEFAULT_LOGGER_ID = 0x10;
    /** The most processors a buffer header can name ({@code ETW_PROCESSOR_INDEX_MASK + 1}). */
    public static final int MAX_PROCESSORS = WmiBufferLayout.PROCESSOR_INDEX_MASK + 1;
    /** Smallest buffer accepted ({@code MIN_ETW_BUFFER_SIZE}, 1 KiB). */
    public static final int MIN_BUFFER_SIZE = 1024;
    /** Largest buffer accepted ({@code MAX_ETW_BUFFER_SIZE} on Windows 8+, 16 MiB). */
    public static final int MAX_BUFFER_SIZE = 16 << 20;

    private static final int HEADER = WmiBufferLayout.HEADER_SIZE;
    private static final int SYS = SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE;

    private final Path path;
    private final FileChannel channel;
    private final LogfileHeader header;
    private final long startRaw;
    private final TimestampConverter converter;
    private final int bufferSize;
    private final int headerThreadId = (int) Thread.currentThread().threadId();
    private final int headerProcessId = (int) ProcessHandle.current().pid();
    private CpuBuffer[] cpus = new CpuBuffer[0];
    private long buffersWritten = 1;
    private long sequence;
    private long records;
    private long lastRaw = Long.MIN_VALUE;
    private int maxProcessor = -1;
    private boolean closed;
    /** Whether this writer appends to a file that was already there (APPEND). */
    private boolean appended;
    /** Events and buffers the file had lost before this writer appended to it (APPEND); added at close. */
    private int appendedLost;
    private int appendedBuffersLost;

    private EtlWriter(Path path, FileChannel channel, LogfileHeader header, long startRaw) {
        this.path = path;
        this.channel = channel;
        this.header = header;
        this.startRaw = startRaw;
        this.converter = header.timestampConverter(startRaw);
        this.bufferSize = header.bufferSize();
    }

    /**
     * Creates (or truncates) {@code path} and writes a provisional buffer 0.
     *
     * @param header   the trace's header: buffer size (a multiple of 1 KiB, 1 KiB..16 MiB), clock type,
     *                 StartTime, PerfFreq, names; BuffersWritten, EndTime and EventsLost are set at close
     * @param startRaw T0: the raw timestamp that corresponds to the header's StartTime (the logfile header
     *                 record's timestamp)
     * @throws IllegalArgumentException if the buffer size is invalid or the header record does not fit buffer 0
     */
    public static EtlWriter create(Path path, LogfileHeader header, long startRaw) throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(header, "header");
        int size = header.bufferSize();
        if (size < MIN_BUFFER_SIZE || size > MAX_BUFFER_SIZE || size % 1024 != 0) {
            throw new IllegalArgumentException("buffer size must be a multiple of 1024 in " + MIN_BUFFER_SIZE + ".."
                    + MAX_BUFFER_SIZE + ", got " + size);
        }
        int record = SYS + header.encodedSize64();
        if (record > MAX_EVENT_SIZE || HEADER + WmiBufferLayout.align(record) > size) {
            throw new IllegalArgumentException("the logfile header record (" + record + " bytes with the names '"
                    + header.loggerName() + "' and '" + header.logFileName() + "') does not fit a " + size
                    + "-byte buffer");
        }
        FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        try {
            EtlWriter w = new EtlWriter(path, ch, header, startRaw);
            w.writeHeaderBuffer(header.withEnd(header.endTime(), 1, header.eventsLost(), header.buffersLost()));
            return w;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Opens {@code path} to append buffers after the ones it holds (EVENT_TRACE_FILE_MODE_APPEND; MS Learn, "Logging
     * Mode Constants"), or creates it as {@link #create} does when it is missing or empty. The file keeps its own
     * header (StartTime, BootTime and the rest: the events it holds were timed against them); {@link #close} then
     * rewrites BuffersWritten, EndTime, EventsLost and BuffersLost, the counts adding this session's to the file's.
     * Appending is only sound with the system-time clock (raw timestamps are FILETIMEs, so the two sessions' agree),
     * which {@link org.etw4j.controller.SessionConfig} enforces for APPEND.
     *
     * @throws IOException when the file is not an .etl file of the same buffer size, clock type and pointer size
     *                     ("the values for BufferSize, NumberOfProcessors, and ClockType ... must be the same in both
     *                     the logger and the file being appended"; the processor count is not checked: a writer's
     *                     buffers name their processor), or it is not a whole number of buffers
     */
    public static EtlWriter append(Path path, LogfileHeader header, long startRaw) throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(header, "header");
        if (!java.nio.file.Files.exists(path) || java.nio.file.Files.size(path) == 0) {
            return create(path, header, startRaw);
        }
        FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            long length = ch.size();
            int size = header.bufferSize();
            ByteBuffer b0 = ByteBuffer.allocate((int) Math.min(length, size)).order(ByteOrder.LITTLE_ENDIAN);
            while (b0.hasRemaining() && ch.read(b0, b0.position()) >= 0) {
                // read buffer 0
            }
            int limit = b0.position();
            if (limit < HEADER + SYS || b0.getShort(HEADER + SystemTraceHeaderLayout.HOOK_ID) != SystemTraceHeaderLayout.HOOK_LOGFILE_HEADER) {
                throw new IOException(path + " is not an .etl file to append to (no logfile header in buffer 0)");
            }
            LogfileHeader existing = LogfileHeader.decode(b0, HEADER + SYS, 8, limit);
            List<String> differ = new java.util.ArrayList<>();
            if (existing.bufferSize() != size) {
                differ.add("BufferSize " + existing.bufferSize() + " (the session's " + size + ")");
            }
            if (existing.clockType() != header.clockType()) {
                differ.add("ClockType " + existing.clockType() + " (the session's " + header.clockType() + ")");
            }
            if (existing.pointerSize() != header.pointerSize()) {
                differ.add("PointerSize " + existing.pointerSize() + " (the session's " + header.pointerSize() + ")");
            }
            if (!differ.isEmpty()) {
                throw new IOException("cannot append to " + path + ": the file's " + String.join(", ", differ)
                        + " must equal the session's (MS Learn, Logging Mode Constants, EVENT_TRACE_FILE_MODE_APPEND)");
            }
            if (length % size != 0) {
                throw new IOException("cannot append to " + path + ": " + length + " bytes is not a whole number of "
                        + size + "-byte buffers");
            }
            long startRawOfFile = b0.getLong(HEADER + SystemTraceHeaderLayout.SYSTEM_TIME);
            EtlWriter w = new EtlWriter(path, ch, existing.withLogFileName(header.logFileName()), startRawOfFile);
            w.buffersWritten = length / size;
            w.appended = true;
            w.appendedLost = existing.eventsLost();
            w.appendedBuffersLost = existing.buffersLost();
            return w;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * A header for a new trace with typical Windows 10 values (format 1.5, 64-bit, QPC clock at 10 MHz as in
     * every corpus file, TimerResolution 156250, sequential file mode). Raw timestamps of such a trace are
     * 100 ns ticks since {@code bootFileTime}: pass {@link #startRawOf(LogfileHeader)} as T0.
     *
     * @param startFileTime StartTime (FILETIME)
     * @param bootFileTime  BootTime (FILETIME), at or before StartTime
     */
    public static LogfileHeader newHeader(String sessionName, Path logFile, int bufferSize, long startFileTime,
                                          long bootFileTime) {
        int bias = -java.util.TimeZone.getDefault().getOffset(System.currentTimeMillis()) / 60_000;
        return new LogfileHeader(bufferSize, 10, 0, 1, 5, 19045, Runtime.getRuntime().availableProcessors(), 0L,
                156_250, 0, LogfileHeaderLayout.MODE_SEQUENTIAL, 1, 8, 0, 3000, bootFileTime, 10_000_000L,
                startFileTime, LogfileHeaderLayout.CLOCK_PERFCOUNTER, 0, bias, sessionName,
                logFile == null ? "" : logFile.toAbsolutePath().toString());
    }

    /** T0 for a header made by {@link #newHeader}: StartTime - BootTime in 100 ns ticks. */
    public static long startRawOf(LogfileHeader h) {
        return h.startTime() - h.bootTime();
    }

    /** The file being written. */
    public Path path() {
        return path;
    }

    /** The header given at creation. */
    public LogfileHeader header() {
        return header;
    }

    /** Buffer size in bytes. */
    public int bufferSize() {
        return bufferSize;
    }

    /** T0, the raw timestamp of StartTime. */
    public long startRaw() {
        return startRaw;
    }

    /** Converts between this file's raw timestamps and FILETIME. */
    public TimestampConverter timestamps() {
        return converter;
    }

    /** Records written so far (including those in buffers not yet sealed, and those in whole buffers). */
    public long recordsWritten() {
        return records;
    }

    /** Buffers in the file so far, buffer 0 included (partly filled buffers count once sealed). */
    public long buffersWritten() {
        return buffersWritten;
    }

    /** Whether the file was closed. */
    public boolean isClosed() {
        return closed;
    }

    // ------------------------------------------------------------------------------------------ writing

    /**
     * Copies the stored record at {@code offset} of {@code src} byte for byte into {@code processor}'s buffer.
     * The record's length comes from its own size field.
     *
     * @throws IllegalArgumentException if the bytes are not a record ETW writes, or it cannot fit a buffer
     */
    public void writeRecord(ByteBuffer src, int offset, int processor) throws IOException {
        append(le(src), offset, processor, false, 0L);
    }

    /** As {@link #writeRecord(ByteBuffer, int, int)}, with the timestamp field replaced by {@code rawTimestamp}. */
    public void writeRecord(ByteBuffer src, int offset, int processor, long rawTimestamp) throws IOException {
        append(le(src), offset, processor, true, rawTimestamp);
    }

    /**
     * Writes an event as an EVENT_HEADER record (type 0x13, or 0x12 when its pointer size is 4) with its
     * extended data items and user data, on its processor's buffer. A record viewed in place
     * ({@link EventHeaderView}) is copied byte for byte, with the timestamp converted to this file's clock.
     * Timestamps: FILETIME values are converted with {@link #timestamps()}; raw ones
     * ({@link RawEventRecord#isRawTimestamp()}) are taken to be in this file's clock already.
     *
     * @throws IllegalArgumentException for a classic-header event (EVENT_HEADER_FLAG_CLASSIC_HEADER: its MOF
     *                                  header cannot be rebuilt from an EVENT_RECORD) or one too large
     */
    public void writeEvent(RawEventRecord r) throws IOException {
        checkOpen();
        if ((r.flags() & FLAG_CLASSIC_HEADER) != 0) {
            throw new IllegalArgumentException("classic-header events cannot be written as EVENT_HEADER records");
        }
        long raw = r.isRawTimestamp() ? r.timestamp() : converter.toRaw(r.timestamp());
        if (r instanceof EventHeaderView v) {
            append(v.buffer(), v.recordOffset(), r.processorIndex(), true, raw);
            return;
        }
        int items = r.extendedDataCount();
        int extBytes = 0;
        for (int i = 0; i < items; i++) {
            extBytes += itemSize(r.extendedData(i).remaining());
        }
        long size = (long) HEADER_SIZE + extBytes + r.userDataLength();
        if (size > MAX_EVENT_SIZE) {
            throw new IllegalArgumentException("event of " + size + " bytes exceeds ETW's " + MAX_EVENT_SIZE);
        }
        int aligned = WmiBufferLayout.align((int) size);
        CpuBuffer c = reserve(r.processorIndex(), aligned);
        ByteBuffer b = c.bb;
        int p = c.position;
        int flags = r.flags() & ~(FLAG_EXTENDED_INFO | FLAG_32_BIT_HEADER | FLAG_64_BIT_HEADER | FLAG_PROCESSOR_INDEX);
        b.putShort(p + SIZE, (short) size);
        b.put(p + HEADER_TYPE, (byte) (r.pointerSize() == 4 ? HEADER_TYPE_32 : HEADER_TYPE_64));
        b.put(p + MARKER_FLAGS, (byte) MARKER_STRUCTURED);
        b.putShort(p + FLAGS, (short) (flags | (items > 0 ? FLAG_EXTENDED_INFO : 0)));
        b.putShort(p + EVENT_PROPERTY, (short) r.eventProperty());
        b.putInt(p + THREAD_ID, r.threadId());
        b.putInt(p + PROCESS_ID, r.processId());
        b.putLong(p + TIMESTAMP, raw);
        putGuid(b, p + PROVIDER_ID, r.providerIdMsb(), r.providerIdLsb());
        b.putShort(p + DESCRIPTOR_ID, (short) r.id());
        b.put(p + DESCRIPTOR_VERSION, (byte) r.version());
        b.put(p + DESCRIPTOR_CHANNEL, (byte) r.channel());
        b.put(p + DESCRIPTOR_LEVEL, (byte) r.level());
        b.put(p + DESCRIPTOR_OPCODE, (byte) r.opcode());
        b.putShort(p + DESCRIPTOR_TASK, (short) r.task());
        b.putLong(p + DESCRIPTOR_KEYWORD, r.keyword());
        b.putInt(p + KERNEL_TIME, r.kernelTime());
        b.putInt(p + USER_TIME, r.userTime());
        putGuid(b, p + ACTIVITY_ID, r.activityIdMsb(), r.activityIdLsb());
        int q = p + HEADER_SIZE;
        for (int i = 0; i < items; i++) {
            ByteBuffer data = r.extendedData(i);
            int len = data.remaining();
            int item = itemSize(len);
            b.putShort(q + EXT_ITEM_SIZE, (short) item);
            b.putShort(q + EXT_ITEM_TYPE, (short) r.extendedDataType(i));
            b.putShort(q + EXT_ITEM_LINKAGE, (short) (i + 1 < items ? 1 : 0));
            b.putShort(q + EXT_ITEM_DATA_SIZE, (short) len);
            data.get(data.position(), c.bytes, q + EXT_ITEM_HEADER_SIZE, len);
            Arrays.fill(c.bytes, q + EXT_ITEM_HEADER_SIZE + len, q + item, (byte) 0);
            q += item;
        }
        ByteBuffer user = r.userData();
        int len = user.remaining();
        user.get(user.position(), c.bytes, q, len);
        q += len;
        Arrays.fill(c.bytes, q, p + aligned, (byte) 0);
        committed(c, aligned, raw, true);
    }

    /**
     * Writes a whole buffer already in WMI_BUFFER_HEADER form, as it is (position to limit must be exactly
     * {@link #bufferSize()} bytes, its BufferSize field equal to it, not compressed).
     */
    public void writeBuffer(ByteBuffer buffer) throws IOException {
        put(buffer, buffersWritten);
        buffersWritten++;
    }

    /**
     * Replaces buffer {@code index} (1 to {@link #buffersWritten()} - 1) with a whole buffer, as
     * {@link #writeBuffer(ByteBuffer)} takes it: how a circular file (EVENT_TRACE_FILE_MODE_CIRCULAR) reuses its
     * oldest buffer. The file does not grow; {@link #recordsWritten()} then counts the records written, not those
     * left in the file.
     */
    public void overwriteBuffer(long index, ByteBuffer buffer) throws IOException {
        if (index < 1 || index >= buffersWritten) {
            throw new IllegalArgumentException("buffer " + index + " is not a written data buffer (1.." + (buffersWritten - 1) + ")");
        }
        put(buffer, index);
    }

    private void put(ByteBuffer buffer, long index) throws IOException {
        checkOpen();
        ByteBuffer b = le(buffer);
        int start = b.position();
        if (b.remaining() != bufferSize) {
            throw new IllegalArgumentException("buffer of " + b.remaining() + " bytes; this file's buffers are " + bufferSize);
        }
        if (b.getInt(start + WmiBufferLayout.BUFFER_SIZE) != bufferSize) {
            throw new IllegalArgumentException("the buffer's BufferSize field says " + b.getInt(start + WmiBufferLayout.BUFFER_SIZE)
                    + "; this file's buffers are " + bufferSize);
        }
        int flags = Short.toUnsignedInt(b.getShort(start + WmiBufferLayout.BUFFER_FLAG));
        if ((flags & WmiBufferLayout.FLAG_COMPRESSED) != 0) {
            throw new IllegalArgumentException("compressed buffers are not written (the logfile mode does not say so)");
        }
        int proc = Short.toUnsignedInt(b.getShort(start + WmiBufferLayout.PROCESSOR_INDEX));
        proc = (flags & WmiBufferLayout.FLAG_PROC_INDEX) != 0 ? proc & WmiBufferLayout.PROCESSOR_INDEX_MASK : proc & 0xFF;
        maxProcessor = Math.max(maxProcessor, proc);
        lastRaw = Math.max(lastRaw, b.getLong(start + WmiBufferLayout.TIMESTAMP));
        sequence = Math.max(sequence, b.getLong(start + WmiBufferLayout.SEQUENCE_NUMBER));
        records += countRecords(b, start);
        writeFully(b.duplicate().position(start).limit(start + bufferSize), index * (long) bufferSize);
    }

    /** Seals and writes every partly filled buffer now (ETW's flush); later records start new buffers. */
    public void flush() throws IOException {
        checkOpen();
        for (CpuBuffer c : cpus) {
            if (c != null && c.records > 0) {
                seal(c);
            }
        }
    }

    /**
     * Completes the file: seals the open buffers and rewrites buffer 0 with BuffersWritten (this writer's count),
     * EndTime (the header's, or the FILETIME of the latest record when the header has none), and
     * NumberOfProcessors raised to cover every processor index written. Idempotent.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        long end = header.endTime() != 0 ? header.endTime()
                : lastRaw == Long.MIN_VALUE ? header.startTime() : converter.toFileTime(lastRaw);
        close(header.withEnd(end, 1, header.eventsLost(), header.buffersLost()));
    }

    /**
     * Completes the file with {@code finalHeader}'s values (EndTime, EventsLost, BuffersLost and the rest), except
     * BuffersWritten, which is always the number of buffers actually in the file, and NumberOfProcessors, which
     * is raised to cover every processor index written. Idempotent: after the first close this does nothing.
     */
    public void close(LogfileHeader finalHeader) throws IOException {
        if (closed) {
            return;
        }
        try {
            flush();
            closed = true;
            LogfileHeader h = finalHeader;
            int processors = Math.max(h.numberOfProcessors(), maxProcessor + 1);
            // an appended file keeps its own origin (StartTime, BootTime, PerfFreq): its older events were timed by it
            LogfileHeader o = appended ? header : h;
            h = new LogfileHeader(bufferSize, h.osMajor(), h.osMinor(), h.formatMajor(), h.formatMinor(), h.osBuild(),
                    processors, h.endTime(), h.timerResolution(), h.maximumFileSizeMb(), h.logFileMode(),
                    (int) buffersWritten, h.pointerSize(), h.eventsLost() + appendedLost, h.cpuSpeedMHz(),
                    o.bootTime(), o.perfFreq(), o.startTime(), h.clockType(), h.buffersLost() + appendedBuffersLost,
                    h.timeZoneBiasMinutes(), h.loggerName(), h.logFileName());
            writeHeaderBuffer(h);
            channel.truncate(buffersWritten * (long) bufferSize);
        } finally {
            closed = true;
            channel.close();
        }
    }

    // ------------------------------------------------------------------------------------------ internals

    private void append(ByteBuffer src, int offset, int processor, boolean retime, long rawTimestamp) throws IOException {
        checkOpen();
        if (offset < 0 || offset + 8 > src.limit()) {
            throw new IllegalArgumentException("no record header at offset " + offset);
        }
        int type = RecordLayouts.headerType(src, offset);
        int size = RecordLayouts.size(src, offset);
        if (size < 0) {
            throw new IllegalArgumentException(String.format("not a record ETW writes: marker 0x%08x", src.getInt(offset)));
        }
        if (size < RecordLayouts.minimumSize(type) || offset + size > src.limit()) {
            throw new IllegalArgumentException("record of type 0x" + Integer.toHexString(type) + " with size " + size
                    + " at offset " + offset + " is shorter than its header or runs past the source");
        }
        int aligned = WmiBufferLayout.align(size);
        CpuBuffer c = reserve(processor, aligned);
        int p = c.position;
        src.get(offset, c.bytes, p, size);
        Arrays.fill(c.bytes, p + size, p + aligned, (byte) 0);
        int tsAt = RecordLayouts.timestampOffset(c.bb, p);
        if (retime && tsAt >= 0) {
            c.bb.putLong(p + tsAt, rawTimestamp);
        }
        committed(c, aligned, tsAt >= 0 ? c.bb.getLong(p + tsAt) : 0L, tsAt >= 0);
    }

    /** The buffer of {@code processor} with room for {@code aligned} bytes, sealing the full one first. */
    private CpuBuffer reserve(int processor, int aligned) throws IOException {
        if (processor < 0 || processor >= MAX_PROCESSORS) {
            throw new IllegalArgumentException("processor index " + processor + " is outside 0.." + (MAX_PROCESSORS - 1));
        }
        if (aligned > bufferSize - HEADER) {
            throw new IllegalArgumentException("a record of " + aligned + " bytes cannot fit a " + bufferSize + "-byte buffer");
        }
        if (processor >= cpus.length) {
            cpus = Arrays.copyOf(cpus, Math.max(processor + 1, cpus.length * 2));
        }
        CpuBuffer c = cpus[processor];
        if (c == null) {
            c = cpus[processor] = new CpuBuffer(bufferSize, processor);
        } else if (bufferSize - c.position < aligned) {
            seal(c);
        }
        maxProcessor = Math.max(maxProcessor, processor);
        return c;
    }

    private void committed(CpuBuffer c, int aligned, long raw, boolean hasTimestamp) {
        c.position += aligned;
        c.records++;
        records++;
        if (hasTimestamp) {
            c.lastTimestamp = raw;
            lastRaw = Math.max(lastRaw, raw);
        }
    }

    /** Completes {@code c}'s header (etw-formats.md 3.8 step 3), writes it as the next buffer, empties it. */
    private void seal(CpuBuffer c) throws IOException {
        byte[] bytes = c.bytes;
        ByteBuffer b = c.bb;
        Arrays.fill(bytes, c.position, bytes.length, WmiBufferLayout.PADDING_BYTE);
        Arrays.fill(bytes, 0, HEADER, (byte) 0);
        b.putInt(WmiBufferLayout.BUFFER_SIZE, bufferSize);
        b.putInt(WmiBufferLayout.SAVED_OFFSET, c.position);
        b.putInt(WmiBufferLayout.CURRENT_OFFSET, c.position);
        b.putLong(WmiBufferLayout.TIMESTAMP, c.lastTimestamp);
        b.putLong(WmiBufferLayout.SEQUENCE_NUMBER, ++sequence);
        b.putShort(WmiBufferLayout.PROCESSOR_INDEX, (short) c.processor);
        b.putShort(WmiBufferLayout.LOGGER_ID, (short) DEFAULT_LOGGER_ID);
        b.putInt(WmiBufferLayout.STATE, WmiBufferLayout.STATE_FLUSH);
        b.putInt(WmiBufferLayout.OFFSET, c.position);
        b.putShort(WmiBufferLayout.BUFFER_FLAG, (short) WmiBufferLayout.FLAG_PROC_INDEX);
        b.putShort(WmiBufferLayout.BUFFER_TYPE, (short) WmiBufferLayout.TYPE_GENERIC);
        writeFully(ByteBuffer.wrap(bytes), buffersWritten * (long) bufferSize);
        buffersWritten++;
        c.position = HEADER;
        c.records = 0;
    }

    /**
     * Buffer 0 (etw-formats.md 3.8 step 2): WMI_BUFFER_HEADER with BufferType HEADER and BufferFlag 0x21, then a
     * SYSTEM_TRACE_HEADER (type 0x02, Version 2, hook 0x0000) whose payload is the 64-bit TRACE_LOGFILE_HEADER
     * and the two names, then 0xFF padding.
     */
    private void writeHeaderBuffer(LogfileHeader h) throws IOException {
        byte[] bytes = new byte[bufferSize];
        Arrays.fill(bytes, WmiBufferLayout.PADDING_BYTE);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int record = SYS + h.encodedSize64();
        int end = HEADER + WmiBufferLayout.align(record);
        Arrays.fill(bytes, 0, end, (byte) 0);
        b.putInt(WmiBufferLayout.BUFFER_SIZE, bufferSize);
        b.putInt(WmiBufferLayout.SAVED_OFFSET, end);
        b.putInt(WmiBufferLayout.CURRENT_OFFSET, end);
        b.putShort(WmiBufferLayout.LOGGER_ID, (short) DEFAULT_LOGGER_ID);
        b.putInt(WmiBufferLayout.STATE, WmiBufferLayout.STATE_FLUSH);
        b.putInt(WmiBufferLayout.OFFSET, end);
        b.putShort(WmiBufferLayout.BUFFER_FLAG, (short) (WmiBufferLayout.FLAG_PROC_INDEX | WmiBufferLayout.FLAG_FLUSH_MARKER));
        b.putShort(WmiBufferLayout.BUFFER_TYPE, (short) WmiBufferLayout.TYPE_HEADER);
        int r = HEADER;
        b.putShort(r + SystemTraceHeaderLayout.VERSION, (short) 2);
        b.put(r + SystemTraceHeaderLayout.HEADER_TYPE, (byte) TraceHeaderTypes.SYSTEM64);
        b.put(r + SystemTraceHeaderLayout.MARKER_FLAGS, (byte) TraceHeaderTypes.MARKER_STRUCTURED);
        b.putShort(r + SystemTraceHeaderLayout.SIZE, (short) record);
        b.putShort(r + SystemTraceHeaderLayout.HOOK_ID, (short) SystemTraceHeaderLayout.HOOK_LOGFILE_HEADER);
        b.putInt(r + SystemTraceHeaderLayout.THREAD_ID, headerThreadId);
        b.putInt(r + SystemTraceHeaderLayout.PROCESS_ID, headerProcessId);
        b.putLong(r + SystemTraceHeaderLayout.SYSTEM_TIME, startRaw);
        h.encode64(b, r + SYS);
        writeFully(b, 0L);
    }

    private void writeFully(ByteBuffer b, long position) throws IOException {
        long at = position;
        while (b.hasRemaining()) {
            at += channel.write(b, at);
        }
    }

    private static int countRecords(ByteBuffer b, int start) {
        int end = Math.min(b.getInt(start + WmiBufferLayout.SAVED_OFFSET), b.remaining());
        int n = 0;
        int p = HEADER;
        while (p + 8 <= end && b.getInt(start + p) != TraceHeaderTypes.END_OF_BUFFER_MARKER) {
            int size = RecordLayouts.size(b, start + p);
            if (size <= 0) {
                break;
            }
            n++;
            p += WmiBufferLayout.align(size);
        }
        return n;
    }

    private static int itemSize(int dataSize) {
        return WmiBufferLayout.align(EXT_ITEM_HEADER_SIZE + dataSize);
    }

    /** Writes a GUID in Windows byte order from its canonical halves. */
    private static void putGuid(ByteBuffer b, int at, long msb, long lsb) {
        b.putInt(at, (int) (msb >>> 32));
        b.putShort(at + 4, (short) (msb >>> 16));
        b.putShort(at + 6, (short) msb);
        b.putLong(at + 8, Long.reverseBytes(lsb));
    }

    private static ByteBuffer le(ByteBuffer b) {
        return b.order() == ByteOrder.LITTLE_ENDIAN ? b : b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(path + ": the writer is closed");
        }
    }

    @Override
    public String toString() {
        return "EtlWriter[" + path + ", " + records + " records, " + buffersWritten + " buffers" + (closed ? ", closed]" : "]");
    }

    /** One processor's buffer being filled. */
    private static final class CpuBuffer {
        final byte[] bytes;
        final ByteBuffer bb;
        final int processor;
        int position = HEADER;
        int records;
        long lastTimestamp;

        CpuBuffer(int size, int processor) {
            this.bytes = new byte[size];
            this.bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            this.processor = processor;
        }
    }
}
