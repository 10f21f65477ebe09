package org.etw4j.sim;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.etw4j.Guid;
import org.etw4j.spi.ThreadActivityIds;

/**
 * Thread activity ids for the simulated backend ({@code EventActivityIdControl} semantics).
 *
 * <p>Thread-safe; each thread has its own id, GUID_NULL at first. Created ids are unique in this process:
 * a random per-process half and a counter (Windows promises "locally unique until reboot").
 */
final class SimActivityIds implements ThreadActivityIds {
    private final ThreadLocal<Guid> current = ThreadLocal.withInitial(() -> Guid.NULL);
    private final long salt = new SecureRandom().nextLong();
    private final AtomicLong counter = new AtomicLong();

    @Override
    public Guid get() {
        return current.get();
    }

    @Override
    public Guid set(Guid activityId) {
        Guid previous = current.get();
        current.set(activityId == null ? Guid.NULL : activityId);
        return previous;
    }

    @Override
    public Guid create() {
        return new Guid(counter.incrementAndGet(), salt);
    }
}
