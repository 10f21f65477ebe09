package org.etw4j.opentelemetry;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import org.etw4j.provider.EtwProvider;

/**
 * A {@link SpanProcessor} that maps spans to ETW activities as they happen, on the span's own thread: at
 * {@code onStart} an activity START event named after the span (TraceId, SpanId, ParentId, Kind, Links, the start
 * attributes; activity id from the span id, related activity id from the parent's, see {@link EtwIds}), at
 * {@code onEnd} the span events, the STOP event of the same name and activity id, then the "Span" event (the span
 * events and "Span" as {@link EtwSpanExporter} writes them; the order follows opentelemetry-cpp, which writes span
 * events as they happen and "Span" after STOP). WPA groups START..STOP pairs by activity id into activities, nested by the
 * related id. Only sampled spans are written. Thread-safe; {@link #shutdown()} is idempotent and releases the
 * {@link EtwTarget}.
 *
 * <p>Use it instead of (not beside) {@code EtwSpanExporter}, with {@code SdkTracerProvider.builder()
 * .addSpanProcessor(EtwSpanProcessor.create(target))}. The writes cost the span's thread the building and
 * writing of the events (nothing when no session enables the provider: one pure-Java enable check).
 */
public final class EtwSpanProcessor implements SpanProcessor {
    private final EtwTarget target;
    private final SpanEvents events;
    private final TargetLease lease;

    private EtwSpanProcessor(EtwTarget target) {
        this.target = target;
        this.events = new SpanEvents(target);
        this.lease = new TargetLease(target);
    }

    /** A processor over {@code target}. */
    public static EtwSpanProcessor create(EtwTarget target) {
        return new EtwSpanProcessor(target);
    }

    /** A processor over an existing provider, which the caller keeps owning. */
    public static EtwSpanProcessor create(EtwProvider provider) {
        return new EtwSpanProcessor(EtwTarget.of(provider));
    }

    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {
        if (!lease.isShutdown() && span.getSpanContext().isSampled() && wanted()) {
            events.writeStart(span.toSpanData());
        }
    }

    @Override
    public boolean isStartRequired() {
        return true;
    }

    @Override
    public void onEnd(ReadableSpan span) {
        if (!lease.isShutdown() && span.getSpanContext().isSampled() && wanted()) {
            var data = span.toSpanData();
            events.writeSpanEvents(data); // inside START..STOP, where their time belongs
            events.writeStop(data);
            events.writeSpan(data);
        }
    }

    /** Skips toSpanData() (a copy) when no session enables the span level and keyword. */
    private boolean wanted() {
        return target.provider().isEnabled(target.spanLevel(), target.keyword());
    }

    @Override
    public boolean isEndRequired() {
        return true;
    }

    @Override
    public CompletableResultCode shutdown() {
        return lease.shutdown();
    }

    @Override
    public String toString() {
        return "EtwSpanProcessor{provider=" + target.provider().name() + "}";
    }
}
