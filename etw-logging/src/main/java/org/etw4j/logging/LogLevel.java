package org.etw4j.logging;

import org.etw4j.Level;

/**
 * The severity of a log record, in the numbering of .NET's {@code Microsoft.Extensions.Logging.LogLevel}
 * (Trace 0 ... Critical 5), which is what the {@code Level} field of the Microsoft-Extensions-Logging events holds
 * (dotnet/runtime src/libraries/Microsoft.Extensions.Logging.EventSource/src/LoggingEventSource.cs, the
 * {@code LogLevel Level} parameter of {@code FormattedMessage} and {@code Message}), and the ETW level our event is
 * written at.
 *
 * <p>Closed set; immutable. Each bridge maps its framework's levels onto these (see its {@code levelOf}).
 */
public enum LogLevel {
    /** Logback/Log4j2 TRACE, JUL FINER and FINEST. */
    TRACE(0, Level.VERBOSE),
    /** Logback/Log4j2 DEBUG, JUL FINE. */
    DEBUG(1, Level.VERBOSE),
    /** INFO, JUL CONFIG and INFO. */
    INFORMATION(2, Level.INFORMATIONAL),
    /** WARN, JUL WARNING. */
    WARNING(3, Level.WARNING),
    /** ERROR, JUL SEVERE. */
    ERROR(4, Level.ERROR),
    /** Log4j2 FATAL. */
    CRITICAL(5, Level.CRITICAL);

    private final int dotnetValue;
    private final Level etwLevel;

    LogLevel(int dotnetValue, Level etwLevel) {
        this.dotnetValue = dotnetValue;
        this.etwLevel = etwLevel;
    }

    /** The {@code Microsoft.Extensions.Logging.LogLevel} number written in the {@code Level} field. */
    public int dotnetValue() {
        return dotnetValue;
    }

    /** The ETW level the event is written at (sessions filter on it). */
    public Level etwLevel() {
        return etwLevel;
    }
}
