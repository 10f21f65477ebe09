package org.etw4j.consumer.testing;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.format.EventHeaderLayout;

/**
 * A hand-made {@link RawEventRecord} for tests (decoder, writer, relogger): every header value given, the
 * timestamp as FILETIME, the payload and the extended items owned by the record. Built with {@link #builder}.
 *
 * <p>Immutable once built (the builder copies the arrays it is given; do not modify the arrays the accessors
 * return); thread-safe; the buffers it returns are fresh read-only little-endian views.
 *
 * @param flags          {@code EVENT_HEADER_FLAG_*}: CLASSIC_HEADER from {@link Builder#classic()}, EXTENDED_INFO
 *                       as soon as an item is added
 * @param threadId       thread id
 * @param processId      process id
 * @param timestamp      FILETIME
 * @param providerId     provider (or event-class) GUID
 * @param descriptor     the event descriptor
 * @param kernelTime     kernel CPU time (header units)
 * @param userTime       user CPU time (header units)
 * @param activityId     activity id (GUID_NULL when none)
 * @param processorIndex processor
 * @param pointerSize    4 or 8
 * @param items          extended data items, in order
 * @param payload        user data
 */
public record TestRecord(int flags, int threadId, int processId, long timestamp, Guid providerId,
                         EventDescriptor descriptor, int kernelTime, int userTime, Guid activityId, int processorIndex,
                         int pointerSize, List<Item> items, byte[] payload) implements RawEventRecord {

    /** One extended data item: {@code EVENT_HEADER_EXT_TYPE_*} and its bytes. */
    public record Item(int type, byte[] data) {
    }

    /** A builder for an event of {@code provider}; everything else is 0 (GUID_NULL, empty) until set, pointers 8 bytes. */
    public static Builder builder(Guid provider) {
        return new Builder(provider);
    }

    @Override
    public int eventProperty() {
        return 0;
    }

    @Override
    public long providerIdMsb() {
        return providerId.mostSignificantBits();
    }

    @Override
    public long providerIdLsb() {
        return providerId.leastSignificantBits();
    }

    @Override
    public int id() {
        return descriptor.id();
    }

    @Override
    public int version() {
        return descriptor.version();
    }

    @Override
    public int channel() {
        return descriptor.channel();
    }

    @Override
    public int level() {
        return descriptor.level();
    }

    @Override
    public int opcode() {
        return descriptor.opcode();
    }

    @Override
    public int task() {
        return descriptor.task();
    }

    @Override
    public long keyword() {
        return descriptor.keyword();
    }

    @Override
    public long activityIdMsb() {
        return activityId.mostSignificantBits();
    }

    @Override
    public long activityIdLsb() {
        return activityId.leastSignificantBits();
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
        return view(items.get(index).data());
    }

    @Override
    public ByteBuffer userData() {
        return view(payload);
    }

    @Override
    public int userDataLength() {
        return payload.length;
    }

    private static ByteBuffer view(byte[] bytes) {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Builds a {@link TestRecord}.
     *
     * <p>Not thread-safe; one record at a time (it may build several).
     */
    public static final class Builder {
        private final Guid provider;
        private int flags;
        private int pid;
        private int tid;
        private long timestamp;
        private int id;
        private int version;
        private int channel;
        private int level;
        private int opcode;
        private int task;
        private long keyword;
        private int kernelTime;
        private int userTime;
        private Guid activity = Guid.NULL;
        private int processor;
        private int pointerSize = 8;
        private byte[] payload = new byte[0];
        private final List<Item> items = new ArrayList<>();

        private Builder(Guid provider) {
            this.provider = provider;
        }

        /** Marks the record as a classic (MOF or kernel) one: EVENT_HEADER_FLAG_CLASSIC_HEADER. */
        public Builder classic() {
            flags |= EventHeaderLayout.FLAG_CLASSIC_HEADER;
            return this;
        }

        /** All descriptor fields at once. */
        public Builder descriptor(EventDescriptor d) {
            id = d.id();
            version = d.version();
            channel = d.channel();
            level = d.level();
            opcode = d.opcode();
            task = d.task();
            keyword = d.keyword();
            return this;
        }

        public Builder id(int v) {
            id = v;
            return this;
        }

        public Builder version(int v) {
            version = v;
            return this;
        }

        public Builder opcode(int v) {
            opcode = v;
            return this;
        }

        public Builder task(int v) {
            task = v;
            return this;
        }

        public Builder pid(int v) {
            pid = v;
            return this;
        }

        public Builder tid(int v) {
            tid = v;
            return this;
        }

        /** The timestamp as FILETIME. */
        public Builder timestamp(long v) {
            timestamp = v;
            return this;
        }

        public Builder processor(int v) {
            processor = v;
            return this;
        }

        public Builder pointerSize(int v) {
            pointerSize = v;
            return this;
        }

        public Builder activity(Guid v) {
            activity = v;
            return this;
        }

        /** Kernel and user CPU time of the thread (header units). */
        public Builder cpuTimes(int kernel, int user) {
            kernelTime = kernel;
            userTime = user;
            return this;
        }

        /** The user data (copied). */
        public Builder data(byte[] v) {
            payload = v.clone();
            return this;
        }

        /** Adds an extended data item (copied) and sets EVENT_HEADER_FLAG_EXTENDED_INFO. */
        public Builder ext(int type, byte[] data) {
            items.add(new Item(type, data.clone()));
            flags |= EventHeaderLayout.FLAG_EXTENDED_INFO;
            return this;
        }

        public TestRecord build() {
            return new TestRecord(flags, tid, pid, timestamp, provider,
                    new EventDescriptor(id, version, channel, level, opcode, task, keyword), kernelTime, userTime,
                    activity, processor, pointerSize, List.copyOf(items), payload.clone());
        }
    }
}
