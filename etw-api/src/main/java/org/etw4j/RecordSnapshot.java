package org.etw4j;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * An owned snapshot of a {@link RawEventRecord}: header values plus one array holding the extended data items
 * and the user data (one allocation for all the bytes). What {@link RawEventRecord#copy()} returns: views are
 * valid only during their callback, a snapshot forever.
 *
 * <p>Immutable after construction; thread-safe; the buffers it returns are fresh read-only views.
 */
public final class RecordSnapshot implements RawEventRecord {
    private static final int[] NO_INTS = new int[0];

    private final int flags;
    private final int eventProperty;
    private final int threadId;
    private final int processId;
    private final long timestamp;
    private final boolean rawTimestamp;
    private final long storedTimestamp;
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
    private final int processor;
    private final int pointerSize;
    private final int[] extTypes;
    private final int[] extOffsets;
    private final int[] extLengths;
    private final byte[] bytes;
    private final int userOffset;

    private RecordSnapshot(RawEventRecord r) {
        flags = r.flags();
        eventProperty = r.eventProperty();
        threadId = r.threadId();
        processId = r.processId();
        timestamp = r.timestamp();
        rawTimestamp = r.isRawTimestamp();
        storedTimestamp = r.rawTimestamp();
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
        processor = r.processorIndex();
        pointerSize = r.pointerSize();
        int n = r.extendedDataCount();
        ByteBuffer[] items = new ByteBuffer[n];
        int total = 0;
        for (int i = 0; i < n; i++) {
            items[i] = r.extendedData(i);
            total += items[i].remaining();
        }
        ByteBuffer user = r.userData();
        bytes = new byte[total + user.remaining()];
        extTypes = n == 0 ? NO_INTS : new int[n];
        extOffsets = n == 0 ? NO_INTS : new int[n];
        extLengths = n == 0 ? NO_INTS : new int[n];
        int p = 0;
        for (int i = 0; i < n; i++) {
            ByteBuffer d = items[i];
            int len = d.remaining();
            d.get(d.position(), bytes, p, len);
            extTypes[i] = r.extendedDataType(i);
            extOffsets[i] = p;
            extLengths[i] = len;
            p += len;
        }
        userOffset = p;
        user.get(user.position(), bytes, p, user.remaining());
    }

    /** A snapshot of {@code r} (itself when it already is one). */
    public static RecordSnapshot of(RawEventRecord r) {
        return r instanceof RecordSnapshot c ? c : new RecordSnapshot(r);
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
    public long rawTimestamp() {
        return storedTimestamp;
    }

    @Override
    public boolean isRawTimestamp() {
        return rawTimestamp;
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
        return processor;
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
        return slice(extOffsets[index], extLengths[index]);
    }

    @Override
    public ByteBuffer userData() {
        return slice(userOffset, bytes.length - userOffset);
    }

    @Override
    public int userDataLength() {
        return bytes.length - userOffset;
    }

    private ByteBuffer slice(int offset, int length) {
        return ByteBuffer.wrap(bytes, offset, length).slice().asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }
}
