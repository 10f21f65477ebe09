package org.etw4j.consumer.writer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.spi.RawEventRecord;

/**
 * A hand-made event for writer and relogger tests: every header value given, FILETIME timestamp.
 *
 * @param items extended items as {type, data} pairs
 */
public record TestEvent(Guid provider, EventDescriptor d, int pid, int tid, long fileTime, int processor, int pointerSize,
                        Guid activity, List<Item> items, byte[] payload) implements RawEventRecord {

    /** One extended item. */
    public record Item(int type, byte[] data) {
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int eventProperty() {
        return 0;
    }

    @Override
    public int threadId() {
        return tid;
    }

    @Override
    public int processId() {
        return pid;
    }

    @Override
    public long timestamp() {
        return fileTime;
    }

    @Override
    public long providerIdMsb() {
        return provider.mostSignificantBits();
    }

    @Override
    public long providerIdLsb() {
        return provider.leastSignificantBits();
    }

    @Override
    public int id() {
        return d.id();
    }

    @Override
    public int version() {
        return d.version();
    }

    @Override
    public int channel() {
        return d.channel();
    }

    @Override
    public int level() {
        return d.level();
    }

    @Override
    public int opcode() {
        return d.opcode();
    }

    @Override
    public int task() {
        return d.task();
    }

    @Override
    public long keyword() {
        return d.keyword();
    }

    @Override
    public int kernelTime() {
        return 11;
    }

    @Override
    public int userTime() {
        return 22;
    }

    @Override
    public long activityIdMsb() {
        return activity.mostSignificantBits();
    }

    @Override
    public long activityIdLsb() {
        return activity.leastSignificantBits();
    }

    @Override
    public int processorIndex() {
        return processor;
    }

    @Override
    public int extendedDataCount() {
        return items.size();
    }

    @Override
    public int extendedDataType(int index) {
        return items.get(index).type();
    }

    @Override
    public ByteBuffer extendedData(int index) {
        return ByteBuffer.wrap(items.get(index).data()).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer();
    }

    @Override
    public ByteBuffer userData() {
        return ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer();
    }

    @Override
    public int userDataLength() {
        return payload.length;
    }
}
