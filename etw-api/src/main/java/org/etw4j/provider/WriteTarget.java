package org.etw4j.provider;

import org.etw4j.EventDescriptor;
import org.etw4j.Guid;

/**
 * Where an {@link EventWriter}'s events go: its provider's registration and counters, seen through the two things
 * a writer does once its event is built. Enablement is checked once, when the writer begins an event
 * ({@link EtwProvider#event}); the target does not check it again (ETW itself drops an event no session wants
 * when the state changed in between: Microsoft Learn, "EventWriteTransfer function (evntprov.h)").
 * Thread-safe: one per provider, shared by its threads' writers.
 */
interface WriteTarget {

    /**
     * Writes an event that was enabled when its writer began it; a Win32 status (ERROR_INVALID_HANDLE once the
     * provider is closed). Never throws.
     */
    int write(EventDescriptor descriptor, Guid activityId, Guid relatedActivityId, EventData data);

    /** An event that was not enabled: ERROR_SUCCESS, or ERROR_INVALID_HANDLE (counted) once the provider is closed. */
    int notWritten(EventDescriptor descriptor);

    /**
     * An event its writer refused before writing (a value out of range while a session listened): counted as a
     * failed write with {@code status}, the provider's write-error listener told; returns {@code status}.
     */
    int rejected(EventDescriptor descriptor, int status);
}
