package org.etw4j.spi;

import org.etw4j.Guid;

/**
 * ETW's own activity id of the calling OS thread ({@code EventActivityIdControl} GET_SET_ID), the one native code
 * and Windows components on that thread read and write (MS Learn, EventActivityIdControl: "user-mode threads have a
 * thread-local 128-bit activity ID"). {@link JavaThreadActivityIds} uses it on platform threads only.
 *
 * <p>Thread-safe; each call acts on the calling OS thread.
 */
public interface OsThreadActivityIds {

    /** Sets the calling OS thread's id and returns the previous one (EVENT_ACTIVITY_CTRL_GET_SET_ID). */
    Guid getAndSet(Guid activityId);

    /** The calling OS thread's id (EVENT_ACTIVITY_CTRL_GET_ID). */
    Guid get();
}
