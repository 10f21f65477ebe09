package org.etw4j.log4j2;

import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.util.ReadOnlyStringMap;
import org.etw4j.logging.LogLevel;
import org.etw4j.logging.LogRecordAccess;

/**
 * Reads Log4j2's {@link LogEvent} for the bridge core. Stateless; thread-safe; keeps nothing of the event (Log4j2
 * reuses mutable events in its garbage-free mode).
 */
final class Log4j2Records implements LogRecordAccess<LogEvent> {
    static final Log4j2Records INSTANCE = new Log4j2Records();

    private Log4j2Records() {
    }

    /**
     * By {@code intLevel} (FATAL 100, ERROR 200, WARN 300, INFO 400, DEBUG 500, TRACE 600); a custom level takes
     * the mapping of the next more severe standard level at or above it.
     */
    static LogLevel levelOf(Level level) {
        int v = level.intLevel();
        if (v <= Level.FATAL.intLevel()) {
            return LogLevel.CRITICAL;
        }
        if (v <= Level.ERROR.intLevel()) {
            return LogLevel.ERROR;
        }
        if (v <= Level.WARN.intLevel()) {
            return LogLevel.WARNING;
        }
        if (v <= Level.INFO.intLevel()) {
            return LogLevel.INFORMATION;
        }
        return v <= Level.DEBUG.intLevel() ? LogLevel.DEBUG : LogLevel.TRACE;
    }

    @Override
    public String loggerName(LogEvent e) {
        return e.getLoggerName();
    }

    /** The marker's name. */
    @Override
    public String eventName(LogEvent e) {
        Marker m = e.getMarker();
        return m == null ? "" : m.getName();
    }

    @Override
    public String formattedMessage(LogEvent e) {
        Message m = e.getMessage();
        return m == null ? "" : m.getFormattedMessage();
    }

    @Override
    public String messageFormat(LogEvent e) {
        Message m = e.getMessage();
        return m == null ? null : m.getFormat();
    }

    /** The message parameters, without a trailing one that is the event's throwable (as Logback leaves it out). */
    @Override
    public void arguments(LogEvent e, BiConsumer<String, Object> out) {
        Message m = e.getMessage();
        Object[] params = m == null ? null : m.getParameters();
        if (params == null) {
            return;
        }
        int n = params.length;
        if (n > 0 && params[n - 1] != null && params[n - 1] == e.getThrown()) {
            n--;
        }
        LogRecordAccess.positional(params, n, out);
    }

    @Override
    public Throwable throwable(LogEvent e) {
        return e.getThrown();
    }

    @Override
    public String threadName(LogEvent e) {
        return e.getThreadName();
    }

    /** The ThreadContext map (the event's context data). */
    @Override
    public Map<String, String> context(LogEvent e) {
        ReadOnlyStringMap data = e.getContextData();
        return data == null || data.isEmpty() ? Map.of() : data.toMap();
    }
}
