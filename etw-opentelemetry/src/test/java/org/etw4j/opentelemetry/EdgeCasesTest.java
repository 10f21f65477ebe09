package org.etw4j.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Value;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.List;
import java.util.Map;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.etw4j.opentelemetry.internal.EtwExporterConfig;
import org.etw4j.sim.SimulatedBackend;
import org.junit.jupiter.api.Test;

/** Limits, reserved names, complex values, sampling, shutdown and configuration errors. */
class EdgeCasesTest {
    static final String PROVIDER = "Etw4j-Otel-Edge";

    @Test
    void fieldLimitReservedNamesAndComplexValues() throws Exception {
        SimulatedBackend backend = new SimulatedBackend();
        try (EtwRig rig = new EtwRig(backend, PROVIDER, Level.VERBOSE)) {
            EtwTarget target = EtwTarget.builder().providerName(PROVIDER).backend(backend).build();
            SdkTracerProvider tracers = SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(EtwSpanExporter.create(target))).build();
            Span span = tracers.get("edge").spanBuilder("many").startSpan();
            span.setAttribute(AttributeKey.valueKey("v.complex"), Value.of(Map.of("k", Value.of(7L))));
            span.setAttribute("Duration", 99L); // reserved: the standard field wins
            for (int i = 0; i < 125; i++) {
                span.setAttribute(String.format("k%03d", i), (long) i);
            }
            span.end();
            tracers.shutdown().join(10, java.util.concurrent.TimeUnit.SECONDS);
            List<EventRecord> events = rig.stopAndCollect();
            assertEquals(1, events.size());
            Map<String, Object> fields = EtwRig.fields(events.get(0));
            // 10 standard fields (no ParentId, no Links) + 118 attributes = MAX_FIELDS; k118..k124 dropped
            assertEquals(128, fields.size());
            assertTrue(fields.containsKey("k117"));
            assertFalse(fields.containsKey("k118"));
            assertEquals(8, target.droppedAttributes(), "the reserved Duration and k118..k124, counted, not lost");
            assertEquals(Value.of(Map.of("k", Value.of(7L))).asString(), fields.get("v.complex"));
            assertTrue(fields.get("Duration") instanceof Long d && d >= 0 && d < 10_000, "the span's duration");
        }
    }

    @Test
    void unsampledSpansAreNotWritten() throws Exception {
        SimulatedBackend backend = new SimulatedBackend();
        try (EtwRig rig = new EtwRig(backend, PROVIDER, Level.VERBOSE)) {
            EtwTarget target = EtwTarget.builder().providerName(PROVIDER).backend(backend).build();
            SdkTracerProvider tracers = SdkTracerProvider.builder().setSampler(Sampler.alwaysOff())
                    .addSpanProcessor(EtwSpanProcessor.create(target)).build();
            tracers.get("edge").spanBuilder("dropped").startSpan().end();
            tracers.shutdown();
            assertEquals(List.of(), rig.stopAndCollect());
        }
    }

    @Test
    void sharedTargetClosesWithItsLastHolderAndExportsFailAfterShutdown() {
        EtwTarget target = EtwTarget.builder().providerName(PROVIDER).backend(new SimulatedBackend()).build();
        EtwSpanExporter spans = EtwSpanExporter.create(target);
        EtwLogRecordExporter logs = EtwLogRecordExporter.create(target);
        assertTrue(spans.shutdown().isSuccess());
        assertTrue(spans.shutdown().isSuccess(), "idempotent");
        assertFalse(target.provider().isClosed(), "the log exporter still holds it");
        assertFalse(spans.export(List.of()).isSuccess(), "no exports after shutdown");
        logs.shutdown();
        assertTrue(target.provider().isClosed());
    }

    @Test
    void configurationErrorsNameTheProperty() {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> EtwExporterConfig.target(
                DefaultConfigProperties.createFromMap(Map.of(EtwExporterConfig.KEYWORD, "0xZZ"))));
        assertTrue(e.getMessage().contains("otel.exporter.etw.keyword"), e.getMessage());
        e = assertThrows(ConfigurationException.class, () -> EtwExporterConfig.target(
                DefaultConfigProperties.createFromMap(Map.of(EtwExporterConfig.SPAN_LEVEL, "loud"))));
        assertTrue(e.getMessage().contains("otel.exporter.etw.span.level"), e.getMessage());
        try (EtwTarget t = EtwExporterConfig.target(DefaultConfigProperties.createFromMap(Map.of(
                EtwExporterConfig.SPAN_LEVEL, "5", EtwExporterConfig.KEYWORD, "18446744073709551615")))) {
            assertEquals(5, t.spanLevel());
            assertEquals(-1L, t.keyword(), "unsigned 64-bit");
            assertEquals(OtelEtwSchema.DEFAULT_PROVIDER_NAME, t.provider().name());
        }
    }
}
