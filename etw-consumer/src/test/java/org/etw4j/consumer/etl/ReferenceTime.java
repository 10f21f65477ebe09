package org.etw4j.consumer.etl;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * Time helpers for comparing with the corpus' expected timestamps.
 *
 * <p>Stateless; thread-safe. The expected timestamps were printed by a Python parser that converts FILETIME
 * through float64 (a FILETIME near 1.3e17 has a float64 spacing of 16 ticks = 1.6 us), so they can differ
 * from the exact value by up to ~2.6 us after truncation to microseconds. These helpers reproduce that
 * float64 path exactly from an exact FILETIME, which lets the tests check our exact values to the last
 * digit of the reference instead of widening a tolerance:
 * <ul>
 * <li>record timestamps: {@code datetime(1970,1,1) + timedelta(seconds=float(ft) * 1e-7 - 11644473600)}
 *     (dissect.util {@code wintimestamp});</li>
 * <li>header start/end: {@code datetime(1601,1,1) + timedelta(microseconds=ft / 10)}.</li>
 * </ul>
 * CPython's {@code timedelta} keeps a float argument's whole part exact and scales only its fraction in double.
 */
final class ReferenceTime {
    private ReferenceTime() {
    }

    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");
    private static final LocalDateTime EPOCH_1601 = LocalDateTime.of(1601, 1, 1, 0, 0);

    /** The reference's rendering of a record timestamp. */
    static String recordStyle(long fileTime) {
        double seconds = (double) fileTime * 1e-7 - 11644473600.0;
        // CPython timedelta: whole seconds exactly, then the fraction (exact, modf) times 1e6 in double,
        // rounded half-even.
        double whole = seconds < 0 ? Math.ceil(seconds) : Math.floor(seconds);
        long micros = (long) whole * 1_000_000L + (long) Math.rint((seconds - whole) * 1e6);
        LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
        return t.format(FORMAT);
    }

    /** The reference's rendering of a header start/end time. */
    static String headerStyle(long fileTime) {
        double micros = new BigDecimal(fileTime).divide(BigDecimal.TEN).doubleValue();
        return EPOCH_1601.plus((long) Math.rint(micros), ChronoUnit.MICROS).format(FORMAT);
    }

    /** An expected time string ("2020-07-14 12:04:31.138735+00:00" or with 'T') without its offset. */
    static String normalize(String expected) {
        return OffsetDateTime.parse(expected.replace(' ', 'T')).toLocalDateTime().format(FORMAT);
    }

    /** Microseconds since the Unix epoch of an expected time string. */
    static long expectedMicros(String expected) {
        Instant i = OffsetDateTime.parse(expected.replace(' ', 'T')).toInstant();
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
    }

    /** |exact - expected| in 100 ns ticks. */
    static long distanceTicks(long fileTime, String expected) {
        long expectedTicks = expectedMicros(expected) * 10 + EtlClock.FILETIME_UNIX_EPOCH;
        return Math.abs(fileTime - expectedTicks);
    }
}
