package org.etw4j.consumer;

import java.nio.ByteBuffer;
import org.etw4j.Guid;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.etl.HeaderKind;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.spi.RawEventRecord;

/**
 * Presents the reader's current record ({@link EtlRecordView}) as an {@code EVENT_RECORD} the way ProcessTrace
 * would: EVENT_HEADER records as they are; kernel (SYSTEM, PERFINFO) and classic (EVENT_TRACE, instance) records
 * with {@code EVENT_HEADER_FLAG_CLASSIC_HEADER}, the event-class (or kernel group) GUID as provider and the
 * opcode and version that identify their MOF class (what {@link org.etw4j.consumer.decode.EventDecoder}
 * expects); WPP messages with {@code EVENT_HEADER_FLAG_TRACE_MESSAGE}. Timestamps are FILETIME.
 *
 * <p>Not thread-safe; reused by one stream, re-pointed at each record; valid while the view is.
 */
final class EtlRecordAdapter implements RawEventRecord {
    private EtlRecordView v;

    void set(EtlRecordView view) {
        this.v = view;
    }

    EtlRecordView view() {
        return v;
    }

    @Override
    public int flags() {
        HeaderKind k = v.kind();
        if (k == HeaderKind.EVENT_HEADER) {
            return v.headerFlags();
        }
        return k == HeaderKind.MESSAGE_TRACE_HEADER ? EventHeaderLayout.FLAG_TRACE_MESSAGE : EventHeaderLayout.FLAG_CLASSIC_HEADER;
    }

    @Override
    public int eventProperty() {
        return v.eventProperty();
    }

    @Override
    public int threadId() {
        return v.threadId();
    }

    @Override
    public int processId() {
        return v.processId();
    }

    @Override
    public long timestamp() {
        return v.timestampFileTime();
    }

    @Override
    public long providerIdMsb() {
        return v.providerIdMostSignificantBits();
    }

    @Override
    public long providerIdLsb() {
        return v.providerIdLeastSignificantBits();
    }

    @Override
    public Guid providerId() {
        return v.providerId();
    }

    @Override
    public int id() {
        return v.eventId();
    }

    @Override
    public int version() {
        return v.version();
    }

    @Override
    public int channel() {
        return v.channel();
    }

    @Override
    public int level() {
        return v.level();
    }

    @Override
    public int opcode() {
        return v.opcode();
    }

    @Override
    public int task() {
        return v.task();
    }

    @Override
    public long keyword() {
        return v.keyword();
    }

    @Override
    public int kernelTime() {
        return (int) v.kernelTime();
    }

    @Override
    public int userTime() {
        return (int) v.userTime();
    }

    @Override
    public long activityIdMsb() {
        return v.activityIdMostSignificantBits();
    }

    @Override
    public long activityIdLsb() {
        return v.activityIdLeastSignificantBits();
    }

    @Override
    public int processorIndex() {
        return v.processorIndex();
    }

    @Override
    public int pointerSize() {
        return v.pointerSize();
    }

    @Override
    public int extendedDataCount() {
        return v.extendedDataCount();
    }

    @Override
    public int extendedDataType(int index) {
        return v.extendedDataType(index);
    }

    @Override
    public ByteBuffer extendedData(int index) {
        return v.extendedData(index);
    }

    @Override
    public ByteBuffer extendedDataOfType(int type) {
        int i = v.findExtendedData(type);
        return i < 0 ? null : v.extendedData(i);
    }

    @Override
    public ByteBuffer userData() {
        return v.userData();
    }

    @Override
    public int userDataLength() {
        return v.userDataLength();
    }
}
