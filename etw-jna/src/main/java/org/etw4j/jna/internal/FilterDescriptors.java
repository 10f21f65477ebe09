package org.etw4j.jna.internal;

import com.sun.jna.Pointer;
import java.util.List;
import org.etw4j.controller.EventFilter;
import org.etw4j.format.FilterHeaderChain;
import org.etw4j.provider.FilterData;

/**
 * Copies the {@code EVENT_FILTER_DESCRIPTOR} an enable callback receives into {@link FilterData} values.
 *
 * <p>Stateless; thread-safe. MS Learn, PENABLECALLBACK callback function: the descriptor "contains a filter from each session that specified
 * filter data" and is valid only during the callback, so everything is copied. How several sessions' filters
 * share one descriptor is documented for schematized filters (Microsoft's EVENT_FILTER_HEADER page): a chain of
 * blocks each starting with an EVENT_FILTER_HEADER, read by {@link FilterHeaderChain}. So:
 * <ul>
 *   <li>no descriptor, a null Ptr or a zero Size: no filters;</li>
 *   <li>type {@code EVENT_FILTER_TYPE_SCHEMATIZED} whose bytes form a well-formed header chain: one
 *       {@code FilterData} per block, holding the block's data after its header;</li>
 *   <li>anything else: one {@code FilterData} with the descriptor's type and bytes, unchanged.</li>
 * </ul>
 * Not verified on Windows (no Windows machine here): whether ETW always chains schematized filters this way,
 * even for one session. What is lost: the headers' Id, Version and InstanceId ({@link FilterData} has no place
 * for them).
 */
final class FilterDescriptors {
    /**
     * Most filter bytes copied from one notification: MAX_EVENT_FILTER_DATA_SIZE (1024) for each of the 64
     * sessions ETW runs at most, with their headers, fits well below this; a larger Size is taken as corrupt.
     */
    static final int MAX_FILTER_BYTES = 1 << 20;

    private FilterDescriptors() {
    }

    /**
     * The filters of one notification.
     *
     * @throws IllegalArgumentException if the descriptor's Size is negative or above {@link #MAX_FILTER_BYTES}
     */
    static List<FilterData> decode(Pointer descriptor) {
        if (descriptor == null) {
            return List.of();
        }
        long ptr = descriptor.getLong(0);
        int size = descriptor.getInt(8);
        int type = descriptor.getInt(12);
        if (ptr == 0 || size == 0) {
            return List.of();
        }
        if (size < 0 || size > MAX_FILTER_BYTES) {
            throw new IllegalArgumentException("EVENT_FILTER_DESCRIPTOR.Size " + Integer.toUnsignedString(size)
                    + " is above the " + MAX_FILTER_BYTES + " bytes a notification can carry");
        }
        byte[] bytes = new Pointer(ptr).getByteArray(0, size);
        if (type == EventFilter.TYPE_SCHEMATIZED) {
            List<FilterData> blocks = FilterHeaderChain.split(bytes);
            if (blocks != null) {
                return blocks;
            }
        }
        return List.of(new FilterData(type, bytes));
    }
}
