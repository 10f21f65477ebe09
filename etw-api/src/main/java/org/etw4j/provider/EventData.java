package org.etw4j.provider;

import java.util.Arrays;

/**
 * The data blocks of one event ({@code EVENT_DATA_DESCRIPTOR[]}): ETW concatenates them in order, without
 * padding or alignment, to form the event's user data (MS Learn, EventWrite function).
 *
 * <p>Mutable and reusable; not thread-safe: keep one per thread (or per call) and {@link #clear()} it between
 * events. It references the caller's arrays without copying them, so they must not change until the write
 * returns. Adding more than {@link #MAX_BLOCKS} blocks is allowed here; the write then fails with
 * ERROR_INVALID_PARAMETER, as EventWrite does. Blocks of type {@link #TYPE_EVENT_METADATA} and
 * {@link #TYPE_PROVIDER_METADATA} carry TraceLogging metadata, which ETW moves into extended data items.
 */
public final class EventData {
    /** Most data descriptors one write accepts (MS Learn, EventWrite function). */
    public static final int MAX_BLOCKS = 128;
    /** EVENT_DATA_DESCRIPTOR_TYPE_NONE: payload. */
    public static final int TYPE_PAYLOAD = 0;
    /** EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA: TraceLogging event metadata. */
    public static final int TYPE_EVENT_METADATA = 1;
    /** EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA: TraceLogging provider traits. */
    public static final int TYPE_PROVIDER_METADATA = 2;

    private byte[][] arrays = new byte[4][];
    private int[] offsets = new int[4];
    private int[] lengths = new int[4];
    private int[] types = new int[4];
    private int count;

    /** Removes every block (and drops the references to the caller's arrays). */
    public EventData clear() {
        Arrays.fill(arrays, 0, count, null);
        count = 0;
        return this;
    }

    /** Adds a payload block of the whole array. */
    public EventData add(byte[] block) {
        return add(block, 0, block.length, TYPE_PAYLOAD);
    }

    /** Adds a payload block. */
    public EventData add(byte[] array, int offset, int length) {
        return add(array, offset, length, TYPE_PAYLOAD);
    }

    /** Adds the bytes written so far to {@code payload} as one payload block. */
    public EventData add(PayloadBuffer payload) {
        return add(payload.array(), 0, payload.length(), TYPE_PAYLOAD);
    }

    /**
     * Adds a block of the given descriptor type.
     *
     * @throws IllegalArgumentException if the range is outside the array or the type is not 0-3
     */
    public EventData add(byte[] array, int offset, int length, int type) {
        if (array == null) {
            throw new IllegalArgumentException("EventData block must not be null");
        }
        if (offset < 0 || length < 0 || offset > array.length - length) {
            throw new IllegalArgumentException("EventData block range [" + offset + ", +" + length + ") is outside an array of " + array.length);
        }
        if (type < 0 || type > 3) {
            throw new IllegalArgumentException("EventData block type must be 0-3 (EVENT_DATA_DESCRIPTOR_TYPE_*), got " + type);
        }
        if (count == arrays.length) {
            int n = count * 2;
            arrays = Arrays.copyOf(arrays, n);
            offsets = Arrays.copyOf(offsets, n);
            lengths = Arrays.copyOf(lengths, n);
            types = Arrays.copyOf(types, n);
        }
        arrays[count] = array;
        offsets[count] = offset;
        lengths[count] = length;
        types[count] = type;
        count++;
        return this;
    }

    /** Number of blocks. */
    public int count() {
        return count;
    }

    public byte[] array(int index) {
        check(index);
        return arrays[index];
    }

    public int offset(int index) {
        check(index);
        return offsets[index];
    }

    public int length(int index) {
        check(index);
        return lengths[index];
    }

    public int type(int index) {
        check(index);
        return types[index];
    }

    /** Total bytes of the blocks of {@code type}. */
    public int totalLength(int type) {
        int sum = 0;
        for (int i = 0; i < count; i++) {
            if (types[i] == type) {
                sum += lengths[i];
            }
        }
        return sum;
    }

    /** Index of the first block of {@code type}, or -1. */
    public int indexOf(int type) {
        for (int i = 0; i < count; i++) {
            if (types[i] == type) {
                return i;
            }
        }
        return -1;
    }

    /** The payload blocks concatenated (a copy; for tests and tools, not the write path). */
    public byte[] payloadBytes() {
        byte[] out = new byte[totalLength(TYPE_PAYLOAD)];
        int p = 0;
        for (int i = 0; i < count; i++) {
            if (types[i] == TYPE_PAYLOAD) {
                System.arraycopy(arrays[i], offsets[i], out, p, lengths[i]);
                p += lengths[i];
            }
        }
        return out;
    }

    private void check(int index) {
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException("block " + index + " of " + count);
        }
    }
}
