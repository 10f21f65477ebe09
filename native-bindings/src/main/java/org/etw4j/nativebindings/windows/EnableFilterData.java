package org.etw4j.nativebindings.windows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.etw4j.controller.EventFilter;
import org.etw4j.format.FilterHeaderChain;
import org.etw4j.nativebindings.generated._EVENT_FILTER_DESCRIPTOR;
import org.etw4j.provider.FilterData;

/**
 * Copies the {@code EVENT_FILTER_DESCRIPTOR} an enable callback receives into {@link FilterData} values (MS Learn,
 * PENABLECALLBACK callback function: it is valid only during the callback and "contains a filter from each session
 * that specified filter data").
 *
 * <p>Stateless; thread-safe. How several sessions share the one descriptor is documented for schematized filter
 * data (Microsoft Learn, "EVENT_FILTER_HEADER structure (evntprov.h)"): one block per session, each starting
 * with an {@code EVENT_FILTER_HEADER} whose {@code Size} covers header and data and whose {@code NextOffset}
 * leads to the next block (0 ends the chain); {@link FilterHeaderChain} reads it. So a
 * {@code EVENT_FILTER_TYPE_SCHEMATIZED} descriptor whose bytes form such a chain gives one value per block (the data after each header); anything else gives one value with
 * the descriptor's type and bytes as they are. Not verified on Windows: whether ETW chains even a single
 * session's schematized data (both forms are accepted); the headers' Id, Version and InstanceId are dropped.
 */
final class EnableFilterData {
    /** More filter data than 64 sessions x 1 KB (with headers) can give is taken as corrupt. */
    static final int MAX_BYTES = 1 << 20;

    private EnableFilterData() {
    }

    /** The filters behind {@code descriptorPointer} (NULL: none). */
    static List<FilterData> decode(MemorySegment descriptorPointer) {
        if (descriptorPointer == null || descriptorPointer.address() == 0) {
            return List.of();
        }
        MemorySegment d = descriptorPointer.reinterpret(_EVENT_FILTER_DESCRIPTOR.layout().byteSize());
        long ptr = _EVENT_FILTER_DESCRIPTOR.Ptr(d);
        long size = Integer.toUnsignedLong(_EVENT_FILTER_DESCRIPTOR.Size(d));
        int type = _EVENT_FILTER_DESCRIPTOR.Type(d);
        if (ptr == 0 || size == 0) {
            return List.of();
        }
        if (size > MAX_BYTES) {
            throw new IllegalArgumentException("EVENT_FILTER_DESCRIPTOR.Size " + size + " exceeds " + MAX_BYTES + " bytes");
        }
        byte[] bytes = MemorySegment.ofAddress(ptr).reinterpret(size).toArray(ValueLayout.JAVA_BYTE);
        if (type == EventFilter.TYPE_SCHEMATIZED) {
            List<FilterData> chain = FilterHeaderChain.split(bytes);
            if (chain != null) {
                return chain;
            }
        }
        return List.of(new FilterData(type, bytes));
    }
}
