package org.etw4j.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import picocli.CommandLine;

/**
 * Reads durations written as {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, a plain number of seconds, or
 * ISO-8601 ({@code PT10S}), from 1 ms to {@link #MAX} (a longer value is a usage error before anything starts, not
 * an overflow once a session runs).
 *
 * <p>Stateless; thread-safe.
 */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    /** The longest duration accepted: a year (a wait or a time offset in nanoseconds overflows after 292). */
    static final Duration MAX = Duration.ofDays(365);

    @Override
    public Duration convert(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        try {
            Duration d;
            if (v.startsWith("p")) {
                d = Duration.parse(v.toUpperCase(Locale.ROOT));
            } else if (v.endsWith("ms")) {
                d = Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2).trim()));
            } else if (v.endsWith("s")) {
                d = Duration.ofMillis(millis(v.substring(0, v.length() - 1), 1000, value));
            } else if (v.endsWith("m")) {
                d = Duration.ofMillis(millis(v.substring(0, v.length() - 1), 60_000, value));
            } else if (v.endsWith("h")) {
                d = Duration.ofMillis(millis(v.substring(0, v.length() - 1), 3_600_000, value));
            } else {
                d = Duration.ofMillis(millis(v, 1000, value));
            }
            if (d.isNegative() || d.isZero()) {
                throw new CommandLine.TypeConversionException("duration must be positive: '" + value + "'");
            }
            if (d.compareTo(MAX) > 0) {
                throw tooLong(value);
            }
            return d;
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration (e.g. 500ms, 10s, 2m, 1h, PT10S)");
        } catch (ArithmeticException e) {
            throw tooLong(value);
        }
    }

    /** {@code number} units of {@code unitMillis} in whole milliseconds, refused beyond {@link #MAX} before rounding. */
    private static long millis(String number, long unitMillis, String value) {
        double ms = Double.parseDouble(number.trim()) * unitMillis;
        if (Double.isNaN(ms)) {
            throw new NumberFormatException(value);
        }
        if (ms > MAX.toMillis()) {
            throw tooLong(value);
        }
        return Math.round(ms);
    }

    private static CommandLine.TypeConversionException tooLong(String value) {
        return new CommandLine.TypeConversionException("'" + value + "' is longer than the longest duration accepted, "
                + MAX.toDays() + " days");
    }
}
