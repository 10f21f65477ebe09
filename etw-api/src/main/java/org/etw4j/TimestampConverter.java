package org.etw4j;

import org.etw4j.format.PrimitiveReader;

/**
 * Converts a session's raw timestamps (QPC ticks, FILETIME, CPU cycles) to FILETIME, the way ProcessTrace and
 * the independent parsers do: {@code FILETIME(ts) = StartTime + (ts - T0) * scale} (etw-formats.md section 3.7).
 *
 * <p>Immutable record; thread-safe; allocation-free. {@code scale = 10_000_000 / perfFreq} for QPC,
 * {@code 1} for system time, {@code 10 / cpuMHz} for CPU cycles; kept as a ratio to stay exact for integral
 * frequencies.
 *
 * @param startFileTime StartTime of the log file header (FILETIME)
 * @param startRaw      T0: the raw timestamp taken at StartTime
 * @param numerator     FILETIME ticks per {@code denominator} raw ticks
 * @param denominator   raw ticks per {@code numerator} FILETIME ticks
 */
public record TimestampConverter(long startFileTime, long startRaw, long numerator, long denominator) {

    /** FILETIME ticks between 1601-01-01 and 1970-01-01. */
    public static final long FILETIME_UNIX_EPOCH = 116_444_736_000_000_000L;

    public TimestampConverter {
        if (numerator <= 0 || denominator <= 0) {
            throw new IllegalArgumentException("timestamp scale must be positive: " + numerator + "/" + denominator);
        }
    }

    /** For a QPC clock of {@code perfFreq} ticks per second. */
    public static TimestampConverter qpc(long startFileTime, long startRaw, long perfFreq) {
        return new TimestampConverter(startFileTime, startRaw, 10_000_000L, perfFreq);
    }

    /** For the system-time clock (timestamps are already FILETIME). */
    public static TimestampConverter systemTime(long startFileTime, long startRaw) {
        return new TimestampConverter(startFileTime, startRaw, 1, 1);
    }

    /** For the CPU cycle counter of a {@code cpuMHz} processor. */
    public static TimestampConverter cpuCycles(long startFileTime, long startRaw, long cpuMHz) {
        return new TimestampConverter(startFileTime, startRaw, 10, cpuMHz);
    }

    /** The FILETIME of a raw timestamp. */
    public long toFileTime(long raw) {
        long delta = raw - startRaw;
        if (numerator == denominator) {
            return startFileTime + delta;
        }
        // split to avoid overflow: delta * num / den with delta up to ~2^50
        long q = delta / denominator;
        long r = delta % denominator;
        return startFileTime + q * numerator + (r * numerator) / denominator;
    }

    /** The raw timestamp of a FILETIME (inverse of {@link #toFileTime}, up to rounding). */
    public long toRaw(long fileTime) {
        long delta = fileTime - startFileTime;
        long q = delta / numerator;
        long r = delta % numerator;
        return startRaw + q * denominator + (r * denominator) / numerator;
    }

    /** FILETIME to {@link java.time.Instant} ({@code org.etw4j.format.PrimitiveReader.fileTime}). */
    public static java.time.Instant toInstant(long fileTime) {
        return PrimitiveReader.fileTime(fileTime);
    }

    /** {@link java.time.Instant} to FILETIME (100 ns resolution, truncated). */
    public static long toFileTime(java.time.Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 10_000_000L), t.getNano() / 100) + FILETIME_UNIX_EPOCH;
    }
}
