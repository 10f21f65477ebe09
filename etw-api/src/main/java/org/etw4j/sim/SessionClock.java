package org.etw4j.sim;

import org.etw4j.TimestampConverter;
import org.etw4j.controller.ClockType;

/**
 * A session's timestamp clock: raw ticks in the session's clock type, derived from {@link System#nanoTime()}
 * so that timestamps never go backwards within the JVM.
 *
 * <p>Immutable; thread-safe; {@link #now()} allocates nothing. QPC runs at 10 MHz (the frequency every real
 * trace in the corpus shows); the CPU cycle clock at a nominal 3000 MHz.
 */
final class SessionClock {
    static final long QPC_FREQUENCY = 10_000_000L;
    static final long CPU_MHZ = 3000;

    private final ClockType type;
    private final long startNanos = System.nanoTime();
    private final long startFileTime;
    private final long startRaw;
    private final TimestampConverter converter;

    SessionClock(ClockType type) {
        this.type = type;
        this.startFileTime = TimestampConverter.toFileTime(java.time.Instant.now());
        this.startRaw = type == ClockType.SYSTEM_TIME ? startFileTime : startNanos / 100 & 0x0000_FFFF_FFFF_FFFFL;
        this.converter = newConverter();
    }

    /** The current raw timestamp. */
    long now() {
        long elapsed = System.nanoTime() - startNanos;
        switch (type) {
            case CPU_CYCLE:
                return startRaw + elapsed * (CPU_MHZ / 1000);
            default:
                return startRaw + elapsed / 100;
        }
    }

    /** The current time as FILETIME, on this clock. */
    long nowFileTime() {
        return converter().toFileTime(now());
    }

    long startRaw() {
        return startRaw;
    }

    long startFileTime() {
        return startFileTime;
    }

    ClockType type() {
        return type;
    }

    TimestampConverter converter() {
        return converter;
    }

    private TimestampConverter newConverter() {
        switch (type) {
            case SYSTEM_TIME:
                return TimestampConverter.systemTime(startFileTime, startRaw);
            case CPU_CYCLE:
                return TimestampConverter.cpuCycles(startFileTime, startRaw, CPU_MHZ);
            default:
                return TimestampConverter.qpc(startFileTime, startRaw, QPC_FREQUENCY);
        }
    }
}
