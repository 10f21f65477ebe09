package org.etw4j.opentelemetry;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.etw4j.Backend;
import org.etw4j.Level;
import org.etw4j.provider.EtwProvider;
import org.etw4j.tracelogging.EventShapeCache;
import org.etw4j.tracelogging.TraceLoggingEvent;

/**
 * Where the exporters write: one ETW provider, the keyword and span level of their events, and the TraceLogging
 * metadata cache. Thread-safe; share one target between {@link EtwSpanExporter} (or {@link EtwSpanProcessor}) and
 * {@link EtwLogRecordExporter} so both write as one provider.
 *
 * <p>Close contract: a target built from a provider name registers the provider and owns it. Each exporter or
 * processor created over the target holds it; the provider is unregistered when the last holder shuts down (or
 * on {@link #close()}, idempotent). A target made with {@link #of(EtwProvider)} never closes that provider: its
 * owner does.
 */
public final class EtwTarget implements AutoCloseable {
    /** Most span shapes kept (see {@link EventShapeCache}). */
    static final int MAX_SHAPES = 1024;
    private final EtwProvider provider;
    private final boolean ownsProvider;
    private final long keyword;
    private final int spanLevel;
    /**
     * TraceLogging event metadata by field list (a {@link DynamicEvent#signature()}), so spans of the same shape share
     * one {@link TraceLoggingEvent}; bounded, so attribute sets that vary without end cannot grow memory without end.
     */
    private final EventShapeCache<String, TraceLoggingEvent> schemas = new EventShapeCache<>(MAX_SHAPES);
    private final AtomicInteger holders = new AtomicInteger();
    private final AtomicLong droppedAttributes = new AtomicLong();

    private EtwTarget(EtwProvider provider, boolean ownsProvider, long keyword, int spanLevel) {
        this.provider = provider;
        this.ownsProvider = ownsProvider;
        this.keyword = keyword;
        this.spanLevel = spanLevel;
    }

    /** A target over a provider the caller owns (keyword 0, span level INFORMATIONAL). */
    public static EtwTarget of(EtwProvider provider) {
        return new EtwTarget(Objects.requireNonNull(provider, "provider"), false, 0L, Level.INFORMATIONAL.value());
    }

    /** A builder; the provider name defaults to {@value OtelEtwSchema#DEFAULT_PROVIDER_NAME}. */
    public static Builder builder() {
        return new Builder();
    }

    /** The provider written to. */
    public EtwProvider provider() {
        return provider;
    }

    /** The keyword of every event written. */
    public long keyword() {
        return keyword;
    }

    /** The ETW level of span events (START, STOP, "Span" and span events). */
    public int spanLevel() {
        return spanLevel;
    }

    /**
     * Attributes left out of written events since this target was built: those named like a standard field of
     * the schema (the standard field wins) and those past TraceLogging's field limit. Write failures are counted
     * apart, in {@code provider().statistics()}.
     */
    public long droppedAttributes() {
        return droppedAttributes.get();
    }

    void countDroppedAttributes(int n) {
        if (n > 0) {
            droppedAttributes.addAndGet(n);
        }
    }

    /** The metadata of {@code event}'s shape, built on first use. */
    TraceLoggingEvent schemaFor(DynamicEvent event) {
        return schemas.get(event.signature(), k -> event.buildSchema());
    }

    /** Shapes kept now. */
    int shapeCount() {
        return schemas.size();
    }

    void hold() {
        holders.incrementAndGet();
    }

    void release() {
        if (holders.decrementAndGet() <= 0) {
            close();
        }
    }

    /** Unregisters the provider if this target registered it; idempotent. */
    @Override
    public void close() {
        if (ownsProvider) {
            provider.close();
        }
    }

    /** Builds an {@link EtwTarget}. Not thread-safe. */
    public static final class Builder {
        private String providerName = OtelEtwSchema.DEFAULT_PROVIDER_NAME;
        private Backend backend;
        private long keyword;
        private int spanLevel = Level.INFORMATIONAL.value();

        private Builder() {
        }

        /** The TraceLogging provider name (its GUID is derived from the name, as TraceLogging does). */
        public Builder providerName(String name) {
            this.providerName = Objects.requireNonNull(name, "name");
            return this;
        }

        /** The backend (default: the platform's, {@link Backend#getDefault()}). */
        public Builder backend(Backend backend) {
            this.backend = backend;
            return this;
        }

        /** The keyword of every event (default 0). */
        public Builder keyword(long keyword) {
            this.keyword = keyword;
            return this;
        }

        /** The level of span events (default INFORMATIONAL). Log records take their level from their severity. */
        public Builder spanLevel(Level level) {
            this.spanLevel = level.value();
            return this;
        }

        /** Registers the provider. */
        public EtwTarget build() {
            EtwProvider.Builder b = EtwProvider.builder(providerName);
            if (backend != null) {
                b.backend(backend);
            }
            return new EtwTarget(b.register(), true, keyword, spanLevel);
        }
    }
}
