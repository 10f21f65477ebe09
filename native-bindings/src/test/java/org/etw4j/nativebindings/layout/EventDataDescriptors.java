package org.etw4j.nativebindings.layout;

import java.lang.foreign.MemorySegment;

import org.etw4j.nativebindings.generated._EVENT_DATA_DESCRIPTOR;

/**
 * Test helper (moved from main code, where nothing used it; the backend's WriteBuffers writes the descriptors
 * through the generated layouts' offsets).
 *
 * <p>{@code EventDataDescCreate} (evntprov.h), an inline function that jextract cannot bind: fills one
 * {@code EVENT_DATA_DESCRIPTOR} with {@code Ptr} = the data's address, {@code Size}, {@code Reserved} = 0.
 *
 * <p>Stateless and thread-safe; allocates nothing (usable on the EventWrite hot path). The descriptor only
 * records an address: the data must stay alive until the EventWrite call that uses it returns.
 */
public final class EventDataDescriptors {

    private EventDataDescriptors() {
    }

    /** Points {@code descriptor} at all of {@code data} ({@code data.byteSize()} must fit in a ULONG). */
    public static void create(MemorySegment descriptor, MemorySegment data) {
        long size = data.byteSize();
        if (size > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("event data larger than 4 GiB: " + size);
        }
        create(descriptor, data.address(), (int) size);
    }

    /**
     * Points {@code descriptor} at {@code size} bytes (unsigned 32 bits) at {@code address}.
     */
    public static void create(MemorySegment descriptor, long address, int size) {
        _EVENT_DATA_DESCRIPTOR.Ptr(descriptor, address);
        _EVENT_DATA_DESCRIPTOR.Size(descriptor, size);
        _EVENT_DATA_DESCRIPTOR.Reserved(descriptor, 0);
    }

    /**
     * Element {@code index} of an array of descriptors (the {@code UserData} argument of EventWrite).
     */
    public static MemorySegment at(MemorySegment descriptors, int index) {
        long size = _EVENT_DATA_DESCRIPTOR.layout().byteSize();
        return descriptors.asSlice(size * index, _EVENT_DATA_DESCRIPTOR.layout());
    }
}
