package org.etw4j.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.etw4j.logging.LogLevel;
import org.etw4j.logging.LogRecordAccess;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;

/**
 * Reads Logback's {@link ILoggingEvent} for the bridge core. Stateless; thread-safe.
 */
final class LogbackRecords implements LogRecordAccess<ILoggingEvent> {
    static final LogbackRecords INSTANCE = new LogbackRecords();

    private LogbackRecords() {
    }

    /** TRACE, DEBUG, INFO, WARN, ERROR; a level between two standard ones takes the lower one's mapping. */
    static LogLevel levelOf(Level level) {
        int v = level.toInt();
        if (v >= Level.ERROR_INT) {
            return LogLevel.ERROR;
        }
        if (v >= Level.WARN_INT) {
            return LogLevel.WARNING;
        }
        if (v >= Level.INFO_INT) {
            return LogLevel.INFORMATION;
        }
        return v >= Level.DEBUG_INT ? LogLevel.DEBUG : LogLevel.TRACE;
    }

    @Override
    public String loggerName(ILoggingEvent e) {
        return e.getLoggerName();
    }

    /** The SLF4J markers' names, comma-separated. */
    @Override
    public String eventName(ILoggingEvent e) {
        List<Marker> markers = e.getMarkerList();
        if (markers == null || markers.isEmpty()) {
            return "";
        }
        if (markers.size() == 1) {
            return markers.get(0).getName();
        }
        StringBuilder sb = new StringBuilder();
        for (Marker m : markers) {
            sb.append(sb.length() == 0 ? "" : ",").append(m.getName());
        }
        return sb.toString();
    }

    @Override
    public String formattedMessage(ILoggingEvent e) {
        return e.getFormattedMessage();
    }

    @Override
    public String messageFormat(ILoggingEvent e) {
        return e.getMessage();
    }

    /** Positional arguments (Logback has already taken a trailing throwable out), then SLF4J 2 key/value pairs. */
    @Override
    public void arguments(ILoggingEvent e, BiConsumer<String, Object> out) {
        Object[] args = e.getArgumentArray();
        LogRecordAccess.positional(args, args == null ? 0 : args.length, out);
        List<KeyValuePair> pairs = e.getKeyValuePairs();
        if (pairs != null) {
            for (KeyValuePair p : pairs) {
                out.accept(p.key, p.value);
            }
        }
    }

    /** The throwable of a live event; null for an event whose throwable is only a proxy (deserialized). */
    @Override
    public Throwable throwable(ILoggingEvent e) {
        IThrowableProxy p = e.getThrowableProxy();
        return p instanceof ThrowableProxy tp ? tp.getThrowable() : null;
    }

    @Override
    public String threadName(ILoggingEvent e) {
        return e.getThreadName();
    }

    @Override
    public Map<String, String> context(ILoggingEvent e) {
        Map<String, String> mdc = e.getMDCPropertyMap();
        return mdc == null ? Map.of() : mdc;
    }
}
