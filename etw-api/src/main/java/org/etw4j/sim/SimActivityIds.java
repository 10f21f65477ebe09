package org.etw4j.sim;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.etw4j.Guid;

/**
 * New activity ids for the simulated backend ({@code EventActivityIdControl(CREATE_ID)}); the current id itself
 * is kept by {@link org.etw4j.spi.JavaThreadActivityIds}, as in every backend.
 *
 * <p>Thread-safe. Created ids are unique in this process: a random per-process half and a counter (Windows
 * promises "locally unique until reboot").
 */
final class SimActivityIds implements Supplier<Guid> {
    private final long salt = new SecureRandom().nextLong();
    private final AtomicLong counter = new AtomicLong();

    @Override
    public Guid get() {
        return new Guid(counter.incrementAndGet(), salt);
    }
}
