package org.etw4j.consumer.decode;

import java.nio.ByteBuffer;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.etl.HeaderKind;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.spi.RawEventRecord;

/**
 * Presents the .etl reader's current record ({@link EtlRecordView}) as a {@link RawEventRecord}, the input of
 * {@link EventDecoder}, the way ProcessTrace would: records with any header other than {@code EVENT_HEADER}
 * get the classic-header flag ({@code EVENT_HEADER_FLAG_CLASSIC_HEADER}), their event-class (or kernel group)
 * GUID as provider id, and their class type / hook type as opcode; the 32/64-bit header flag is set from the
 * record's pointer size.
 * Flyweight: not thread-safe; {@link #of(EtlRecordView)} re-points it, and it is valid only as long as the
 * view it wraps (until the cursor advances). Reading allocates nothing except the buffer slices
 * {@link #userData()} and {@link #extendedData(int)} return.
 */
public final class EtlRecordEvent implements RawEventRecord {
    private EtlRecordView v;

    /** Points this adapter at {@code view} and returns it. */
    public EtlRecordEvent of(EtlRecordView view) {
        this.v = view;
        return this;
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
        int bitness = r.pointerSize() == 4 ? EventHeaderLayout.FLAG_32_BIT_HEADER : EventHeaderLayout.FLAG_64_BIT_HEADER;
        if (r.kind() != HeaderKind.EVENT_HEADER) {
            return EventHeaderLayout.FLAG_CLASSIC_HEADER | bitness;
        }
        return r.headerFlags() | bitness;
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

    @Override
    public long providerIdMsb() {
        return v().providerIdMostSignificantBits();
    }

    @Override
    public long providerIdLsb() {
        return v().providerIdLeastSignificantBits();
    }

    @Override
    public org.etw4j.Guid providerId() {
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
    public ByteBuffer userData() {
        return v().userData();
    }

    @Override
    public int userDataLength() {
        return v().userDataLength();
    }
}
