package org.etw4j.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.testing.logs.TestLogRecordData;
import io.opentelemetry.sdk.logs.export.SimpleLogRecordProcessor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.etw4j.sim.SimulatedBackend;
import org.junit.jupiter.api.Test;

/** Log records to ETW "Log" events on the simulated backend: fields, severity to level, span correlation. */
class EtwLogRecordExporterTest {
    static final String PROVIDER = "Etw4j-Otel-Log-Test";

    @Test
    void severityToLevel() {
        assertEquals(Level.INFORMATIONAL, EtwLogRecordExporter.levelOf(Severity.UNDEFINED_SEVERITY_NUMBER));
        for (Severity s : Severity.values()) {
            int n = s.getSeverityNumber();
            Level expected = n == 0 ? Level.INFORMATIONAL : n <= 8 ? Level.VERBOSE : n <= 12 ? Level.INFORMATIONAL
                    : n <= 16 ? Level.WARNING : n <= 20 ? Level.ERROR : Level.CRITICAL;
            assertEquals(expected, EtwLogRecordExporter.levelOf(s), s.name());
        }
        assertEquals(Level.VERBOSE, EtwLogRecordExporter.levelOf(Severity.TRACE));
        assertEquals(Level.VERBOSE, EtwLogRecordExporter.levelOf(Severity.DEBUG4));
        assertEquals(Level.INFORMATIONAL, EtwLogRecordExporter.levelOf(Severity.INFO));
        assertEquals(Level.WARNING, EtwLogRecordExporter.levelOf(Severity.WARN2));
        assertEquals(Level.ERROR, EtwLogRecordExporter.levelOf(Severity.ERROR));
        assertEquals(Level.CRITICAL, EtwLogRecordExporter.levelOf(Severity.FATAL4));
    }

    /** opentelemetry-cpp's logs::SeverityNumToText, index = severity number (the ETW exporter writes it). */
    static final List<String> CPP_SEVERITY_TEXT = List.of("INVALID", "TRACE", "TRACE2", "TRACE3", "TRACE4", "DEBUG",
            "DEBUG2", "DEBUG3", "DEBUG4", "INFO", "INFO2", "INFO3", "INFO4", "WARN", "WARN2", "WARN3", "WARN4", "ERROR",
            "ERROR2", "ERROR3", "ERROR4", "FATAL", "FATAL2", "FATAL3", "FATAL4");

    @Test
    void severityTextWithoutOneIsOpentelemetryCppsText() {
        for (Severity s : Severity.values()) {
            LogRecordData record = TestLogRecordData.builder().setSeverity(s).build();
            assertEquals(CPP_SEVERITY_TEXT.get(s.getSeverityNumber()), EtwLogRecordExporter.severityText(record));
        }
    }

    @Test
    void logRecordsFieldByFieldAndFilteredByLevel() throws Exception {
        SimulatedBackend backend = new SimulatedBackend();
        try (EtwRig rig = new EtwRig(backend, PROVIDER, Level.WARNING)) {
            EtwTarget target = EtwTarget.builder().providerName(PROVIDER).backend(backend).build();
            SdkLoggerProvider loggers = SdkLoggerProvider.builder()
                    .addLogRecordProcessor(SimpleLogRecordProcessor.create(EtwLogRecordExporter.create(target))).build();
            Logger logger = loggers.get("etw4j.test.logger");
            Context inSpan = Context.root().with(Span.wrap(SpanContext.create(EtwSpanExporterTest.TRACE,
                    EtwSpanExporterTest.CHILD, TraceFlags.getSampled(), TraceState.getDefault())));
            logger.logRecordBuilder().setSeverity(Severity.INFO).setBody("filtered out: below WARNING")
                    .setTimestamp(EtwSpanExporterTest.T0).emit();
            logger.logRecordBuilder().setSeverity(Severity.WARN).setSeverityText("Warning").setBody("disk low")
                    .setAttribute(AttributeKey.longKey("free.mb"), 12L).setContext(inSpan)
                    .setTimestamp(EtwSpanExporterTest.T0).emit();
            logger.logRecordBuilder().setSeverity(Severity.FATAL).setBody("gone").setEventName("app.crash")
                    .setTimestamp(EtwSpanExporterTest.T0.plusNanos(1)).emit();
            assertTrue(loggers.shutdown().join(10, TimeUnit.SECONDS).isSuccess());
            assertTrue(target.provider().isClosed());
            List<EventRecord> events = rig.stopAndCollect();
            assertEquals(List.of("Log", "Log"), EtwSpanExporterTest.names(events));

            EventRecord warn = events.get(0);
            Map<String, Object> expected = new LinkedHashMap<>();
            expected.put("Name", "etw4j.test.logger");
            expected.put("TraceId", EtwSpanExporterTest.TRACE);
            expected.put("SpanId", EtwSpanExporterTest.CHILD);
            expected.put("Timestamp", "2021-04-01T07:33:25.587123456Z");
            expected.put("severityText", "Warning");
            expected.put("severityNumber", 13L);
            expected.put("body", "disk low");
            expected.put("free.mb", 12L);
            EtwRig.assertFields(expected, warn);
            assertEquals(Level.WARNING.value(), warn.level());
            assertEquals(Guid.parse("56f2366b-5475-496f-0000-000000000000"), warn.activityId(), "the span's activity");

            EventRecord fatal = events.get(1);
            expected = new LinkedHashMap<>();
            expected.put("Name", "app.crash");
            expected.put("Timestamp", "2021-04-01T07:33:25.587123457Z");
            expected.put("severityText", "FATAL");
            expected.put("severityNumber", 21L);
            expected.put("body", "gone");
            EtwRig.assertFields(expected, fatal);
            assertEquals(Level.CRITICAL.value(), fatal.level());
        }
    }
}
