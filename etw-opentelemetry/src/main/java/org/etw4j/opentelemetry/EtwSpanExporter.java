package org.etw4j.opentelemetry;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import org.etw4j.provider.EtwProvider;

/**
 * A {@link SpanExporter} that writes each ended span as TraceLogging events in opentelemetry-cpp's ETW schema
 * ({@link OtelEtwSchema}): one event per span event, then the "Span" event, each with the span's activity id and
 * the "Span" event with the parent's as related activity id. Thread-safe (the SDK may export from several
 * threads); {@link #shutdown()} is idempotent and releases the {@link EtwTarget}.
 *
 * <p><b>Exporter or processor.</b> An exporter only sees ended spans, and with the SDK's
 * {@code BatchSpanProcessor} it runs later, on the batch thread. It therefore writes no activity START/STOP events:
 * their ETW timestamps and thread would be the export's, not the span's. For START at the span's start and STOP at
 * its end, on the span's own thread, use {@link EtwSpanProcessor}, which also writes what this exporter writes.
 * The ETW timestamp of every event is the time of the write; the span's own times are in StartTime and Duration.
 *
 * <p>Writes never throw: a failed write (e.g. the event exceeds the ETW size limit) makes the export result fail
 * and is counted in the provider's {@code statistics()}.
 */
public final class EtwSpanExporter implements SpanExporter {
    private final EtwTarget target;
    private final SpanEvents events;
    private final TargetLease lease;

    private EtwSpanExporter(EtwTarget target) {
        this.target = target;
        this.events = new SpanEvents(target);
        this.lease = new TargetLease(target);
    }

    /** An exporter over {@code target}. */
    public static EtwSpanExporter create(EtwTarget target) {
        return new EtwSpanExporter(target);
    }

    /** An exporter over an existing provider, which the caller keeps owning. */
    public static EtwSpanExporter create(EtwProvider provider) {
        return new EtwSpanExporter(EtwTarget.of(provider));
    }

    /** The target written to. */
    public EtwTarget target() {
        return target;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        if (lease.isShutdown()) {
            return CompletableResultCode.ofFailure();
        }
        int status = 0;
        for (SpanData span : spans) {
            status = SpanEvents.firstFailure(status, events.writeEnded(span));
        }
        return status == 0 ? CompletableResultCode.ofSuccess() : CompletableResultCode.ofFailure();
    }

    /** Nothing is buffered here: ETW buffers in the session. */
    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return lease.shutdown();
    }

    @Override
    public String toString() {
        return "EtwSpanExporter{provider=" + target.provider().name() + "}";
    }
}
