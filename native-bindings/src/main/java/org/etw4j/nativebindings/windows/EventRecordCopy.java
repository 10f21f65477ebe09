package org.etw4j.nativebindings.windows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.etw4j.spi.RawEventRecord;

/**
 * A {@link RawEventRecord} copied out of ETW's memory: header fields, extended items and user data on the heap.
 *
 * <p>Immutable; thread-safe; valid forever. The buffers it returns are read-only views of its own arrays.
 */
final class EventRecordCopy implements RawEventRecord {
    private final int flags;
    private final int eventProperty;
    private final int threadId;
    private final int processId;
    private final long timestamp;
    private final long providerMsb;
    private final long providerLsb;
    private final int id;
    private final int version;
    private final int channel;
    private final int level;
    private final int opcode;
    private final int task;
    private final long keyword;
    private final int kernelTime;
    private final int userTime;
    private final long activityMsb;
    private final long activityLsb;
    private final int processorIndex;
    private final int pointerSize;
    private final int[] extTypes;
    private final byte[][] extData;
    private final byte[] userData;

    private EventRecordCopy(RawEventRecord r) {
        flags = r.flags();
        eventProperty = r.eventProperty();
        threadId = r.threadId();
        processId = r.processId();
        timestamp = r.timestamp();
        providerMsb = r.providerIdMsb();
        providerLsb = r.providerIdLsb();
        id = r.id();
        version = r.version();
        channel = r.channel();
        level = r.level();
        opcode = r.opcode();
        task = r.task();
        keyword = r.keyword();
        kernelTime = r.kernelTime();
        userTime = r.userTime();
        activityMsb = r.activityIdMsb();
        activityLsb = r.activityIdLsb();
        processorIndex = r.processorIndex();
        pointerSize = r.pointerSize();
        int n = r.extendedDataCount();
        extTypes = new int[n];
        extData = new byte[n][];
        for (int i = 0; i < n; i++) {
            extTypes[i] = r.extendedDataType(i);
            extData[i] = bytes(r.extendedData(i));
        }
        userData = bytes(r.userData());
    }

    static EventRecordCopy of(RawEventRecord r) {
        return new EventRecordCopy(r);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    private static ByteBuffer view(byte[] b) {
        return ByteBuffer.wrap(b).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public int flags() {
        return flags;
    }

    @Override
    public int eventProperty() {
        return eventProperty;
    }

    @Override
    public int threadId() {
        return threadId;
    }

    @Override
    public int processId() {
        return processId;
    }

    @Override
    public long timestamp() {
        return timestamp;
    }

    @Override
    public long providerIdMsb() {
        return providerMsb;
    }

    @Override
    public long providerIdLsb() {
        return providerLsb;
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
        return kernelTime;
    }

    @Override
    public int userTime() {
        return userTime;
    }

    @Override
    public long activityIdMsb() {
        return activityMsb;
    }

    @Override
    public long activityIdLsb() {
        return activityLsb;
    }

    @Override
    public int processorIndex() {
        return processorIndex;
    }

    @Override
    public int pointerSize() {
        return pointerSize;
    }

    @Override
    public int extendedDataCount() {
        return extTypes.length;
    }

    @Override
    public int extendedDataType(int index) {
        return extTypes[index];
    }

    @Override
    public ByteBuffer extendedData(int index) {
        return view(extData[index]);
    }

    @Override
    public ByteBuffer userData() {
        return view(userData);
    }

    @Override
    public int userDataLength() {
        return userData.length;
    }
}
