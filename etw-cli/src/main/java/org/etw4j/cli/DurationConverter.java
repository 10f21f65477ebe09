package org.etw4j.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import picocli.CommandLine;

/**
 * Reads durations written as {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, a plain number of seconds, or
 * ISO-8601 ({@code PT10S}).
 *
 * <p>Stateless; thread-safe.
 */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
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
                d = Duration.ofMillis(Math.round(Double.parseDouble(v.substring(0, v.length() - 1).trim()) * 1000));
            } else if (v.endsWith("m")) {
                d = Duration.ofSeconds(Math.round(Double.parseDouble(v.substring(0, v.length() - 1).trim()) * 60));
            } else if (v.endsWith("h")) {
                d = Duration.ofSeconds(Math.round(Double.parseDouble(v.substring(0, v.length() - 1).trim()) * 3600));
            } else {
                d = Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000));
            }
            if (d.isNegative() || d.isZero()) {
                throw new CommandLine.TypeConversionException("duration must be positive: '" + value + "'");
            }
            return d;
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration (e.g. 500ms, 10s, 2m, 1h, PT10S)");
        }
    }
}
