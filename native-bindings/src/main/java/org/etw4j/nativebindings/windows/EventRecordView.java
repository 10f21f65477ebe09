package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.etw4j.RawEventRecord;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.nativebindings.generated._ETW_BUFFER_CONTEXT;
import org.etw4j.nativebindings.generated._EVENT_DESCRIPTOR;
import org.etw4j.nativebindings.generated._EVENT_HEADER;
import org.etw4j.nativebindings.generated._EVENT_RECORD;
import org.etw4j.nativebindings.layout.EventHeaderExtendedDataItem;

/**
 * A flyweight {@link RawEventRecord} over the {@code EVENT_RECORD} that ETW passes to the event record callback:
 * the getters read ETW's memory directly.
 *
 * <p>Not thread-safe; one per consumer, reused for every record. Valid only during the callback: the consumer
 * {@link #attach attaches} it to the callback's memory and {@link #detach detaches} it when the callback
 * returns, after which every getter throws {@link IllegalStateException}, and the buffers that
 * {@link #userData()} and {@link #extendedData(int)} returned fail too (they live in an arena closed at detach;
 * they are also confined to the callback's thread). {@link #copy()} keeps a record. The primitive getters
 * allocate nothing.
 *
 * <p>TDH: {@link #eventInformation()} and {@link #eventMapInformation(String)} ask TDH about the record being
 * handled (see {@link TdhLookups}: reused buffers, ERROR_NOT_FOUND remembered per provider, id, version and
 * opcode); the buffers they return die with the callback like the other slices.
 */
public final class EventRecordView implements RawEventRecord {
    private static final long HEADER = _EVENT_RECORD.EventHeader$offset();
    private static final long FLAGS = HEADER + _EVENT_HEADER.Flags$offset();
    private static final long PROPERTY = HEADER + _EVENT_HEADER.EventProperty$offset();
    private static final long THREAD_ID = HEADER + _EVENT_HEADER.ThreadId$offset();
    private static final long PROCESS_ID = HEADER + _EVENT_HEADER.ProcessId$offset();
    private static final long TIMESTAMP = HEADER + _EVENT_HEADER.TimeStamp$offset();
    private static final long PROVIDER_ID = HEADER + _EVENT_HEADER.ProviderId$offset();
    private static final long DESCRIPTOR = HEADER + _EVENT_HEADER.EventDescriptor$offset();
    private static final long ID = DESCRIPTOR + _EVENT_DESCRIPTOR.Id$offset();
    private static final long VERSION = DESCRIPTOR + _EVENT_DESCRIPTOR.Version$offset();
    private static final long CHANNEL = DESCRIPTOR + _EVENT_DESCRIPTOR.Channel$offset();
    private static final long LEVEL = DESCRIPTOR + _EVENT_DESCRIPTOR.Level$offset();
    private static final long OPCODE = DESCRIPTOR + _EVENT_DESCRIPTOR.Opcode$offset();
    private static final long TASK = DESCRIPTOR + _EVENT_DESCRIPTOR.Task$offset();
    private static final long KEYWORD = DESCRIPTOR + _EVENT_DESCRIPTOR.Keyword$offset();
    private static final long KERNEL_TIME = HEADER + _EVENT_HEADER.KernelTime$offset();
    private static final long USER_TIME = HEADER + _EVENT_HEADER.UserTime$offset();
    private static final long ACTIVITY_ID = HEADER + _EVENT_HEADER.ActivityId$offset();
    private static final long PROCESSOR_INDEX = _EVENT_RECORD.BufferContext$offset() + _ETW_BUFFER_CONTEXT.ProcessorIndex$offset();
    private static final long PROCESSOR_NUMBER = _EVENT_RECORD.BufferContext$offset() + _ETW_BUFFER_CONTEXT.ProcessorNumber$offset();
    private static final long EXTENDED_COUNT = _EVENT_RECORD.ExtendedDataCount$offset();
    private static final long USER_DATA_LENGTH = _EVENT_RECORD.UserDataLength$offset();
    private static final long EXTENDED_DATA = _EVENT_RECORD.ExtendedData$offset();
    private static final long USER_DATA = _EVENT_RECORD.UserData$offset();
    private static final long ITEM_BYTES = EventHeaderExtendedDataItem.LAYOUT.byteSize();
    static final long RECORD_BYTES = _EVENT_RECORD.layout().byteSize();

    private MemorySegment record;
    private Arena slices;
    private TdhLookups tdh;

    /** Points the view at the callback's EVENT_RECORD. */
    void attach(MemorySegment eventRecord) {
        record = eventRecord.reinterpret(RECORD_BYTES);
    }

    /** The callback returned: the view and every slice it handed out become invalid. */
    void detach() {
        record = null;
        Arena a = slices;
        if (a != null) {
            slices = null;
            a.close();
        }
    }

    /** Whether the view is attached (inside the callback). */
    public boolean isValid() {
        return record != null;
    }

    /**
     * The {@code EVENT_RECORD} itself, for functions that take one (TdhGetEventInformation): valid only during
     * the callback, like the view.
     */
    public MemorySegment eventRecord() {
        return rec();
    }

    private MemorySegment rec() {
        MemorySegment r = record;
        if (r == null) {
            throw new IllegalStateException("EVENT_RECORD used after its callback returned: ETW reuses that memory;"
                    + " call copy() inside the callback to keep a record");
        }
        return r;
    }

    @Override
    public int flags() {
        return Short.toUnsignedInt(rec().get(ValueLayout.JAVA_SHORT, FLAGS));
    }

    @Override
    public int eventProperty() {
        return Short.toUnsignedInt(rec().get(ValueLayout.JAVA_SHORT, PROPERTY));
    }

    @Override
    public int threadId() {
        return rec().get(ValueLayout.JAVA_INT, THREAD_ID);
    }

    @Override
    public int processId() {
        return rec().get(ValueLayout.JAVA_INT, PROCESS_ID);
    }

    @Override
    public long timestamp() {
        return rec().get(ValueLayout.JAVA_LONG, TIMESTAMP);
    }

    @Override
    public long providerIdMsb() {
        return NativeGuids.msb(rec(), PROVIDER_ID);
    }

    @Override
    public long providerIdLsb() {
        return NativeGuids.lsb(rec(), PROVIDER_ID);
    }

    @Override
    public int id() {
        return Short.toUnsignedInt(rec().get(ValueLayout.JAVA_SHORT, ID));
    }

    @Override
    public int version() {
        return Byte.toUnsignedInt(rec().get(ValueLayout.JAVA_BYTE, VERSION));
    }

    @Override
    public int channel() {
        return Byte.toUnsignedInt(rec().get(ValueLayout.JAVA_BYTE, CHANNEL));
    }

    @Override
    public int level() {
        return Byte.toUnsignedInt(rec().get(ValueLayout.JAVA_BYTE, LEVEL));
    }

    @Override
    public int opcode() {
        return Byte.toUnsignedInt(rec().get(ValueLayout.JAVA_BYTE, OPCODE));
    }

    @Override
    public int task() {
        return Short.toUnsignedInt(rec().get(ValueLayout.JAVA_SHORT, TASK));
    }

    @Override
    public long keyword() {
        return rec().get(ValueLayout.JAVA_LONG, KEYWORD);
    }

    @Override
    public int kernelTime() {
        return rec().get(ValueLayout.JAVA_INT, KERNEL_TIME);
    }

    @Override
    public int userTime() {
        return rec().get(ValueLayout.JAVA_INT, USER_TIME);
    }

    @Override
    public long activityIdMsb() {
        return NativeGuids.msb(rec(), ACTIVITY_ID);
    }

    @Override
    public long activityIdLsb() {
        return NativeGuids.lsb(rec(), ACTIVITY_ID);
    }

    /**
     * The SDK's {@code GetEventProcessorIndex} (evntcons.h): {@code BufferContext.ProcessorIndex} when
     * {@code EVENT_HEADER_FLAG_PROCESSOR_INDEX} is set in {@code EventHeader.Flags}, else the one-byte
     * {@code BufferContext.ProcessorNumber} (the union's other byte is {@code Alignment}, not part of the number).
     */
    @Override
    public int processorIndex() {
        MemorySegment r = rec();
        if ((r.get(ValueLayout.JAVA_SHORT, FLAGS) & EventHeaderLayout.FLAG_PROCESSOR_INDEX) != 0) {
            return Short.toUnsignedInt(r.get(ValueLayout.JAVA_SHORT, PROCESSOR_INDEX));
        }
        return Byte.toUnsignedInt(r.get(ValueLayout.JAVA_BYTE, PROCESSOR_NUMBER));
    }

    @Override
    public int pointerSize() {
        int f = flags();
        return (f & EventHeaderLayout.FLAG_32_BIT_HEADER) != 0 ? 4 : 8;
    }

    @Override
    public int extendedDataCount() {
        return Short.toUnsignedInt(rec().get(ValueLayout.JAVA_SHORT, EXTENDED_COUNT));
    }

    private MemorySegment item(int index) {
        int n = extendedDataCount();
        if (index < 0 || index >= n) {
            throw new IndexOutOfBoundsException("extended data item " + index + " of " + n);
        }
        long items = rec().get(ValueLayout.JAVA_LONG, EXTENDED_DATA);
        return MemorySegment.ofAddress(items + ITEM_BYTES * index).reinterpret(ITEM_BYTES);
    }

    @Override
    public int extendedDataType(int index) {
        return EventHeaderExtendedDataItem.extType(item(index));
    }

    @Override
    public ByteBuffer extendedData(int index) {
        MemorySegment it = item(index);
        return slice(EventHeaderExtendedDataItem.dataPtr(it), EventHeaderExtendedDataItem.dataSize(it));
    }

    @Override
    public ByteBuffer userData() {
        return slice(rec().get(ValueLayout.JAVA_LONG, USER_DATA), userDataLength());
    }

    @Override
    public int userDataLength() {
        return Short.toUnsignedInt(rec().get(ValueLayout.JAVA_SHORT, USER_DATA_LENGTH));
    }

    @Override
    public boolean providesEventInformation() {
        return record != null;
    }

    @Override
    public ByteBuffer eventInformation() {
        MemorySegment info = tdh().eventInformation(this, hasTraceLoggingSchema());
        return info == null ? null : slice(info.address(), (int) info.byteSize());
    }

    @Override
    public ByteBuffer eventMapInformation(String mapName) {
        java.util.Objects.requireNonNull(mapName, "mapName");
        MemorySegment map = tdh().eventMapInformation(this, mapName);
        return map == null ? null : slice(map.address(), (int) map.byteSize());
    }

    /** This view's TDH lookups (made on first use: views that never ask carry no buffers). */
    TdhLookups tdh() {
        rec();
        TdhLookups t = tdh;
        if (t == null) {
            t = new TdhLookups();
            tdh = t;
        }
        return t;
    }

    /** Whether the record carries an EVENT_SCHEMA_TL item (TDH then reads the schema from the record). */
    boolean hasTraceLoggingSchema() {
        for (int i = 0, n = extendedDataCount(); i < n; i++) {
            if (extendedDataType(i) == EventHeaderLayout.EXT_EVENT_SCHEMA_TL) {
                return true;
            }
        }
        return false;
    }

    /** A read-only little-endian buffer over ETW's memory that dies with the callback. */
    private ByteBuffer slice(long address, int length) {
        rec();
        if (length == 0 || address == 0) {
            return ByteBuffer.allocate(0).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer();
        }
        Arena a = slices;
        if (a == null) {
            a = Arena.ofConfined();
            slices = a;
        }
        return MemorySegment.ofAddress(address).reinterpret(length, a, null).asByteBuffer().asReadOnlyBuffer()
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A copy of the record that stays valid after the callback (on heap; immutable). */
    public RawEventRecord copy() {
        return org.etw4j.RecordSnapshot.of(this);
    }
}
