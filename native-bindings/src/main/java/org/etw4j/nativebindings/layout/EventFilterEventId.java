package org.etw4j.nativebindings.layout;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * {@code EVENT_FILTER_EVENT_ID} (evntprov.h of the Windows SDK; absent from mingw-w64), the payload of an
 * {@code EVENT_FILTER_DESCRIPTOR} of type {@link WinConstants#EVENT_FILTER_TYPE_EVENT_ID} (or
 * {@link WinConstants#EVENT_FILTER_TYPE_STACKWALK}). Declared by Microsoft Learn, "EVENT_FILTER_EVENT_ID
 * structure (evntprov.h)":
 *
 * <pre>{@code
 * typedef struct _EVENT_FILTER_EVENT_ID {
 *   BOOLEAN FilterIn;
 *   UCHAR   Reserved;
 *   USHORT  Count;
 *   USHORT  Events[ANYSIZE_ARRAY];
 * } EVENT_FILTER_EVENT_ID;
 * }</pre>
 *
 * <p>Stateless and thread-safe: static factories; buffers belong to the caller's allocator. The descriptor's
 * {@code Size} is {@link #byteSize} ({@code FIELD_OFFSET(EVENT_FILTER_EVENT_ID, Events[count])}).
 */
public final class EventFilterEventId {

    /** Name of the event id array in {@link #layout}. */
    public static final String EVENTS = "Events";

    private static final long EVENTS_OFFSET =
            layout(1).byteOffset(MemoryLayout.PathElement.groupElement(EVENTS));

    private EventFilterEventId() {
    }

    /** Layout with {@code count} event ids ({@code count} 1 is the C declaration's own size). */
    public static StructLayout layout(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("an event id filter needs at least one id: " + count);
        }
        return MemoryLayout.structLayout(
                ValueLayout.JAVA_BYTE.withName("FilterIn"),
                ValueLayout.JAVA_BYTE.withName("Reserved"),
                ValueLayout.JAVA_SHORT.withName("Count"),
                MemoryLayout.sequenceLayout(count, ValueLayout.JAVA_SHORT).withName(EVENTS))
                .withName("EVENT_FILTER_EVENT_ID");
    }

    /** Bytes of a filter with {@code count} ids: the value for {@code EVENT_FILTER_DESCRIPTOR.Size}. */
    public static long byteSize(int count) {
        return layout(count).byteSize();
    }

    /**
     * Allocates and fills a filter.
     *
     * @param filterIn true to keep only the listed events, false to drop them
     * @param eventIds 1 to {@link WinConstants#MAX_EVENT_FILTER_EVENT_ID_COUNT} ids, each 0..65535
     */
    public static MemorySegment allocate(SegmentAllocator allocator, boolean filterIn, int... eventIds) {
        Objects.requireNonNull(allocator, "allocator");
        Objects.requireNonNull(eventIds, "eventIds");
        if (eventIds.length > WinConstants.MAX_EVENT_FILTER_EVENT_ID_COUNT) {
            throw new IllegalArgumentException("at most " + WinConstants.MAX_EVENT_FILTER_EVENT_ID_COUNT
                    + " event ids per filter, got " + eventIds.length);
        }
        StructLayout layout = layout(eventIds.length);
        MemorySegment filter = allocator.allocate(layout);
        filter.set(ValueLayout.JAVA_BYTE, 0, (byte) (filterIn ? 1 : 0));
        filter.set(ValueLayout.JAVA_BYTE, 1, (byte) 0);
        filter.set(ValueLayout.JAVA_SHORT, 2, (short) eventIds.length);
        for (int i = 0; i < eventIds.length; i++) {
            int id = eventIds[i];
            if (id < 0 || id > 0xFFFF) {
                throw new IllegalArgumentException("event id out of 0..65535: " + id);
            }
            filter.set(ValueLayout.JAVA_SHORT, EVENTS_OFFSET + 2L * i, (short) id);
        }
        return filter;
    }
}
