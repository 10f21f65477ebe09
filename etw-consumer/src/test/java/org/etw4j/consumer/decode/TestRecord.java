package org.etw4j.consumer.decode;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.spi.RawEventRecord;

/** An immutable {@link RawEventRecord} built by tests (and by the test-side .etl walker). */
final class TestRecord implements RawEventRecord {
    final int flags;
    final int pid;
    final int tid;
    final long timestamp;
    final Guid provider;
    final int id;
    final int version;
    final int channel;
    final int level;
    final int opcode;
    final int task;
    final long keyword;
    final int processor;
    final int pointerSize;
    final byte[] userData;
    final List<int[]> extTypes;
    final List<byte[]> extData;

    private TestRecord(Builder b) {
        this.flags = b.flags;
        this.pid = b.pid;
        this.tid = b.tid;
        this.timestamp = b.timestamp;
        this.provider = b.provider;
        this.id = b.id;
        this.version = b.version;
        this.channel = b.channel;
        this.level = b.level;
        this.opcode = b.opcode;
        this.task = b.task;
        this.keyword = b.keyword;
        this.processor = b.processor;
        this.pointerSize = b.pointerSize;
        this.userData = b.userData;
        this.extTypes = List.copyOf(b.extTypes);
        this.extData = List.copyOf(b.extData);
    }

    static Builder builder(Guid provider) {
        return new Builder(provider);
    }

    static final class Builder {
        int flags;
        int pid;
        int tid;
        long timestamp;
        final Guid provider;
        int id;
        int version;
        int channel;
        int level;
        int opcode;
        int task;
        long keyword;
        int processor;
        int pointerSize = 8;
        byte[] userData = new byte[0];
        final List<int[]> extTypes = new ArrayList<>();
        final List<byte[]> extData = new ArrayList<>();

        Builder(Guid provider) {
            this.provider = provider;
        }

        Builder classic() {
            flags |= EventHeaderLayout.FLAG_CLASSIC_HEADER;
            return this;
        }

        Builder id(int v) {
            id = v;
            return this;
        }

        Builder version(int v) {
            version = v;
            return this;
        }

        Builder opcode(int v) {
            opcode = v;
            return this;
        }

        Builder task(int v) {
            task = v;
            return this;
        }

        Builder pointerSize(int v) {
            pointerSize = v;
            return this;
        }

        Builder pid(int v) {
            pid = v;
            return this;
        }

        Builder tid(int v) {
            tid = v;
            return this;
        }

        Builder processor(int v) {
            processor = v;
            return this;
        }

        Builder timestamp(long v) {
            timestamp = v;
            return this;
        }

        Builder data(byte[] v) {
            userData = v.clone();
            return this;
        }

        Builder ext(int type, byte[] data) {
            extTypes.add(new int[] {type});
            extData.add(data.clone());
            flags |= EventHeaderLayout.FLAG_EXTENDED_INFO;
            return this;
        }

        TestRecord build() {
            return new TestRecord(this);
        }
    }

    @Override
    public int flags() {
        return flags;
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
        return timestamp;
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
        return id;
    }

    @Override
    public int version() {
        return version;
    }

    @Override
    public int channel() {
        return channel;
    }

    @Override
    public int level() {
        return level;
    }

    @Override
    public int opcode() {
        return opcode;
    }

    @Override
    public int task() {
        return task;
    }

    @Override
    public long keyword() {
        return keyword;
    }

    @Override
    public int kernelTime() {
        return 0;
    }

    @Override
    public int userTime() {
        return 0;
    }

    @Override
    public long activityIdMsb() {
        return 0;
    }

    @Override
    public long activityIdLsb() {
        return 0;
    }

    @Override
    public int processorIndex() {
        return processor;
    }

    @Override
    public int pointerSize() {
        return pointerSize;
    }

    @Override
    public int extendedDataCount() {
        return extTypes.size();
    }

    @Override
    public int extendedDataType(int index) {
        return extTypes.get(index)[0];
    }

    @Override
    public ByteBuffer extendedData(int index) {
        return ByteBuffer.wrap(extData.get(index)).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer()
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public ByteBuffer userData() {
        return ByteBuffer.wrap(userData).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer()
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public int userDataLength() {
        return userData.length;
    }
}
