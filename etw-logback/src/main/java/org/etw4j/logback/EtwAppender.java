package org.etw4j.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import org.etw4j.logging.BridgeStatistics;
import org.etw4j.logging.LogLevel;
import org.etw4j.logging.LoggingBridge;

/**
 * A Logback appender that writes each logging event as a TraceLogging event of an ETW provider, in the shape of
 * .NET's Microsoft-Extensions-Logging events (see the README's "Logging bridges" section).
 *
 * <pre>{@code
 * <appender name="ETW" class="org.etw4j.logback.EtwAppender">
 *   <providerName>MyCompany-MyService</providerName>
 *   <!-- optional: <providerGuid>...</providerGuid> instead of the GUID derived from the name -->
 * </appender>
 * }</pre>
 *
 * <p>Thread-safe (an {@link UnsynchronizedAppenderBase}: no lock is taken on the logging path). When no session
 * listens, {@link #append} costs one volatile read and allocates nothing; otherwise it formats only what a session
 * asks for. It never throws into the application and never blocks: failures are counted ({@link #statistics()})
 * and reported through Logback's StatusManager ({@code addError}) at the 1st, 10th, 100th, ... occurrence. A
 * configuration without {@code providerName} reports an error and the appender stays stopped. {@link #start()}
 * registers the provider; {@link #stop()} unregisters it.
 */
public class EtwAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {
    private String providerName;
    private String providerGuid;
    private volatile LoggingBridge<ILoggingEvent> bridge;

    /** The ETW provider name ({@code <providerName>}); required. */
    public void setProviderName(String providerName) {
        this.providerName = providerName;
    }

    public String getProviderName() {
        return providerName;
    }

    /** An explicit provider GUID ({@code <providerGuid>}); default: derived from the name, as EventSource does. */
    public void setProviderGuid(String providerGuid) {
        this.providerGuid = providerGuid;
    }

    public String getProviderGuid() {
        return providerGuid;
    }

    @Override
    public void start() {
        if (isStarted()) {
            return;
        }
        try {
            bridge = LoggingBridge.open(providerName, providerGuid, LogbackRecords.INSTANCE, this::addError);
        } catch (RuntimeException e) {
            addError("EtwAppender [" + getName() + "] not started: " + e.getMessage(), e);
            return;
        }
        super.start();
    }

    @Override
    public void stop() {
        super.stop();
        LoggingBridge<ILoggingEvent> b = bridge;
        if (b != null) {
            b.close();
        }
    }

    @Override
    protected void append(ILoggingEvent event) {
        LoggingBridge<ILoggingEvent> b = bridge;
        if (!b.isEnabled()) {
            return; // no session: nothing read from the event
        }
        LogLevel level = LogbackRecords.levelOf(event.getLevel());
        if (b.isEnabled(level)) {
            b.log(level, event);
        }
    }

    /** The bridge's counters (all zero before {@link #start()}). */
    public BridgeStatistics statistics() {
        LoggingBridge<ILoggingEvent> b = bridge;
        return b == null ? new BridgeStatistics(0, 0, 0, 0) : b.statistics();
    }

    /** The {@code FactoryID} this appender writes, or 0 before {@link #start()}. */
    public int factoryId() {
        LoggingBridge<ILoggingEvent> b = bridge;
        return b == null ? 0 : b.factoryId();
    }
}
