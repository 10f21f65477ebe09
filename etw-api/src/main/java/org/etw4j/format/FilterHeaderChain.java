package org.etw4j.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.provider.FilterData;

/**
 * Byte layout of the {@code EVENT_FILTER_TYPE_SCHEMATIZED} filter data an enable callback receives: a chain of
 * blocks, one per session that passed filter data, each starting with an {@code EVENT_FILTER_HEADER}.
 *
 * <p>Stateless; thread-safe; allocates only the values it returns. Source: Microsoft Learn, "EVENT_FILTER_HEADER
 * structure (evntprov.h)": the 24-byte header is u16 {@code Id}, u8 {@code Version}, 5 reserved bytes, u64
 * {@code InstanceId} (set by ETW), u32 {@code Size} (header and data) and u32 {@code NextOffset} (from this
 * header to the next one, 0 for the last); little-endian. Shared by the JNA and the FFM backends (reading) and
 * by their stand-in engines (writing). Not verified on Windows: whether ETW always chains schematized data this
 * way, even for a single session; so {@link #split} answers null for bytes that are not a well-formed chain and
 * callers then keep the bytes as one filter. What {@link #split} drops: each header's Id, Version and InstanceId
 * ({@link FilterData} has no place for them).
 */
public final class FilterHeaderChain {
    /** sizeof(EVENT_FILTER_HEADER). */
    public static final int HEADER_BYTES = 24;
    public static final int ID = 0;
    public static final int VERSION = 2;
    public static final int INSTANCE_ID = 8;
    /** u32: header and data of this block. */
    public static final int SIZE = 16;
    /** u32: offset from this header to the next, 0 for the last block. */
    public static final int NEXT_OFFSET = 20;
    /** {@link #encode} starts every block on this boundary, as the headers' u64 field wants. */
    public static final int BLOCK_ALIGNMENT = 8;
    /**
     * {@code EVENT_FILTER_TYPE_SCHEMATIZED} (evntprov.h), the type of the blocks {@link #split} returns; the same
     * number as the controller API's {@code EventFilter.TYPE_SCHEMATIZED}, kept here so that this byte layout does
     * not depend on the controller API above it.
     */
    public static final int TYPE_SCHEMATIZED = 0x80000000;

    private FilterHeaderChain() {
    }

    /**
     * The blocks of a well-formed chain, each as an {@code EVENT_FILTER_TYPE_SCHEMATIZED} {@link FilterData}
     * holding the data after its header; or null if {@code bytes} is not one (too short for a header, a Size
     * below the header or past the end, a NextOffset pointing back into its own block).
     */
    public static List<FilterData> split(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        List<FilterData> out = new ArrayList<>();
        long at = 0;
        while (true) {
            if (at + HEADER_BYTES > bytes.length) {
                return null;
            }
            int start = (int) at;
            long blockSize = Integer.toUnsignedLong(b.getInt(start + SIZE));
            long next = Integer.toUnsignedLong(b.getInt(start + NEXT_OFFSET));
            if (blockSize < HEADER_BYTES || at + blockSize > bytes.length) {
                return null;
            }
            byte[] data = new byte[(int) blockSize - HEADER_BYTES];
            System.arraycopy(bytes, start + HEADER_BYTES, data, 0, data.length);
            out.add(new FilterData(TYPE_SCHEMATIZED, data));
            if (next == 0) {
                return out;
            }
            if (next < blockSize) {
                return null; // blocks never overlap
            }
            at += next;
        }
    }

    /**
     * The chain ETW would build from {@code filters} (their types are not stored): one block per filter, in
     * order, each a header (Id 0, Version 0, InstanceId = 1-based position, Size = header + data, NextOffset to
     * the next block, which starts on an {@value #BLOCK_ALIGNMENT}-byte boundary, 0 for the last) and the data;
     * padding bytes are 0. No filters give no bytes.
     */
    public static byte[] encode(List<FilterData> filters) {
        long total = 0;
        for (FilterData f : filters) {
            total += align(HEADER_BYTES + (long) f.size());
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a chain of " + total + " bytes does not fit in an array");
        }
        byte[] out = new byte[(int) total];
        ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        int at = 0;
        for (int i = 0; i < filters.size(); i++) {
            byte[] data = filters.get(i).data();
            int size = HEADER_BYTES + data.length;
            int padded = (int) align(size);
            b.putLong(at + INSTANCE_ID, i + 1L);
            b.putInt(at + SIZE, size);
            b.putInt(at + NEXT_OFFSET, i == filters.size() - 1 ? 0 : padded);
            System.arraycopy(data, 0, out, at + HEADER_BYTES, data.length);
            at += padded;
        }
        return out;
    }

    private static long align(long n) {
        return (n + BLOCK_ALIGNMENT - 1) & -BLOCK_ALIGNMENT;
    }
}
