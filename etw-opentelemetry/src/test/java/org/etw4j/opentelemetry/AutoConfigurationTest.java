package org.etw4j.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.util.List;
import java.util.Map;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.etw4j.Backend;
import org.junit.jupiter.api.Test;

/** {@code otel.traces.exporter=etw} and {@code otel.logs.exporter=etw} through the SDK's autoconfiguration. */
class AutoConfigurationTest {
    static final String PROVIDER = "Etw4j-Otel-Autoconfigured";

    private static EventRecord byName(List<EventRecord> events, String name) {
        return events.stream().filter(e -> e.eventName().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void autoconfiguredSdkWritesSpansAndLogsToTheNamedProvider() throws Exception {
        // The autoconfigured exporters register on the default backend (the simulated one off Windows).
        try (EtwRig rig = new EtwRig(Backend.getDefault(), PROVIDER, Level.VERBOSE)) {
            OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(() -> Map.of(
                            "otel.traces.exporter", "etw",
                            "otel.logs.exporter", "etw",
                            "otel.metrics.exporter", "none",
                            "otel.exporter.etw.provider.name", PROVIDER,
                            "otel.exporter.etw.keyword", "0x10",
                            "otel.exporter.etw.span.level", "verbose"))
                    .disableShutdownHook().build().getOpenTelemetrySdk();
            Span span = sdk.getTracer("auto").spanBuilder("auto.span").startSpan();
            try (Scope ignored = span.makeCurrent()) {
                sdk.getLogsBridge().get("auto.logger").logRecordBuilder().setSeverity(Severity.ERROR).setBody("inside")
                        .emit();
            } finally {
                span.end();
            }
            sdk.close(); // flushes the batch processors and releases the provider
            List<EventRecord> events = rig.stopAndCollect();
            // two batch processors, two threads: their order is not defined
            assertEquals(List.of("Log", "Span"), EtwSpanExporterTest.names(events).stream().sorted().toList());
            EventRecord log = byName(events, "Log");
            EventRecord spanEvent = byName(events, "Span");
            assertEquals(PROVIDER, spanEvent.providerName());
            assertEquals("auto.span", spanEvent.getString("Name"));
            assertEquals(span.getSpanContext().getSpanId(), spanEvent.getString("SpanId"));
            assertEquals(Level.VERBOSE.value(), spanEvent.level(), "otel.exporter.etw.span.level");
            assertEquals(0x10L, spanEvent.keyword(), "otel.exporter.etw.keyword");
            assertEquals(0x10L, log.keyword());
            assertEquals(Level.ERROR.value(), log.level());
            assertEquals("inside", log.getString("body"));
            assertEquals(span.getSpanContext().getSpanId(), log.getString("SpanId"));
            assertEquals(spanEvent.activityId(), log.activityId(), "the log sits in the span's activity");
            assertTrue(!spanEvent.activityId().isNull());
        }
    }
}
