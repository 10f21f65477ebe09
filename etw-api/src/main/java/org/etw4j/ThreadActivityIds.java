package org.etw4j;

/**
 * The calling thread's activity id, which every event written without an explicit id carries (etw-formats.md
 * section 5), with {@code EventActivityIdControl}'s operations. Backends keep it as etw-api's {@code org.etw4j.spi.JavaThreadActivityIds} does: ETW's
 * per-OS-thread id on platform threads (shared with native code), an id kept in Java on virtual threads.
 *
 * <p>Thread-safe; each call acts on the calling thread only. A thread's id starts as GUID_NULL.
 */
public interface ThreadActivityIds {

    /** GET_ID (1). */
    Guid get();

    /** SET_ID (2): sets the id and returns the previous one (GET_SET_ID semantics). */
    Guid set(Guid activityId);

    /** CREATE_ID (3): a new id unique on this machine until reboot; the thread's id is unchanged. */
    Guid create();

    /**
     * The ActivityId to pass to {@code EventWriteTransfer} for a write that names none: the id itself, or null
     * when ETW should use the calling OS thread's id (see {@code org.etw4j.spi.JavaThreadActivityIds}).
     */
    default Guid forWrite() {
        return get();
    }

    /** CREATE_SET_ID (5): sets a new id and returns the previous one. */
    default Guid createAndSet() {
        return set(create());
    }
}
