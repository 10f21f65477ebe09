package org.etw4j.consumer.internal;

import java.nio.ByteBuffer;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.etl.EtlClock;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.format.EventHeaderLayout;

/**
 * Presents the .etl reader's current record ({@link EtlRecordView}) as a {@link RawEventRecord} (an
 * {@code EVENT_RECORD}), the input of {@code org.etw4j.consumer.internal.decode.EventDecoder} and of
 * {@code EventStream}'s records, the way ProcessTrace would: EVENT_HEADER records with their stored flags;
 * WPP messages (MESSAGE_TRACE_HEADER) with {@code EVENT_HEADER_FLAG_TRACE_MESSAGE}; every other header (kernel
 * SYSTEM and PERFINFO, classic EVENT_TRACE and instance records) with {@code EVENT_HEADER_FLAG_CLASSIC_HEADER},
 * their event-class (or kernel group) GUID as provider id and their class type / hook type as opcode.
 * Timestamps are FILETIME. No 32/64-bit header flag is added ({@link #pointerSize()} says it), so a record read
 * back from a file has the flags the live consumer saw.
 *
 * <p>Flyweight: not thread-safe; {@link #of(EtlRecordView)} re-points it, and it is valid only as long as the
 * view it wraps (until the cursor advances). Reading allocates nothing except the buffer slices
 * {@link #userData()} and {@link #extendedData(int)} return.
 */
public final class EtlRecordEvent implements RawEventRecord {
    private EtlRecordView v;

    /** Points this adapter at {@code view} and returns it. */
    public EtlRecordEvent of(EtlRecordView view) {
        if (v != view) { // a cursor re-points one view: no write barrier per record
            v = view;
        }
        return this;
    }

    /** The view this adapter presents. */
    public EtlRecordView view() {
        return v();
    }

    private EtlRecordView v() {
        if (v == null) {
            throw new IllegalStateException("no record: call of(view) first");
        }
        return v;
    }

    @Override
    public int flags() {
        EtlRecordView r = v();
        return switch (r.kind()) {
            case EVENT_HEADER -> r.headerFlags();
            case MESSAGE_TRACE_HEADER -> EventHeaderLayout.FLAG_TRACE_MESSAGE;
            default -> EventHeaderLayout.FLAG_CLASSIC_HEADER;
        };
    }

    @Override
    public int eventProperty() {
        return v().eventProperty();
    }

    @Override
    public int threadId() {
        return v().threadId();
    }

    @Override
    public int processId() {
        return v().processId();
    }

    /** The timestamp as FILETIME. */
    @Override
    public long timestamp() {
        return v().timestampFileTime();
    }

    /** The timestamp as the trace's clock stored it (QPC ticks, FILETIME or CPU cycles; see {@link EtlClock}). */
    @Override
    public long rawTimestamp() {
        return v().timestamp();
    }

    @Override
    public long providerIdMsb() {
        return v().providerIdMostSignificantBits();
    }

    @Override
    public long providerIdLsb() {
        return v().providerIdLeastSignificantBits();
    }

    @Override
    public Guid providerId() {
        return v().providerId();
    }

    @Override
    public int id() {
        return v().eventId();
    }

    @Override
    public int version() {
        return v().version();
    }

    @Override
    public int channel() {
        return v().channel();
    }

    @Override
    public int level() {
        return v().level();
    }

    @Override
    public int opcode() {
        return v().opcode();
    }

    @Override
    public int task() {
        return v().task();
    }

    @Override
    public long keyword() {
        return v().keyword();
    }

    @Override
    public int kernelTime() {
        return (int) v().kernelTime();
    }

    @Override
    public int userTime() {
        return (int) v().userTime();
    }

    @Override
    public long activityIdMsb() {
        return v().activityIdMostSignificantBits();
    }

    @Override
    public long activityIdLsb() {
        return v().activityIdLeastSignificantBits();
    }

    @Override
    public int processorIndex() {
        return v().processorIndex();
    }

    @Override
    public int pointerSize() {
        return v().pointerSize();
    }

    @Override
    public int extendedDataCount() {
        return v().extendedDataCount();
    }

    @Override
    public int extendedDataType(int index) {
        return v().extendedDataType(index);
    }

    @Override
    public ByteBuffer extendedData(int index) {
        return v().extendedData(index);
    }

    @Override
    public ByteBuffer extendedDataOfType(int type) {
        EtlRecordView r = v();
        int i = r.findExtendedData(type);
        return i < 0 ? null : r.extendedData(i);
    }

    @Override
    public ByteBuffer userData() {
        return v().userData();
    }

    @Override
    public int userDataLength() {
        return v().userDataLength();
    }

    @Override
    public void copyUserData(byte[] dst, int offset) {
        v().copyUserData(dst, offset);
    }
}
