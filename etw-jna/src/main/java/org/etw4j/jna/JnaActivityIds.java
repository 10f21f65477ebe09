package org.etw4j.jna;

import org.etw4j.Guid;
import org.etw4j.spi.ThreadActivityIds;

/**
 * The calling thread's activity id through {@code EventActivityIdControl}.
 *
 * <p>Thread-safe and stateless: ETW keeps the id in the calling thread's storage, and the GUID buffer is the
 * thread's {@link WriteStaging}. Failures (which ETW does not document for these codes) throw
 * {@link org.etw4j.EtwException} naming the function and the control code.
 */
final class JnaActivityIds implements ThreadActivityIds {

    @Override
    public Guid get() {
        return WriteStaging.forThisThread().activityIdControl(ActivityControl.GET_ID, null);
    }

    @Override
    public Guid set(Guid activityId) {
        return WriteStaging.forThisThread().activityIdControl(ActivityControl.GET_SET_ID, activityId);
    }

    @Override
    public Guid create() {
        return WriteStaging.forThisThread().activityIdControl(ActivityControl.CREATE_ID, null);
    }

    @Override
    public Guid createAndSet() {
        return WriteStaging.forThisThread().activityIdControl(ActivityControl.CREATE_SET_ID, null);
    }
}
