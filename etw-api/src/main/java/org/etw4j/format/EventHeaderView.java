package org.etw4j.format;

import org.etw4j.TimestampConverter;
import static org.etw4j.format.EventHeaderLayout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;

/**
 * A reusable view of one {@code EVENT_HEADER} record (types 0x12/0x13) inside an ETW buffer: the flyweight the
 * simulated backend delivers and the .etl reader exposes for such records.
 *
 * <p>Not thread-safe; reused: {@link #reset} points it at another record, and it is valid only while the
 * buffer under it is unchanged (during a callback). Reading header fields allocates nothing. Extended data items
 * are located on reset (up to {@link #MAX_EXTENDED_ITEMS}); a malformed item chain stops the walk and is
 * reported by {@link #extendedDataError()} rather than thrown. Timestamps are converted to FILETIME when a
 * {@link TimestampConverter} is set, otherwise returned raw.
 */
public final class EventHeaderView implements RawEventRecord {
    /** Most extended items one record may have here; more are ignored (ETW defines 18 types). */
    public static final int MAX_EXTENDED_ITEMS = 32;

    private ByteBuffer buf;
    private int base;
    private int size;
    private int processorIndex;
    private TimestampConverter converter;
    private final int[] extOffsets = new int[MAX_EXTENDED_ITEMS];
    private final int[] extSizes = new int[MAX_EXTENDED_ITEMS];
    private final int[] extTypes = new int[MAX_EXTENDED_ITEMS];
    private int extCount;
    private int userOffset;
    private boolean extError;

    /**
     * Points this view at the record starting at {@code offset} of {@code buffer} (little-endian order is
     * applied to a duplicate only when needed; the caller's buffer position is untouched).
     *
     * @return the record size (the u16 Size field)
     * @throws IllegalArgumentException if the record does not fit the buffer or is not an EVENT_HEADER record
     */
    public int reset(ByteBuffer buffer, int offset, int processor, TimestampConverter timestamps) {
        this.buf = buffer.order() == ByteOrder.LITTLE_ENDIAN ? buffer : buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.base = offset;
        this.processorIndex = processor;
        this.converter = timestamps;
        int recSize = Short.toUnsignedInt(buf.getShort(offset + SIZE));
        int type = Byte.toUnsignedInt(buf.get(offset + HEADER_TYPE));
        if (type != HEADER_TYPE_32 && type != HEADER_TYPE_64) {
            throw new IllegalArgumentException("not an EVENT_HEADER record: header type 0x" + Integer.toHexString(type));
        }
        if (recSize < HEADER_SIZE || offset + recSize > buf.limit()) {
            throw new IllegalArgumentException("EVENT_HEADER record size " + recSize + " at " + offset + " does not fit the buffer");
        }
        this.size = recSize;
        locateExtendedItems();
        return recSize;
    }

    private void locateExtendedItems() {
        extCount = 0;
        extError = false;
        int p = base + HEADER_SIZE;
        int end = base + size;
        if ((flags() & FLAG_EXTENDED_INFO) != 0) {
            while (true) {
                if (p + EXT_ITEM_HEADER_SIZE > end) {
                    extError = true;
                    break;
                }
                int itemSize = Short.toUnsignedInt(buf.getShort(p + EXT_ITEM_SIZE));
                int extType = Short.toUnsignedInt(buf.getShort(p + EXT_ITEM_TYPE));
                int linkage = Short.toUnsignedInt(buf.getShort(p + EXT_ITEM_LINKAGE));
                int dataSize = Short.toUnsignedInt(buf.getShort(p + EXT_ITEM_DATA_SIZE));
                if (itemSize < EXT_ITEM_HEADER_SIZE || dataSize > itemSize - EXT_ITEM_HEADER_SIZE || p + itemSize > end) {
                    extError = true;
                    break;
                }
                if (extCount < MAX_EXTENDED_ITEMS) {
                    extOffsets[extCount] = p + EXT_ITEM_HEADER_SIZE;
                    extSizes[extCount] = dataSize;
                    extTypes[extCount] = extType;
                    extCount++;
                }
                p += itemSize;
                if ((linkage & 1) == 0) {
                    break;
                }
            }
        }
        userOffset = Math.min(p, end);
    }

    /** The record size (Size field). */
    public int recordSize() {
        return size;
    }

    /** Offset of the record in its buffer. */
    public int recordOffset() {
        return base;
    }

    /** Whether the extended item chain was malformed (the items before the fault are still visible). */
    public boolean extendedDataError() {
        return extError;
    }

    /** Raw header type (0x12 or 0x13). */
    public int headerType() {
        return Byte.toUnsignedInt(buf.get(base + HEADER_TYPE));
    }

    @Override
    public int flags() {
        return Short.toUnsignedInt(buf.getShort(base + FLAGS));
    }

    @Override
    public int eventProperty() {
        return Short.toUnsignedInt(buf.getShort(base + EVENT_PROPERTY));
    }

    @Override
    public int threadId() {
        return buf.getInt(base + THREAD_ID);
    }

    @Override
    public int processId() {
        return buf.getInt(base + PROCESS_ID);
    }

    /** The timestamp as stored, in the session's clock. */
    @Override
    public long rawTimestamp() {
        return buf.getLong(base + TIMESTAMP);
    }

    @Override
    public long timestamp() {
        long raw = rawTimestamp();
        return converter == null ? raw : converter.toFileTime(raw);
    }

    @Override
    public boolean isRawTimestamp() {
        return converter == null;
    }

    @Override
    public long providerIdMsb() {
        return Guid.windowsMsb(buf, base + PROVIDER_ID);
    }

    @Override
    public long providerIdLsb() {
        return Guid.windowsLsb(buf, base + PROVIDER_ID);
    }

    @Override
    public int id() {
        return Short.toUnsignedInt(buf.getShort(base + DESCRIPTOR_ID));
    }

    @Override
    public int version() {
        return Byte.toUnsignedInt(buf.get(base + DESCRIPTOR_VERSION));
    }

    @Override
    public int channel() {
        return Byte.toUnsignedInt(buf.get(base + DESCRIPTOR_CHANNEL));
    }

    @Override
    public int level() {
        return Byte.toUnsignedInt(buf.get(base + DESCRIPTOR_LEVEL));
    }

    @Override
    public int opcode() {
        return Byte.toUnsignedInt(buf.get(base + DESCRIPTOR_OPCODE));
    }

    @Override
    public int task() {
        return Short.toUnsignedInt(buf.getShort(base + DESCRIPTOR_TASK));
    }

    @Override
    public long keyword() {
        return buf.getLong(base + DESCRIPTOR_KEYWORD);
    }

    @Override
    public int kernelTime() {
        return buf.getInt(base + KERNEL_TIME);
    }

    @Override
    public int userTime() {
        return buf.getInt(base + USER_TIME);
    }

    @Override
    public long activityIdMsb() {
        return Guid.windowsMsb(buf, base + ACTIVITY_ID);
    }

    @Override
    public long activityIdLsb() {
        return Guid.windowsLsb(buf, base + ACTIVITY_ID);
    }

    @Override
    public int processorIndex() {
        return processorIndex;
    }

    @Override
    public int pointerSize() {
        return headerType() == HEADER_TYPE_32 ? 4 : 8;
    }

    @Override
    public int extendedDataCount() {
        return extCount;
    }

    @Override
    public int extendedDataType(int index) {
        checkExt(index);
        return extTypes[index];
    }

    @Override
    public ByteBuffer extendedData(int index) {
        checkExt(index);
        return slice(extOffsets[index], extSizes[index]);
    }

    /** Offset of item {@code index}'s data in the buffer (for allocation-free readers). */
    public int extendedDataOffset(int index) {
        checkExt(index);
        return extOffsets[index];
    }

    /** Size of item {@code index}'s data. */
    public int extendedDataSize(int index) {
        checkExt(index);
        return extSizes[index];
    }

    @Override
    public ByteBuffer userData() {
        return slice(userOffset, userDataLength());
    }

    /** Offset of the user data in the buffer. */
    public int userDataOffset() {
        return userOffset;
    }

    @Override
    public int userDataLength() {
        return base + size - userOffset;
    }

    /** The buffer this view reads. */
    public ByteBuffer buffer() {
        return buf;
    }

    private ByteBuffer slice(int offset, int length) {
        ByteBuffer d = buf.duplicate();
        d.limit(offset + length).position(offset);
        return d.slice().order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    private void checkExt(int index) {
        if (index < 0 || index >= extCount) {
            throw new IndexOutOfBoundsException("extended item " + index + " of " + extCount);
        }
    }
}
