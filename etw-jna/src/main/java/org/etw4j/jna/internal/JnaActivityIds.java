package org.etw4j.jna.internal;

import java.util.function.Supplier;
import org.etw4j.Guid;

/**
 * New activity ids from {@code EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID)} (locally unique until
 * reboot, MS Learn), and in {@link OsThread} the OS thread's own id, which
 * {@link org.etw4j.spi.JavaThreadActivityIds} uses on platform threads (on Java 21 a virtual thread's id is kept
 * in Java: it does not own an OS thread).
 *
 * <p>Thread-safe and stateless: the GUID buffer is the calling thread's {@link WriteStaging}. Failures (which ETW
 * does not document for this code) throw {@link org.etw4j.EtwException} naming the function and the code.
 */
final class JnaActivityIds implements Supplier<Guid> {

    @Override
    public Guid get() {
        return WriteStaging.forThisThread().activityIdControl(ActivityControl.CREATE_ID, null);
    }

    /** ETW's id of the calling OS thread: EVENT_ACTIVITY_CTRL_GET_ID and GET_SET_ID. */
    static final class OsThread implements org.etw4j.spi.OsThreadActivityIds {
        @Override
        public Guid getAndSet(Guid activityId) {
            return WriteStaging.forThisThread().activityIdControl(ActivityControl.GET_SET_ID, activityId);
        }

        @Override
        public Guid get() {
            return WriteStaging.forThisThread().activityIdControl(ActivityControl.GET_ID, null);
        }
    }
}
