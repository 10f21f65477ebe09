package org.etw4j.consumer;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Logs a recurring failure without flooding the log: the first occurrence with its stack trace, then at most one
 * line per interval saying how many there were since (issue 22, item 10: an {@link EventStream} whose handler threw
 * on every event logged 20,000 stack traces, 11.6 MB of stderr). The caller counts every occurrence itself; this
 * class only decides what reaches the log.
 *
 * <p>Thread-safe (one lock, taken on the failure path only).
 */
final class RateLimitedLog {
    /** One line at most per this interval after the first. */
    static final long INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final System.Logger log;
    private final long intervalNanos;
    private final LongSupplier clock;
    private long occurrences;
    private long unreported;
    private long lastReport;

    RateLimitedLog(System.Logger log) {
        this(log, INTERVAL_NANOS, System::nanoTime);
    }

    RateLimitedLog(System.Logger log, long intervalNanos, LongSupplier clock) {
        this.log = log;
        this.intervalNanos = intervalNanos;
        this.clock = clock;
    }

    /** One occurrence of {@code what}, caused by {@code error}: logged at WARNING when the limit allows. */
    void warn(String what, Throwable error) {
        String line;
        boolean first;
        synchronized (this) {
            occurrences++;
            long now = clock.getAsLong();
            first = occurrences == 1;
            if (!first && now - lastReport < intervalNanos) {
                unreported++;
                return;
            }
            lastReport = now;
            line = first ? what + ": " + error
                    : what + ": " + error + " (" + occurrences + " so far, " + unreported + " not logged since the last"
                    + " line; at most one line per " + TimeUnit.NANOSECONDS.toSeconds(intervalNanos) + " s)";
            unreported = 0;
        }
        if (first) {
            log.log(System.Logger.Level.WARNING, line + " (the stack trace is logged for the first only)", error);
        } else {
            log.log(System.Logger.Level.WARNING, line);
        }
    }
}
