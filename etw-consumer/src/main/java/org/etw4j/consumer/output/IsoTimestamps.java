package org.etw4j.consumer.output;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.etw4j.consumer.internal.Utf8Buffer;

/**
 * Writes instants exactly as {@link Instant#toString()} writes them ({@code DateTimeFormatter.ISO_INSTANT}:
 * {@code 2020-07-29T00:07:00.623616700Z}, the fraction in groups of three digits, none when it is zero) as UTF-8
 * bytes, without the formatter's per-call objects: events come in time order, so the date and time up to the
 * second are made once per second and reused.
 *
 * <p>Not thread-safe (it keeps the last second); one per output.
 */
final class IsoTimestamps {
    /** Years ISO_INSTANT writes as four plain digits; others go through {@link Instant#toString()}. */
    private static final long MIN_SECOND = LocalDateTime.of(1000, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC);
    private static final long MAX_SECOND = LocalDateTime.of(10000, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC);

    private long second = Long.MIN_VALUE;
    /** {@code yyyy-MM-ddTHH:mm:ss} of {@link #second}. */
    private final byte[] prefix = new byte[19];

    /** Writes {@code t} as {@code t.toString()} would. */
    Utf8Buffer write(Utf8Buffer out, Instant t) {
        return write(out, t.getEpochSecond(), t.getNano());
    }

    /** Writes the instant {@code epochSecond} + {@code nano} as {@code Instant.toString()} would. */
    Utf8Buffer write(Utf8Buffer out, long epochSecond, int nano) {
        long s = epochSecond;
        if (s < MIN_SECOND || s >= MAX_SECOND) {
            return out.append(Instant.ofEpochSecond(s, nano).toString());
        }
        if (s != second) {
            LocalDateTime d = LocalDateTime.ofEpochSecond(s, 0, ZoneOffset.UTC);
            digits(d.getYear(), 0, 4);
            prefix[4] = '-';
            digits(d.getMonthValue(), 5, 2);
            prefix[7] = '-';
            digits(d.getDayOfMonth(), 8, 2);
            prefix[10] = 'T';
            digits(d.getHour(), 11, 2);
            prefix[13] = ':';
            digits(d.getMinute(), 14, 2);
            prefix[16] = ':';
            digits(d.getSecond(), 17, 2);
            second = s;
        }
        out.bytes(prefix);
        if (nano != 0) {
            out.ascii('.');
            // as ISO_INSTANT: milliseconds, microseconds or nanoseconds, whichever shows every non-zero digit
            if (nano % 1_000_000 == 0) {
                out.fixedDecimal(nano / 1_000_000, 3);
            } else if (nano % 1_000 == 0) {
                out.fixedDecimal(nano / 1_000, 6);
            } else {
                out.fixedDecimal(nano, 9);
            }
        }
        return out.ascii('Z');
    }

    private void digits(int value, int at, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            prefix[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }
}
