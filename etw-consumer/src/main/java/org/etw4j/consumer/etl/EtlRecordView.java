package org.etw4j.consumer.etl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.format.TraceHeaderTypes;

/**
 * The current record of an {@link EtlCursor}: a flyweight read straight from the buffer, whatever the
 * header kind.
 *
 * <p>Not thread-safe; reused: one object per cursor, describing the current record only until the
 * cursor advances (afterwards it describes the next record). {@link #copy()} returns an immutable
 * {@link EtlRecord}. Primitive getters read the buffer with absolute little-endian gets and allocate
 * nothing; methods returning {@link Guid}, {@link Instant} or {@link ByteBuffer} allocate a small object.
 * Slices ({@link #userData()}, {@link #extendedData(int)}) share the cursor's buffer and are valid only as
 * long as the view; after the file is closed they throw {@link IllegalStateException}.
 *
 * <p>Field meaning per header kind (sources: ntwmi.h, evntcons.h {@code EVENT_HEADER}):
 * <ul>
 * <li>Provider id: EVENT_HEADER ProviderId; EVENT_TRACE_HEADER / EVENT_INSTANCE_GUID_HEADER: the
 *     event-class GUID; SYSTEM / PERFINFO: the kernel group's GUID (hook id high byte); MESSAGE: the
 *     message GUID when present, else GUID_NULL.</li>
 * <li>Descriptor: EVENT_HEADER: its EVENT_DESCRIPTOR; classic: opcode = Class.Type, level =
 *     Class.Level, version = Class.Version; SYSTEM / PERFINFO: opcode = hook type (low byte), version =
 *     the header Version's low byte; MESSAGE: id = MessageNumber. Absent fields read 0.</li>
 * <li>Process / thread ids: -1 when the header has none (PERFINFO, messages without SYSTEMINFO).</li>
 * </ul>
 */
public final class EtlRecordView {
    private RecordStream s;
    /** This view as an EVENT_RECORD, made on first use and pointed at this view for good. */
    private EtlRecordEvent asRaw;

    EtlRecordView() {
    }

    void attach(RecordStream stream) {
        this.s = stream;
    }

    void detach() {
        this.s = null;
    }

    private RecordStream s() {
        RecordStream stream = s;
        if (stream == null) {
            throw new IllegalStateException("the cursor is not on a record");
        }
        return stream;
    }

    /** The file this record is in. */
    public EtlFile file() {
        return s().file;
    }

    // ------------------------------------------------------------------------------ header identity

    /** The kind of header. */
    public HeaderKind kind() {
        return s().kind;
    }

    /** Raw header type byte ({@link TraceHeaderTypes}); 0x0F for messages. */
    public int headerType() {
        return s().headerType;
    }

    /** Whether this is a compact SYSTEM_TRACE_HEADER (0x03/0x04: no kernel/user time). */
    public boolean isCompactSystemHeader() {
        int t = s().headerType;
        return t == TraceHeaderTypes.COMPACT32 || t == TraceHeaderTypes.COMPACT64;
    }

    /** Marker flags byte (0xC0 structured, 0x90 message). */
    public int markerFlags() {
        RecordStream r = s();
        return Le.u8(r.buffer, r.pos + 3);
    }

    /**
     * Pointer size of the logging context, 4 or 8: from the header type (32/64-bit pairs), for messages
     * from the POINTER32/POINTER64 option flags, else the logfile header's PointerSize.
     */
    public int pointerSize() {
        RecordStream r = s();
        if (r.kind == HeaderKind.MESSAGE_TRACE_HEADER) {
            int options = Le.u16(r.buffer, r.pos + ClassicLayout.MESSAGE_OPTION_FLAGS);
            if ((options & RecordStream.MESSAGE_POINTER64) != 0) {
                return 8;
            }
            if ((options & RecordStream.MESSAGE_POINTER32) != 0) {
                return 4;
            }
            return r.file.header().pointerSize() == 4 ? 4 : 8;
        }
        return TraceHeaderTypes.is64Bit(r.headerType) ? 8 : 4;
    }

    /** Record size in bytes, header included, alignment padding excluded. */
    public int size() {
        return s().size;
    }

    // ------------------------------------------------------------------------------------ provider

    /** High half (canonical order) of {@link #providerId()}, without allocating. */
    public long providerIdMostSignificantBits() {
        RecordStream r = s();
        return switch (r.kind) {
            case SYSTEM_TRACE_HEADER, PERFINFO_TRACE_HEADER -> KernelGroups.msb(kernelRow(r));
            case EVENT_HEADER -> Le.guidMsb(r.buffer, r.pos + EventHeaderLayout.PROVIDER_ID);
            case EVENT_TRACE_HEADER, EVENT_INSTANCE_GUID_HEADER -> Le.guidMsb(r.buffer, r.pos + ClassicLayout.GUID);
            case MESSAGE_TRACE_HEADER -> r.messageGuidAt < 0 ? 0L : Le.guidMsb(r.buffer, r.messageGuidAt);
        };
    }

    /** Low half (canonical order) of {@link #providerId()}, without allocating. */
    public long providerIdLeastSignificantBits() {
        RecordStream r = s();
        return switch (r.kind) {
            case SYSTEM_TRACE_HEADER, PERFINFO_TRACE_HEADER -> KernelGroups.lsb(kernelRow(r));
            case EVENT_HEADER -> Le.guidLsb(r.buffer, r.pos + EventHeaderLayout.PROVIDER_ID);
            case EVENT_TRACE_HEADER, EVENT_INSTANCE_GUID_HEADER -> Le.guidLsb(r.buffer, r.pos + ClassicLayout.GUID);
            case MESSAGE_TRACE_HEADER -> r.messageGuidAt < 0 ? 0L : Le.guidLsb(r.buffer, r.messageGuidAt);
        };
    }

    /** The provider id (see the class comment for what it is per header kind). */
    public Guid providerId() {
        RecordStream r = s();
        if (r.kind == HeaderKind.SYSTEM_TRACE_HEADER || r.kind == HeaderKind.PERFINFO_TRACE_HEADER) {
            return KernelGroups.guid(kernelRow(r));
        }
        return new Guid(providerIdMostSignificantBits(), providerIdLeastSignificantBits());
    }

    /** Kernel hook id {@code (group << 8) | type} of SYSTEM / PERFINFO records; 0 otherwise. */
    public int hookId() {
        RecordStream r = s();
        return isKernel(r) ? Le.u16(r.buffer, r.pos + SystemTraceHeaderLayout.HOOK_ID) : 0;
    }

    /** Kernel event-trace group (hook id high byte) of SYSTEM / PERFINFO records; 0 otherwise. */
    public int group() {
        RecordStream r = s();
        return isKernel(r) ? Le.u8(r.buffer, r.pos + SystemTraceHeaderLayout.HOOK_GROUP) : 0;
    }

    private static boolean isKernel(RecordStream r) {
        return r.kind == HeaderKind.SYSTEM_TRACE_HEADER || r.kind == HeaderKind.PERFINFO_TRACE_HEADER;
    }

    private static int kernelRow(RecordStream r) {
        return KernelGroups.row(Le.u8(r.buffer, r.pos + SystemTraceHeaderLayout.HOOK_GROUP),
                Le.u8(r.buffer, r.pos + SystemTraceHeaderLayout.HOOK_TYPE));
    }

    // ---------------------------------------------------------------------------------- descriptor

    /** Event id (EVENT_HEADER), MessageNumber (MESSAGE), else 0. */
    public int eventId() {
        RecordStream r = s();
        return switch (r.kind) {
            case EVENT_HEADER -> Le.u16(r.buffer, r.pos + EventHeaderLayout.DESCRIPTOR_ID);
            case MESSAGE_TRACE_HEADER -> Le.u16(r.buffer, r.pos + ClassicLayout.MESSAGE_NUMBER);
            default -> 0;
        };
    }

    /** Event version (EVENT_HEADER u8; classic Class.Version u16; kernel: header Version low byte). */
    public int version() {
        RecordStream r = s();
        return switch (r.kind) {
            case EVENT_HEADER -> Le.u8(r.buffer, r.pos + EventHeaderLayout.DESCRIPTOR_VERSION);
            case EVENT_TRACE_HEADER, EVENT_INSTANCE_GUID_HEADER -> Le.u16(r.buffer, r.pos + ClassicLayout.CLASS_VERSION);
            case SYSTEM_TRACE_HEADER, PERFINFO_TRACE_HEADER -> Le.u8(r.buffer, r.pos + SystemTraceHeaderLayout.VERSION);
            case MESSAGE_TRACE_HEADER -> 0;
        };
    }

    /** Channel (EVENT_HEADER only; else 0). */
    public int channel() {
        RecordStream r = s();
        return r.kind == HeaderKind.EVENT_HEADER ? Le.u8(r.buffer, r.pos + EventHeaderLayout.DESCRIPTOR_CHANNEL) : 0;
    }

    /** Level (EVENT_HEADER; classic Class.Level; else 0). */
    public int level() {
        RecordStream r = s();
        return switch (r.kind) {
            case EVENT_HEADER -> Le.u8(r.buffer, r.pos + EventHeaderLayout.DESCRIPTOR_LEVEL);
            case EVENT_TRACE_HEADER, EVENT_INSTANCE_GUID_HEADER -> Le.u8(r.buffer, r.pos + ClassicLayout.CLASS_LEVEL);
            default -> 0;
        };
    }

    /** Opcode (EVENT_HEADER; classic Class.Type; kernel hook type; else 0). */
    public int opcode() {
        RecordStream r = s();
        return switch (r.kind) {
            case EVENT_HEADER -> Le.u8(r.buffer, r.pos + EventHeaderLayout.DESCRIPTOR_OPCODE);
            case EVENT_TRACE_HEADER, EVENT_INSTANCE_GUID_HEADER -> Le.u8(r.buffer, r.pos + ClassicLayout.CLASS_TYPE);
            case SYSTEM_TRACE_HEADER, PERFINFO_TRACE_HEADER -> Le.u8(r.buffer, r.pos + SystemTraceHeaderLayout.HOOK_TYPE);
            case MESSAGE_TRACE_HEADER -> 0;
        };
    }

    /** Task (EVENT_HEADER only; else 0). */
    public int task() {
        RecordStream r = s();
        return r.kind == HeaderKind.EVENT_HEADER ? Le.u16(r.buffer, r.pos + EventHeaderLayout.DESCRIPTOR_TASK) : 0;
    }

    /** Keyword mask (EVENT_HEADER only; else 0). */
    public long keyword() {
        RecordStream r = s();
        return r.kind == HeaderKind.EVENT_HEADER ? r.buffer.getLong(r.pos + EventHeaderLayout.DESCRIPTOR_KEYWORD) : 0L;
    }

    // ------------------------------------------------------------------------------ who and where

    /** Process id, or -1 when the header has none. */
    public int processId() {
        RecordStream r = s();
        return switch (r.kind) {
            case PERFINFO_TRACE_HEADER -> -1;
            case MESSAGE_TRACE_HEADER -> r.messageSystemInfoAt < 0 ? -1 : r.buffer.getInt(r.messageSystemInfoAt + 4);
            default -> r.buffer.getInt(r.pos + ClassicLayout.PROCESS_ID);
        };
    }

    /** Thread id, or -1 when the header has none. */
    public int threadId() {
        RecordStream r = s();
        return switch (r.kind) {
            case PERFINFO_TRACE_HEADER -> -1;
            case MESSAGE_TRACE_HEADER -> r.messageSystemInfoAt < 0 ? -1 : r.buffer.getInt(r.messageSystemInfoAt);
            default -> r.buffer.getInt(r.pos + ClassicLayout.THREAD_ID);
        };
    }

    /** Processor that logged the record (from its buffer's header). */
    public int processorIndex() {
        return s().processor;
    }

    /** Index of the record's buffer in file order (0 = header buffer). */
    public long bufferIndex() {
        return s().bufferIndex;
    }

    /** File offset of the record's buffer. */
    public long bufferFileOffset() {
        return s().bufferOffset;
    }

    /** Offset of the record in its (decompressed) buffer. */
    public int offsetInBuffer() {
        return s().pos;
    }

    /** Whether the record's buffer was stored compressed. */
    public boolean inCompressedBuffer() {
        return s().compressedBuffer;
    }

    /** How the record's buffer was compressed; null when it was stored uncompressed (for tests and diagnostics). */
    BufferCompression bufferCompression() {
        return s().compression;
    }

    /** File offset of the record, or -1 when its buffer is compressed (see {@link #offsetInBuffer()}). */
    public long fileOffset() {
        RecordStream r = s();
        return r.compressedBuffer ? -1 : r.bufferOffset + r.pos;
    }

    // ---------------------------------------------------------------------------------------- time

    /** Raw timestamp in the trace clock (messages without one: the previous record's). */
    public long timestamp() {
        return s().timestamp;
    }

    /** Timestamp as FILETIME (100 ns since 1601 UTC). */
    public long timestampFileTime() {
        RecordStream r = s();
        return r.file.clock().toFileTime(r.timestamp);
    }

    /** Timestamp as an instant. */
    public Instant timestampInstant() {
        RecordStream r = s();
        return r.file.clock().toInstant(r.timestamp);
    }

    /** Kernel-mode CPU time (u32 in the header's units), 0 when the header has none. */
    public long kernelTime() {
        RecordStream r = s();
        return switch (r.kind) {
            case EVENT_HEADER -> Le.u32(r.buffer, r.pos + EventHeaderLayout.KERNEL_TIME);
            case EVENT_TRACE_HEADER, EVENT_INSTANCE_GUID_HEADER -> Le.u32(r.buffer, r.pos + ClassicLayout.KERNEL_TIME);
            case SYSTEM_TRACE_HEADER -> isCompactSystemHeader() ? 0 : Le.u32(r.buffer, r.pos + SystemTraceHeaderLayout.KERNEL_TIME);
            default -> 0;
        };
    }

    /** User-mode CPU time, 0 when the header has none. */
    public long userTime() {
        RecordStream r = s();
        return switch (r.kind) {
            case EVENT_HEADER -> Le.u32(r.buffer, r.pos + EventHeaderLayout.USER_TIME);
            case EVENT_TRACE_HEADER, EVENT_INSTANCE_GUID_HEADER -> Le.u32(r.buffer, r.pos + ClassicLayout.USER_TIME);
            case SYSTEM_TRACE_HEADER -> isCompactSystemHeader() ? 0 : Le.u32(r.buffer, r.pos + SystemTraceHeaderLayout.USER_TIME);
            default -> 0;
        };
    }

    /** EVENT_HEADER ProcessorTime (u64 union of kernel and user time, used by private sessions); else 0. */
    public long processorTime() {
        RecordStream r = s();
        return r.kind == HeaderKind.EVENT_HEADER ? r.buffer.getLong(r.pos + EventHeaderLayout.KERNEL_TIME) : 0L;
    }

    // -------------------------------------------------------------------------- EVENT_HEADER extras

    /** EVENT_HEADER Flags ({@code EVENT_HEADER_FLAG_*} as stored); 0 for other kinds. */
    public int headerFlags() {
        RecordStream r = s();
        return r.kind == HeaderKind.EVENT_HEADER ? Le.u16(r.buffer, r.pos + EventHeaderLayout.FLAGS) : 0;
    }

    /** EVENT_HEADER EventProperty; 0 for other kinds. */
    public int eventProperty() {
        RecordStream r = s();
        return r.kind == HeaderKind.EVENT_HEADER ? Le.u16(r.buffer, r.pos + EventHeaderLayout.EVENT_PROPERTY) : 0;
    }

    /** High half of the activity id (EVENT_HEADER only; else 0). */
    public long activityIdMostSignificantBits() {
        RecordStream r = s();
        return r.kind == HeaderKind.EVENT_HEADER ? Le.guidMsb(r.buffer, r.pos + EventHeaderLayout.ACTIVITY_ID) : 0L;
    }

    /** Low half of the activity id (EVENT_HEADER only; else 0). */
    public long activityIdLeastSignificantBits() {
        RecordStream r = s();
        return r.kind == HeaderKind.EVENT_HEADER ? Le.guidLsb(r.buffer, r.pos + EventHeaderLayout.ACTIVITY_ID) : 0L;
    }

    /** The activity id; GUID_NULL for kinds without one. */
    public Guid activityId() {
        long msb = activityIdMostSignificantBits();
        long lsb = activityIdLeastSignificantBits();
        return msb == 0 && lsb == 0 ? Guid.NULL : new Guid(msb, lsb);
    }

    /** Number of extended data items (EVENT_HEADER with EXTENDED_INFO; else 0). */
    public int extendedDataCount() {
        return s().extCount;
    }

    /** {@code EVENT_HEADER_EXT_TYPE_*} of item {@code index}. */
    public int extendedDataType(int index) {
        RecordStream r = s();
        return Le.u16(r.buffer, extItem(r, index) + EventHeaderLayout.EXT_ITEM_TYPE);
    }

    /** Data size of item {@code index}. */
    public int extendedDataSize(int index) {
        RecordStream r = s();
        return Le.u16(r.buffer, extItem(r, index) + EventHeaderLayout.EXT_ITEM_DATA_SIZE);
    }

    /** Data of item {@code index}: a read-only little-endian slice. */
    public ByteBuffer extendedData(int index) {
        RecordStream r = s();
        int at = extItem(r, index);
        return slice(r, at + EventHeaderLayout.EXT_ITEM_HEADER_SIZE,
                Le.u16(r.buffer, at + EventHeaderLayout.EXT_ITEM_DATA_SIZE));
    }

    /** Index of the first extended data item of a type, or -1. */
    public int findExtendedData(int type) {
        RecordStream r = s();
        for (int i = 0; i < r.extCount; i++) {
            if (Le.u16(r.buffer, r.extOffsets[i] + EventHeaderLayout.EXT_ITEM_TYPE) == type) {
                return i;
            }
        }
        return -1;
    }

    private static int extItem(RecordStream r, int index) {
        if (index < 0 || index >= r.extCount) {
            throw new IndexOutOfBoundsException("extended data item " + index + " of " + r.extCount);
        }
        return r.extOffsets[index];
    }

    // ------------------------------------------------------------------------- instance / message

    /** EVENT_INSTANCE_GUID_HEADER InstanceId; 0 for other kinds. */
    public int instanceId() {
        RecordStream r = s();
        return r.kind == HeaderKind.EVENT_INSTANCE_GUID_HEADER ? r.buffer.getInt(r.pos + ClassicLayout.INSTANCE_ID) : 0;
    }

    /** EVENT_INSTANCE_GUID_HEADER ParentInstanceId; 0 for other kinds. */
    public int parentInstanceId() {
        RecordStream r = s();
        return r.kind == HeaderKind.EVENT_INSTANCE_GUID_HEADER ? r.buffer.getInt(r.pos + ClassicLayout.PARENT_INSTANCE_ID) : 0;
    }

    /** EVENT_INSTANCE_GUID_HEADER ParentGuid; GUID_NULL for other kinds. */
    public Guid parentGuid() {
        RecordStream r = s();
        if (r.kind != HeaderKind.EVENT_INSTANCE_GUID_HEADER) {
            return Guid.NULL;
        }
        return new Guid(Le.guidMsb(r.buffer, r.pos + ClassicLayout.PARENT_GUID),
                Le.guidLsb(r.buffer, r.pos + ClassicLayout.PARENT_GUID));
    }

    /** MESSAGE_TRACE_HEADER option flags ({@code TRACE_MESSAGE_*}); 0 for other kinds. */
    public int messageFlags() {
        RecordStream r = s();
        return r.kind == HeaderKind.MESSAGE_TRACE_HEADER ? Le.u16(r.buffer, r.pos + ClassicLayout.MESSAGE_OPTION_FLAGS) : 0;
    }

    /** Message sequence number, or -1 when absent. */
    public long messageSequence() {
        RecordStream r = s();
        return r.kind == HeaderKind.MESSAGE_TRACE_HEADER && r.messageSequenceAt >= 0 ? Le.u32(r.buffer, r.messageSequenceAt) : -1;
    }

    /** Message component id, or -1 when absent. */
    public long messageComponentId() {
        RecordStream r = s();
        return r.kind == HeaderKind.MESSAGE_TRACE_HEADER && r.messageComponentAt >= 0 ? Le.u32(r.buffer, r.messageComponentAt) : -1;
    }

    // ----------------------------------------------------------------------------------- payload

    /** Bytes of user data (payload after the header, header extensions and extended data items). */
    public int userDataLength() {
        RecordStream r = s();
        return r.pos + r.size - r.userDataOffset;
    }

    /** Copies the user data into {@code dst} at {@code offset}, without a slice (no allocation). */
    public void copyUserData(byte[] dst, int offset) {
        RecordStream r = s();
        r.buffer.get(r.userDataOffset, dst, offset, r.pos + r.size - r.userDataOffset);
    }

    /** Offset of the user data in the record. */
    public int userDataOffsetInRecord() {
        RecordStream r = s();
        return r.userDataOffset - r.pos;
    }

    /** The user data: a read-only little-endian slice, valid as long as this view. */
    public ByteBuffer userData() {
        RecordStream r = s();
        return slice(r, r.userDataOffset, r.pos + r.size - r.userDataOffset);
    }

    /** The whole record (header included): a read-only little-endian slice, valid as long as this view. */
    public ByteBuffer recordBytes() {
        RecordStream r = s();
        return slice(r, r.pos, r.size);
    }

    private static ByteBuffer slice(RecordStream r, int from, int length) {
        return r.buffer.slice(from, length).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    // ---------------------------------------------------------------------------- EVENT_RECORD form

    /**
     * This record as the {@code EVENT_RECORD} ProcessTrace would deliver for it ({@link RawEventRecord}, the form
     * etw-api's backends deliver live records in): EVENT_HEADER records with their stored flags; WPP messages with
     * {@code EVENT_HEADER_FLAG_TRACE_MESSAGE}; every other header (kernel SYSTEM and PERFINFO, classic and instance
     * records) with {@code EVENT_HEADER_FLAG_CLASSIC_HEADER}, their event-class (or kernel group) GUID as provider id
     * and their class type / hook type as opcode; timestamps as FILETIME.
     *
     * <p>The same object on every call (made on the first, then allocation-free): it reads this view, so it
     * describes the cursor's current record and is valid as long as the view.
     */
    public RawEventRecord asRawEventRecord() {
        EtlRecordEvent r = asRaw;
        if (r == null) {
            r = new EtlRecordEvent().of(this);
            asRaw = r;
        }
        return r;
    }

    // -------------------------------------------------------------------------------------- copy

    /** An immutable snapshot of this record, payload and extended data included. */
    public EtlRecord copy() {
        RecordStream r = s();
        List<EtlRecord.ExtendedData> items = new ArrayList<>(r.extCount);
        for (int i = 0; i < r.extCount; i++) {
            ByteBuffer data = extendedData(i);
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            items.add(new EtlRecord.ExtendedData(extendedDataType(i), bytes));
        }
        byte[] user = new byte[userDataLength()];
        r.buffer.get(r.userDataOffset, user);
        return new EtlRecord(r.file.name(), kind(), headerType(), pointerSize(), providerId(), eventId(), version(),
                channel(), level(), opcode(), task(), keyword(), hookId(), processId(), threadId(), processorIndex(),
                timestamp(), timestampFileTime(), kernelTime(), userTime(), activityId(), headerFlags(),
                eventProperty(), List.copyOf(items), user, bufferIndex(), bufferFileOffset(), offsetInBuffer());
    }

    @Override
    public String toString() {
        RecordStream r = s;
        if (r == null) {
            return "EtlRecordView[no record]";
        }
        return "EtlRecordView[" + r.kind + " type=0x" + Integer.toHexString(r.headerType) + " provider=" + providerId()
                + " ts=" + r.timestamp + " buffer=" + r.bufferIndex + " offset=0x" + Integer.toHexString(r.pos) + "]";
    }
}
