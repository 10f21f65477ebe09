package org.etw4j.nativebindings.layout;

import java.lang.foreign.MemorySegment;

import org.etw4j.nativebindings.generated._EVENT_DESCRIPTOR;

/**
 * Test helper (moved from main code, where nothing used it; the backend's WriteBuffers writes the descriptors
 * through the generated layouts' offsets).
 *
 * <p>{@code EventDescCreate} (evntprov.h), an inline function that jextract cannot bind: fills an
 * {@code EVENT_DESCRIPTOR} field by field.
 *
 * <p>Stateless and thread-safe; allocates nothing.
 */
public final class EventDescriptors {

    private EventDescriptors() {
    }

    /**
     * Writes every field of {@code descriptor}; the narrow values are stored as their low bits (Id and Task
     * 16 bits, Version, Channel, Level and Opcode 8 bits).
     */
    public static void create(MemorySegment descriptor, int id, int version, int channel, int level, int task,
                              int opcode, long keyword) {
        _EVENT_DESCRIPTOR.Id(descriptor, (short) id);
        _EVENT_DESCRIPTOR.Version(descriptor, (byte) version);
        _EVENT_DESCRIPTOR.Channel(descriptor, (byte) channel);
        _EVENT_DESCRIPTOR.Level(descriptor, (byte) level);
        _EVENT_DESCRIPTOR.Task(descriptor, (short) task);
        _EVENT_DESCRIPTOR.Opcode(descriptor, (byte) opcode);
        _EVENT_DESCRIPTOR.Keyword(descriptor, keyword);
    }
}
