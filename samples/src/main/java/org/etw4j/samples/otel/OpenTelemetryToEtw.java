package org.etw4j.samples.otel;

import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.SimpleLogRecordProcessor;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.io.PrintStream;
import java.time.Duration;
import org.etw4j.Backend;
import org.etw4j.Level;
import org.etw4j.consumer.EventStream;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.opentelemetry.EtwLogRecordExporter;
import org.etw4j.opentelemetry.EtwSpanProcessor;
import org.etw4j.opentelemetry.EtwTarget;

/**
 * OpenTelemetry spans and logs as ETW events: an SDK with {@link EtwSpanProcessor} (activity START/STOP per span)
 * and {@link EtwLogRecordExporter}, a real-time session that enables the provider, and a live stream printing what
 * arrives. Runs on the default backend (real ETW on Windows, the simulated one elsewhere).
 */
public final class OpenTelemetryToEtw {
    static final String PROVIDER = "Etw4j-Samples-OpenTelemetry";

    private OpenTelemetryToEtw() {
    }

    public static void main(String[] args) throws InterruptedException {
        run(Backend.getDefault(), System.out);
    }

    /** Runs the sample; returns how many events the stream received from the provider. */
    static int run(Backend backend, PrintStream out) throws InterruptedException {
        int[] received = {0};
        try (TraceSession session = TraceSession.start(SessionConfig.realTime("etw4j-otel-sample")
                .flushTimer(Duration.ZERO).build(), backend)) {
            session.enable(PROVIDER, EnableParameters.of(Level.VERBOSE));
            EventStream stream = EventStream.openSession(session.name(), backend);
            stream.onEvent(e -> {
                if (PROVIDER.equals(e.providerName())) {
                    received[0]++;
                    out.printf("%-10s opcode=%d activity=%s %s%n", e.eventName(), e.opcode(), e.activityId(),
                            e.getFields().stream().map(f -> f.name() + "=" + f.value()).toList());
                }
            });
            stream.startAsync();

            EtwTarget target = EtwTarget.builder().providerName(PROVIDER).backend(backend).build();
            OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(EtwSpanProcessor.create(target)).build())
                    .setLoggerProvider(SdkLoggerProvider.builder()
                            .addLogRecordProcessor(SimpleLogRecordProcessor.create(EtwLogRecordExporter.create(target)))
                            .build())
                    .build();
            Tracer tracer = sdk.getTracer("sample");
            Span request = tracer.spanBuilder("GET /orders").setAttribute("http.request.method", "GET").startSpan();
            try (Scope ignored = request.makeCurrent()) {
                Span query = tracer.spanBuilder("SELECT orders").setAttribute("db.rows", 3L).startSpan();
                query.end();
                sdk.getLogsBridge().get("sample").logRecordBuilder().setSeverity(Severity.WARN)
                        .setBody("slow query").emit();
            } finally {
                request.end();
            }
            sdk.close(); // shuts down processor and exporter; the last one unregisters the provider
            session.stop();
            stream.awaitTermination(Duration.ofSeconds(10));
        }
        return received[0];
    }
}
