package org.etw4j.jna;

import java.util.function.Supplier;
import org.etw4j.Guid;

/**
 * New activity ids from {@code EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID)} (locally unique until
 * reboot, MS Learn). The current id is kept in Java ({@link org.etw4j.spi.JavaThreadActivityIds}), not in ETW's
 * per-OS-thread storage, and passed explicitly to EventWriteTransfer: on Java 21 a virtual thread does not own an
 * OS thread.
 *
 * <p>Thread-safe and stateless: the GUID buffer is the calling thread's {@link WriteStaging}. Failures (which ETW
 * does not document for this code) throw {@link org.etw4j.EtwException} naming the function and the code.
 */
final class JnaActivityIds implements Supplier<Guid> {

    @Override
    public Guid get() {
        return WriteStaging.forThisThread().activityIdControl(ActivityControl.CREATE_ID, null);
    }
}
