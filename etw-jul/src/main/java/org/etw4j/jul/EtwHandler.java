package org.etw4j.jul;

import java.util.logging.ErrorManager;
import java.util.logging.Filter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import org.etw4j.logging.BridgeStatistics;
import org.etw4j.logging.LogLevel;
import org.etw4j.logging.LoggingBridge;

/**
 * A java.util.logging {@link Handler} that writes each log record as a TraceLogging event of an ETW provider, in the
 * shape of .NET's Microsoft-Extensions-Logging events (see the README's "Logging bridges" section).
 *
 * <p>Configured by {@code logging.properties} (the no-argument constructor, which {@code LogManager} calls for
 * {@code handlers = org.etw4j.jul.EtwHandler}) or in code:
 * <pre>
 * org.etw4j.jul.EtwHandler.providerName = MyCompany-MyService    (required)
 * org.etw4j.jul.EtwHandler.providerGuid = ...                    (optional; default derived from the name)
 * org.etw4j.jul.EtwHandler.level        = ALL                    (optional; default ALL)
 * org.etw4j.jul.EtwHandler.filter       = com.example.MyFilter   (optional)
 * </pre>
 *
 * <p>Thread-safe; takes no lock. When no session listens, {@link #publish} costs one volatile read and allocates
 * nothing; otherwise it formats only what a session asks for. It never throws and never blocks: failures are
 * counted ({@link #statistics()}) and reported through {@link #reportError} (the {@link ErrorManager}, which by
 * default prints the first one to System.err), at the 1st, 10th, 100th, ... occurrence. A configuration without
 * a provider name is reported as {@link ErrorManager#OPEN_FAILURE} and the handler then ignores records.
 * {@link #close()} unregisters the provider; idempotent.
 */
public class EtwHandler extends Handler {
    private final LoggingBridge<LogRecord> bridge;

    /** Configured from the {@code LogManager} properties {@code org.etw4j.jul.EtwHandler.*} (see above). */
    public EtwHandler() {
        String prefix = EtwHandler.class.getName() + ".";
        LogManager manager = LogManager.getLogManager();
        configureLevelAndFilter(manager.getProperty(prefix + "level"), manager.getProperty(prefix + "filter"));
        this.bridge = open(manager.getProperty(prefix + "providerName"), manager.getProperty(prefix + "providerGuid"));
    }

    /** A handler for the provider {@code providerName} (GUID derived from the name), level ALL. */
    public EtwHandler(String providerName) {
        this(providerName, null);
    }

    /** A handler for the provider {@code providerName} with an explicit GUID (or null), level ALL. */
    public EtwHandler(String providerName, String providerGuid) {
        setLevel(Level.ALL);
        this.bridge = open(providerName, providerGuid);
    }

    private LoggingBridge<LogRecord> open(String providerName, String providerGuid) {
        try {
            return LoggingBridge.open(providerName, providerGuid, JulRecords.INSTANCE,
                    (message, cause) -> reportError(message, asException(cause), ErrorManager.WRITE_FAILURE));
        } catch (RuntimeException e) {
            reportError("EtwHandler not opened: " + e.getMessage(), e, ErrorManager.OPEN_FAILURE);
            return null;
        }
    }

    private void configureLevelAndFilter(String level, String filter) {
        try {
            setLevel(level == null || level.isBlank() ? Level.ALL : Level.parse(level.trim()));
        } catch (IllegalArgumentException e) {
            reportError("EtwHandler: bad level '" + level + "', using ALL", e, ErrorManager.GENERIC_FAILURE);
            setLevel(Level.ALL);
        }
        if (filter != null && !filter.isBlank()) {
            try {
                setFilter((Filter) ClassLoader.getSystemClassLoader().loadClass(filter.trim())
                        .getDeclaredConstructor().newInstance());
            } catch (ReflectiveOperationException | ClassCastException e) {
                reportError("EtwHandler: filter '" + filter + "' not loaded", e, ErrorManager.GENERIC_FAILURE);
            }
        }
    }

    private static Exception asException(Throwable t) {
        return t == null || t instanceof Exception ? (Exception) t : new Exception(t);
    }

    @Override
    public void publish(LogRecord record) {
        LoggingBridge<LogRecord> b = bridge;
        if (b == null || record == null || !b.isEnabled()) {
            return; // no session: nothing read from the record
        }
        LogLevel level = JulRecords.levelOf(record.getLevel());
        if (b.isEnabled(level) && isLoggable(record)) {
            b.log(level, record);
        }
    }

    /** Nothing to flush: every event is handed to ETW when published. */
    @Override
    public void flush() {
    }

    /** Unregisters the provider; idempotent. */
    @Override
    public void close() {
        LoggingBridge<LogRecord> b = bridge;
        if (b != null) {
            b.close();
        }
    }

    /** The bridge's counters (all zero when the handler could not open). */
    public BridgeStatistics statistics() {
        LoggingBridge<LogRecord> b = bridge;
        return b == null ? new BridgeStatistics(0, 0, 0, 0) : b.statistics();
    }

    /** The {@code FactoryID} this handler writes, or 0 when it could not open. */
    public int factoryId() {
        LoggingBridge<LogRecord> b = bridge;
        return b == null ? 0 : b.factoryId();
    }
}
