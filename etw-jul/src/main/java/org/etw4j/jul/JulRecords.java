package org.etw4j.jul;

import java.util.Map;
import java.util.function.BiConsumer;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.etw4j.logging.LogLevel;
import org.etw4j.logging.LogRecordAccess;

/**
 * Reads java.util.logging's {@link LogRecord} for the bridge core. Stateless; thread-safe.
 */
final class JulRecords implements LogRecordAccess<LogRecord> {
    static final JulRecords INSTANCE = new JulRecords();

    /** The JDK's own message formatting (resource bundle, then {@code MessageFormat} when there are {n} holes). */
    private static final Formatter MESSAGES = new Formatter() {
        @Override
        public String format(LogRecord record) {
            return formatMessage(record);
        }
    };

    private JulRecords() {
    }

    /**
     * By {@code intValue}: SEVERE (1000) and above ERROR, WARNING (900) WARNING, CONFIG (700) and INFO (800)
     * INFORMATION, FINE (500) DEBUG, FINER and FINEST TRACE; a custom level takes the mapping of the standard level
     * at or below it.
     */
    static LogLevel levelOf(Level level) {
        int v = level.intValue();
        if (v >= Level.SEVERE.intValue()) {
            return LogLevel.ERROR;
        }
        if (v >= Level.WARNING.intValue()) {
            return LogLevel.WARNING;
        }
        if (v >= Level.CONFIG.intValue()) {
            return LogLevel.INFORMATION;
        }
        return v >= Level.FINE.intValue() ? LogLevel.DEBUG : LogLevel.TRACE;
    }

    @Override
    public String loggerName(LogRecord r) {
        return r.getLoggerName();
    }

    /** java.util.logging has no markers. */
    @Override
    public String eventName(LogRecord r) {
        return "";
    }

    @Override
    public String formattedMessage(LogRecord r) {
        return MESSAGES.formatMessage(r);
    }

    @Override
    public String messageFormat(LogRecord r) {
        return r.getMessage();
    }

    @Override
    public void arguments(LogRecord r, BiConsumer<String, Object> out) {
        Object[] params = r.getParameters();
        LogRecordAccess.positional(params, params == null ? 0 : params.length, out);
    }

    @Override
    public Throwable throwable(LogRecord r) {
        return r.getThrown();
    }

    /**
     * The current thread's name when it is the thread that logged (the usual, synchronous case); a LogRecord
     * carries only the thread's id, so a record published later from another thread (MemoryHandler) gets "".
     */
    @Override
    public String threadName(LogRecord r) {
        Thread t = Thread.currentThread();
        return r.getLongThreadID() == t.getId() ? t.getName() : "";
    }

    /** java.util.logging has no MDC. */
    @Override
    public Map<String, String> context(LogRecord r) {
        return Map.of();
    }
}
