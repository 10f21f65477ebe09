package org.etw4j.jna.internal;

/**
 * The {@code EVENT_ACTIVITY_CTRL_*} codes of {@code EventActivityIdControl} (evntprov.h; meanings from
 * Microsoft's EventActivityIdControl page).
 *
 * <p>Enum constants: immutable, thread-safe.
 */
enum ActivityControl {
    /** Returns the thread's id (GUID_NULL when never set). */
    GET_ID(1),
    /** Sets the thread's id to the given one. */
    SET_ID(2),
    /** Returns a new id; the thread's id is unchanged. */
    CREATE_ID(3),
    /** Sets the thread's id to the given one and returns the previous one. */
    GET_SET_ID(4),
    /** Sets the thread's id to a new one and returns the previous one. */
    CREATE_SET_ID(5);

    private final int code;

    ActivityControl(int code) {
        this.code = code;
    }

    /** The native ControlCode value. */
    int code() {
        return code;
    }
}
