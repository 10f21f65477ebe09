package org.etw4j.consumer.etl;

import java.time.Instant;
import org.etw4j.format.LogfileHeaderLayout;

/**
 * Converts a trace's raw record timestamps to FILETIME (100 ns ticks since 1601-01-01 UTC) and
 * {@link Instant}.
 *
 * <p>Immutable; thread-safe; allocation-free except {@link #toInstant(long)}. Conversion as TraceEvent and
 * dissect.etl do it: {@code FILETIME(ts) = StartTime +
 * (ts - T0) * scale}, with T0 the timestamp of the logfile-header record and scale {@code 1e7 / PerfFreq}
 * (performance counter; also raw and unknown clock types when PerfFreq is positive), 1 (system time) or
 * {@code 10 / CpuSpeedInMHz} (CPU cycles). The arithmetic is exact integer arithmetic rounded toward
 * negative infinity (no floating point, no overflow for any realistic span).
 */
public final class EtlClock {
    /** FILETIME of 1970-01-01T00:00:00Z. */
    public static final long FILETIME_UNIX_EPOCH = 116_444_736_000_000_000L;
    private static final long TICKS_PER_SECOND = 10_000_000L;

    private final long startTime;
    private final long origin;
    /** Raw ticks per second; 0 means raw ticks are 100 ns already. */
    private final long ticksPerSecond;

    EtlClock(long clockTypeCode, long startTime, long origin, long perfFreq, long cpuSpeedMhz) {
        this.startTime = startTime;
        this.origin = origin;
        long perSecond;
        if (clockTypeCode == LogfileHeaderLayout.CLOCK_SYSTEMTIME) {
            perSecond = 0;
        } else if (clockTypeCode == LogfileHeaderLayout.CLOCK_CPUCYCLE) {
            perSecond = cpuSpeedMhz > 0 ? cpuSpeedMhz * 1_000_000L : 0;
        } else {
            perSecond = perfFreq > 0 ? perfFreq : 0;
        }
        this.ticksPerSecond = perSecond == TICKS_PER_SECOND ? 0 : perSecond;
    }

    /** Raw timestamp of the logfile-header record, which corresponds to the header's StartTime. */
    public long origin() {
        return origin;
    }

    /** FILETIME of a raw timestamp, rounded down to 100 ns. */
    public long toFileTime(long rawTimestamp) {
        long delta = rawTimestamp - origin;
        if (ticksPerSecond == 0) {
            return startTime + delta;
        }
        return startTime + scale(delta, TICKS_PER_SECOND, ticksPerSecond);
    }

    /** The instant of a raw timestamp, to the nanosecond the clock resolves (rounded down). */
    public Instant toInstant(long rawTimestamp) {
        long delta = rawTimestamp - origin;
        if (ticksPerSecond == 0) {
            return fileTimeToInstant(startTime + delta);
        }
        long seconds = Math.floorDiv(delta, ticksPerSecond);
        long nanos = scale(Math.floorMod(delta, ticksPerSecond), 1_000_000_000L, ticksPerSecond);
        return fileTimeToInstant(startTime).plusSeconds(seconds).plusNanos(nanos);
    }

    /** The instant of a FILETIME value. */
    public static Instant fileTimeToInstant(long fileTime) {
        long sinceEpoch = fileTime - FILETIME_UNIX_EPOCH;
        return Instant.ofEpochSecond(Math.floorDiv(sinceEpoch, TICKS_PER_SECOND),
                Math.floorMod(sinceEpoch, TICKS_PER_SECOND) * 100L);
    }

    /** {@code floor(value * multiplier / divisor)} without intermediate overflow for divisor below ~9e11. */
    private static long scale(long value, long multiplier, long divisor) {
        long whole = Math.floorDiv(value, divisor);
        long rest = Math.floorMod(value, divisor);
        long restScaled;
        if (rest <= Long.MAX_VALUE / multiplier) {
            restScaled = rest * multiplier / divisor;
        } else {
            // Only for clocks faster than ~900 GHz: double keeps 53 bits, ample for a sub-second remainder.
            restScaled = (long) ((double) rest * multiplier / divisor);
        }
        return whole * multiplier + restScaled;
    }
}
