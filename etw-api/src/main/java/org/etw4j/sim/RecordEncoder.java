package org.etw4j.sim;

import static org.etw4j.format.EventHeaderLayout.*;

import java.nio.ByteBuffer;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.format.WmiBufferLayout;
import org.etw4j.provider.EventData;

/**
 * Writes one event as an EVENT_HEADER (0x13) record with its extended data items, as ETW stores it in a buffer
 * (etw-formats.md sections 1.8 and 3.4): TraceLogging metadata blocks become PROV_TRAITS and EVENT_SCHEMA_TL
 * items, the related activity id a RELATED_ACTIVITYID item, and the payload blocks are concatenated.
 *
 * <p>Stateless; static methods; allocation-free. Every buffer passed in is little-endian (as ETW's buffers; GUIDs
 * are stored as two long stores on that assumption). Extended items the session asked for (SID, TS_ID, stack,
 * process start key) are simulated values, documented in {@link SimulatedBackend}.
 */
final class RecordEncoder {
    private RecordEncoder() {
    }

    /** Size of one extended item holding {@code dataSize} bytes. */
    static int itemSize(int dataSize) {
        return WmiBufferLayout.align(EXT_ITEM_HEADER_SIZE + dataSize);
    }

    /**
     * The size of the record (unaligned), or -1 when the event is larger than ETW allows.
     */
    static int recordSize(int extSize, int payloadSize) {
        long total = (long) HEADER_SIZE + extSize + payloadSize;
        return total > MAX_EVENT_SIZE ? -1 : (int) total;
    }

    /** Writes the fixed header; returns the offset after it. */
    static int header(ByteBuffer b, int at, int size, boolean extended, int tid, int pid, long timestamp, Guid provider,
                      EventDescriptor d, Guid activity) {
        b.putShort(at + SIZE, (short) size);
        b.put(at + HEADER_TYPE, (byte) HEADER_TYPE_64);
        b.put(at + MARKER_FLAGS, (byte) MARKER_STRUCTURED);
        b.putShort(at + FLAGS, (short) (extended ? FLAG_EXTENDED_INFO : 0));
        b.putShort(at + EVENT_PROPERTY, (short) 0);
        b.putInt(at + THREAD_ID, tid);
        b.putInt(at + PROCESS_ID, pid);
        b.putLong(at + TIMESTAMP, timestamp);
        putGuid(b, at + PROVIDER_ID, provider);
        b.putShort(at + DESCRIPTOR_ID, (short) d.id());
        b.put(at + DESCRIPTOR_VERSION, (byte) d.version());
        b.put(at + DESCRIPTOR_CHANNEL, (byte) d.channel());
        b.put(at + DESCRIPTOR_LEVEL, (byte) d.level());
        b.put(at + DESCRIPTOR_OPCODE, (byte) d.opcode());
        b.putShort(at + DESCRIPTOR_TASK, (short) d.task());
        b.putLong(at + DESCRIPTOR_KEYWORD, d.keyword());
        b.putLong(at + KERNEL_TIME, 0L);
        putGuid(b, at + ACTIVITY_ID, activity);
        return at + HEADER_SIZE;
    }

    /**
     * A GUID in its Windows memory layout (as {@link Guid#writeTo(ByteBuffer, int)}: Data1 u32, Data2 u16, Data3
     * u16 little-endian, then the 8 bytes of Data4 in order) as two little-endian long stores instead of 16 byte
     * stores. {@code b} must be little-endian.
     */
    static void putGuid(ByteBuffer b, int at, Guid g) {
        long msb = g.mostSignificantBits();
        b.putLong(at, msb >>> 32 | (msb >>> 16 & 0xFFFFL) << 32 | (msb & 0xFFFFL) << 48);
        b.putLong(at + 8, Long.reverseBytes(g.leastSignificantBits()));
    }

    /** Writes an item header for {@code dataSize} bytes; returns the offset of its data. */
    static int itemHeader(ByteBuffer b, int at, int type, int dataSize, boolean more) {
        int item = itemSize(dataSize);
        // zero the padding so records are deterministic: the item's last 8 bytes hold all of it (item is 8-aligned
        // and at least the 8-byte item header); the header and data written next overwrite the rest
        b.putLong(at + item - 8, 0L);
        b.putShort(at + EXT_ITEM_SIZE, (short) item);
        b.putShort(at + EXT_ITEM_TYPE, (short) type);
        b.putShort(at + EXT_ITEM_LINKAGE, (short) (more ? 1 : 0));
        b.putShort(at + EXT_ITEM_DATA_SIZE, (short) dataSize);
        return at + EXT_ITEM_HEADER_SIZE;
    }

    /** Writes an item whose data is a block of {@code data}; returns the offset after the item. */
    static int blockItem(ByteBuffer b, int at, int type, EventData data, int index, boolean more) {
        int len = data.length(index);
        int p = itemHeader(b, at, type, len, more);
        b.put(p, data.array(index), data.offset(index), len);
        return at + itemSize(len);
    }

    /** Writes a GUID item; returns the offset after it. */
    static int guidItem(ByteBuffer b, int at, int type, Guid g, boolean more) {
        int p = itemHeader(b, at, type, Guid.BYTES, more);
        putGuid(b, p, g);
        return at + itemSize(Guid.BYTES);
    }

    /** Writes a u32 item; returns the offset after it. */
    static int intItem(ByteBuffer b, int at, int type, int value, boolean more) {
        int p = itemHeader(b, at, type, 4, more);
        b.putInt(p, value);
        return at + itemSize(4);
    }

    /** Writes a u64 item; returns the offset after it. */
    static int longItem(ByteBuffer b, int at, int type, long value, boolean more) {
        int p = itemHeader(b, at, type, 8, more);
        b.putLong(p, value);
        return at + itemSize(8);
    }

    /** Writes a byte-array item; returns the offset after it. */
    static int bytesItem(ByteBuffer b, int at, int type, byte[] value, boolean more) {
        int p = itemHeader(b, at, type, value.length, more);
        b.put(p, value, 0, value.length);
        return at + itemSize(value.length);
    }

    /**
     * Copies the payload blocks (or every block, when the provider never set traits and ETW therefore ignores
     * the block types); returns the offset after them.
     */
    static int payload(ByteBuffer b, int at, EventData data, boolean allBlocks) {
        for (int i = 0, n = data.count(); i < n; i++) {
            if (allBlocks || data.type(i) == EventData.TYPE_PAYLOAD) {
                int len = data.length(i);
                b.put(at, data.array(i), data.offset(i), len);
                at += len;
            }
        }
        return at;
    }
}
