package org.etw4j.log4j2;

import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.Core;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderFactory;
import org.apache.logging.log4j.core.config.plugins.validation.constraints.Required;
import org.etw4j.logging.BridgeStatistics;
import org.etw4j.logging.LogLevel;
import org.etw4j.logging.LoggingBridge;

/**
 * A Log4j2 appender plugin ({@code <Etw>}) that writes each log event as a TraceLogging event of an ETW provider, in
 * the shape of .NET's Microsoft-Extensions-Logging events (see the README's "Logging bridges" section).
 *
 * <pre>{@code
 * <Appenders>
 *   <Etw name="ETW" providerName="MyCompany-MyService"/>   <!-- optional: providerGuid="..." -->
 * </Appenders>
 * }</pre>
 *
 * <p>Thread-safe; takes no lock. When no session listens, {@link #append} costs one volatile read and allocates
 * nothing; otherwise it formats only what a session asks for. It never throws into the application (whatever
 * {@code ignoreExceptions} says) and never blocks: failures are counted ({@link #statistics()}) and reported to
 * the appender's {@link org.apache.logging.log4j.core.ErrorHandler} (by default the StatusLogger) at the 1st,
 * 10th, 100th, ... occurrence. The provider is registered when the configuration builds the appender and
 * unregistered when it stops.
 */
@Plugin(name = "Etw", category = Core.CATEGORY_NAME, elementType = Appender.ELEMENT_TYPE, printObject = true)
public final class EtwAppender extends AbstractAppender {
    private final LoggingBridge<LogEvent> bridge;

    private EtwAppender(String name, Filter filter, boolean ignoreExceptions, Property[] properties,
                        String providerName, String providerGuid) {
        super(name, filter, null, ignoreExceptions, properties);
        this.bridge = LoggingBridge.open(providerName, providerGuid, Log4j2Records.INSTANCE,
                (message, cause) -> error(message, null, cause));
    }

    /** The builder Log4j2's configuration uses ({@code providerName} required, {@code providerGuid} optional). */
    @PluginBuilderFactory
    public static Builder newBuilder() {
        return new Builder();
    }

    @Override
    public void append(LogEvent event) {
        if (!bridge.isEnabled()) {
            return; // no session: nothing read from the event
        }
        LogLevel level = Log4j2Records.levelOf(event.getLevel());
        if (bridge.isEnabled(level)) {
            bridge.log(level, event);
        }
    }

    @Override
    public boolean stop(long timeout, TimeUnit timeUnit) {
        setStopping();
        boolean stopped = super.stop(timeout, timeUnit, false);
        bridge.close();
        setStopped();
        return stopped;
    }

    /** The bridge's counters. */
    public BridgeStatistics statistics() {
        return bridge.statistics();
    }

    /** The {@code FactoryID} this appender writes. */
    public int factoryId() {
        return bridge.factoryId();
    }

    /**
     * Builds an {@link EtwAppender} from {@code <Etw name=... providerName=... [providerGuid=...]>}.
     *
     * <p>Not thread-safe; Log4j2 uses it once per configuration.
     */
    public static final class Builder extends AbstractAppender.Builder<Builder>
            implements org.apache.logging.log4j.core.util.Builder<EtwAppender> {

        @PluginBuilderAttribute
        @Required(message = "Etw appender: providerName is required (the ETW provider the log events go to)")
        private String providerName;

        @PluginBuilderAttribute
        private String providerGuid;

        public Builder setProviderName(String providerName) {
            this.providerName = providerName;
            return this;
        }

        public Builder setProviderGuid(String providerGuid) {
            this.providerGuid = providerGuid;
            return this;
        }

        /** The appender, or null (with the reason on the StatusLogger) when the configuration is wrong. */
        @Override
        public EtwAppender build() {
            try {
                return new EtwAppender(getName(), getFilter(), isIgnoreExceptions(), getPropertyArray(), providerName,
                        providerGuid);
            } catch (RuntimeException e) {
                LOGGER.error("Etw appender [{}] not created: {}", getName(), e.getMessage(), e);
                return null;
            }
        }
    }
}
