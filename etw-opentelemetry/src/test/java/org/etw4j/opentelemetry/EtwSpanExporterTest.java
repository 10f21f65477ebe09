package org.etw4j.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.Clock;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.Opcode;
import org.etw4j.consumer.EventRecord;
import org.etw4j.sim.SimulatedBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An OpenTelemetry SDK whose spans go to ETW on the simulated backend, read back with a live EventStream and
 * checked field by field against opentelemetry-cpp's ETW schema (OtelEtwSchema's sources).
 */
class EtwSpanExporterTest {
    /** Trace, parent span and child span ids of the sample "Span" event in opentelemetry-cpp's etw_fields.h. */
    static final String TRACE = "8f8ac710c37c5a419f0fe574f335e986";
    static final String PARENT = "8ad900d0587fad4a";
    static final String CHILD = "6b36f25675546f49";
    static final String LINKED1 = "00f067aa0ba902b7";
    static final String LINKED2 = "b7ad6b7169203331";
    static final Instant T0 = Instant.parse("2021-04-01T07:33:25.587123456Z");
    static final long T0_NANOS = T0.getEpochSecond() * 1_000_000_000L + T0.getNano();
    static final String PROVIDER = "Etw4j-Otel-Test";

    /** A clock stuck at T0 + 9 ms: recordException() takes its time from the clock. */
    static final Clock CLOCK = new Clock() {
        @Override
        public long now() {
            return T0_NANOS + 9_000_000L;
        }

        @Override
        public long nanoTime() {
            return now();
        }
    };

    @Test
    void activityIdIsTheSpanIdBytesThenZerosAsInOpentelemetryCppsSample() {
        SpanContext ctx = SpanContext.create(TRACE, CHILD, TraceFlags.getSampled(), TraceState.getDefault());
        // etw_fields.h@1209bcc: SpanId 6b36f25675546f49 shown with ActivityID 56f2366b-5475-496f-0000-000000000000
        assertEquals(Guid.parse("56f2366b-5475-496f-0000-000000000000"), EtwIds.activityId(ctx));
        assertNull(EtwIds.activityId(SpanContext.getInvalid()));
    }

    @Test
    void timestampsAsIso8601Utc() {
        assertEquals("2021-04-01T07:33:25.587Z", EtwIds.isoMillis(T0_NANOS));
        assertEquals("2021-04-01T07:33:25.587123456Z", EtwIds.isoNanos(T0_NANOS));
        assertEquals("1969-12-31T23:59:59.999Z", EtwIds.isoMillis(-1), "floor, not toward zero");
    }

    /** The exporter under the SDK's two processors: the same events, field for field. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void exporterSpansFieldByField(boolean batch) throws Exception {
        SimulatedBackend backend = new SimulatedBackend();
        try (EtwRig rig = new EtwRig(backend, PROVIDER, Level.VERBOSE)) {
            EtwTarget target = EtwTarget.builder().providerName(PROVIDER).backend(backend).build();
            EtwSpanExporter exporter = EtwSpanExporter.create(target);
            runTwoSpans(batch ? BatchSpanProcessor.builder(exporter).setScheduleDelay(Duration.ofMillis(5)).build()
                    : SimpleSpanProcessor.create(exporter));
            assertTrue(target.provider().isClosed(), "the exporter's shutdown released the target it held");
            List<EventRecord> events = rig.stopAndCollect();
            assertEquals(List.of("exception", "Span", "checkpoint", "Span"), names(events));
            assertSpanEvents(events.get(0), events.get(1), events.get(2), events.get(3));
        }
    }

    @Test
    void spanProcessorWritesActivityStartAndStop() throws Exception {
        SimulatedBackend backend = new SimulatedBackend();
        try (EtwRig rig = new EtwRig(backend, PROVIDER, Level.VERBOSE)) {
            EtwTarget target = EtwTarget.builder().providerName(PROVIDER).backend(backend).build();
            runTwoSpans(EtwSpanProcessor.create(target));
            List<EventRecord> events = rig.stopAndCollect();
            assertEquals(List.of("A.request", "B.max", "exception", "B.max", "Span", "checkpoint", "A.request", "Span"),
                    names(events));
            Guid parentActivity = Guid.parse("d000d98a-7f58-4aad-0000-000000000000");
            Guid childActivity = Guid.parse("56f2366b-5475-496f-0000-000000000000");

            EventRecord startA = events.get(0);
            assertEquals(Opcode.START.value(), startA.opcode());
            assertEquals(parentActivity, startA.activityId());
            assertEquals(Guid.NULL, startA.relatedActivityId(), "a root span has no related activity");
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("TraceId", TRACE);
            a.put("SpanId", PARENT);
            a.put("Kind", 1L);
            a.put("a.string", "at start");
            EtwRig.assertFields(a, startA);

            EventRecord startB = events.get(1);
            assertEquals(Opcode.START.value(), startB.opcode());
            assertEquals(childActivity, startB.activityId());
            assertEquals(parentActivity, startB.relatedActivityId(), "the parent span's activity");
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("TraceId", TRACE);
            b.put("SpanId", CHILD);
            b.put("ParentId", PARENT);
            b.put("Kind", 2L);
            b.put("Links", LINKED1 + "," + LINKED2);
            b.put("peer", "db");
            EtwRig.assertFields(b, startB);

            EventRecord stopB = events.get(3);
            assertEquals(Opcode.STOP.value(), stopB.opcode());
            assertEquals(childActivity, stopB.activityId());
            EtwRig.assertFields(ids(CHILD), stopB);
            EventRecord stopA = events.get(6);
            assertEquals(Opcode.STOP.value(), stopA.opcode());
            assertEquals(parentActivity, stopA.activityId());
            EtwRig.assertFields(ids(PARENT), stopA);

            assertSpanEvents(events.get(2), events.get(4), events.get(5), events.get(7));
            for (EventRecord e : events) {
                assertEquals(Level.INFORMATIONAL.value(), e.level(), e.eventName());
                assertEquals(0L, e.keyword());
                assertEquals(PROVIDER, e.providerName());
            }
        }
    }

    @Test
    void nothingIsBuiltWhenNoSessionListens() {
        SimulatedBackend backend = new SimulatedBackend();
        EtwTarget target = EtwTarget.builder().providerName(PROVIDER).backend(backend).build();
        runTwoSpans(EtwSpanProcessor.create(target));
        assertEquals(0, target.shapeCount(), "no TraceLogging metadata built");
        assertEquals(0, target.provider().statistics().writes());
    }

    /** A parent span with every attribute type and an event, and an erroneous child with links and an exception. */
    static void runTwoSpans(SpanProcessor processor) {
        SdkTracerProvider tracerProvider = SdkTracerProvider.builder().addSpanProcessor(processor).setClock(CLOCK)
                .setIdGenerator(new FixedIds(TRACE, List.of(PARENT, CHILD))).build();
        Tracer tracer = tracerProvider.get("etw4j-test");
        Span parent = tracer.spanBuilder("A.request").setSpanKind(SpanKind.SERVER).setStartTimestamp(T0)
                .setAttribute("a.string", "at start").startSpan();
        parent.setAttribute("a.string", "héllo ✓");
        parent.setAttribute("a.bool", true);
        parent.setAttribute("a.long", -42L);
        parent.setAttribute("a.double", 1.5);
        parent.setAttribute(AttributeKey.stringArrayKey("a.string_array"), List.of("x", "", "ü"));
        parent.setAttribute(AttributeKey.booleanArrayKey("a.bool_array"), List.of(true, false));
        parent.setAttribute(AttributeKey.longArrayKey("a.long_array"), List.of(1L, Long.MAX_VALUE, Long.MIN_VALUE));
        parent.setAttribute(AttributeKey.doubleArrayKey("a.double_array"), List.of(0.25, -2.0));
        parent.setAttribute("TraceId", "spoofed"); // a standard field's name: left out
        parent.addEvent("checkpoint", Attributes.of(AttributeKey.longKey("step"), 3L), T0.plusMillis(2));
        Span child = tracer.spanBuilder("B.max").setParent(Context.current().with(parent)).setSpanKind(SpanKind.CLIENT)
                .addLink(SpanContext.create(TRACE, LINKED1, TraceFlags.getSampled(), TraceState.getDefault()))
                .addLink(SpanContext.create("0af7651916cd43dd8448eb211c80319c", LINKED2, TraceFlags.getSampled(),
                        TraceState.getDefault()))
                .setAttribute("peer", "db").setStartTimestamp(T0.plusMillis(5)).startSpan();
        child.recordException(new IllegalStateException("boom"));
        child.setStatus(StatusCode.ERROR, "max failed");
        child.end(T0.plusMillis(17));
        parent.end(T0.plusMillis(30));
        assertTrue(tracerProvider.forceFlush().join(10, TimeUnit.SECONDS).isSuccess());
        assertTrue(tracerProvider.shutdown().join(10, TimeUnit.SECONDS).isSuccess());
    }

    /** The four events every path writes, with their exact fields. */
    static void assertSpanEvents(EventRecord exception, EventRecord spanB, EventRecord checkpoint, EventRecord spanA) {
        Guid parentActivity = Guid.parse("d000d98a-7f58-4aad-0000-000000000000");
        Guid childActivity = Guid.parse("56f2366b-5475-496f-0000-000000000000");

        Map<String, Object> ex = EtwRig.fields(exception);
        String stack = (String) ex.remove("exception.stacktrace");
        assertTrue(stack.startsWith("java.lang.IllegalStateException: boom\n\tat "), stack);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("TraceId", TRACE);
        expected.put("SpanId", CHILD);
        expected.put("Timestamp", "2021-04-01T07:33:25.596123456Z");
        expected.put("exception.message", "boom");
        expected.put("exception.type", "java.lang.IllegalStateException");
        assertEquals(expected, ex);
        assertEquals(childActivity, exception.activityId());
        assertEquals(Opcode.INFO.value(), exception.opcode());

        expected = new LinkedHashMap<>();
        expected.put("Name", "B.max");
        expected.put("TraceId", TRACE);
        expected.put("SpanId", CHILD);
        expected.put("ParentId", PARENT);
        expected.put("Kind", 2L);
        expected.put("Links", LINKED1 + "," + LINKED2);
        expected.put("StartTime", "2021-04-01T07:33:25.592Z");
        expected.put("Duration", 12L);
        expected.put("Success", "False");
        expected.put("StatusCode", 2L);
        expected.put("StatusMessage", "max failed");
        expected.put("peer", "db");
        EtwRig.assertFields(expected, spanB);
        assertEquals(childActivity, spanB.activityId());
        assertEquals(parentActivity, spanB.relatedActivityId());
        assertEquals(Opcode.INFO.value(), spanB.opcode());

        expected = new LinkedHashMap<>();
        expected.put("TraceId", TRACE);
        expected.put("SpanId", PARENT);
        expected.put("Timestamp", "2021-04-01T07:33:25.589123456Z");
        expected.put("step", 3L);
        EtwRig.assertFields(expected, checkpoint);
        assertEquals(parentActivity, checkpoint.activityId());

        expected = new LinkedHashMap<>();
        expected.put("Name", "A.request");
        expected.put("TraceId", TRACE);
        expected.put("SpanId", PARENT);
        expected.put("Kind", 1L);
        expected.put("StartTime", "2021-04-01T07:33:25.587Z");
        expected.put("Duration", 30L);
        expected.put("Success", "True");
        expected.put("StatusCode", 0L);
        expected.put("StatusMessage", "");
        // attributes in the SDK's order: the one set at start first, then as set
        expected.put("a.string", "héllo ✓");
        expected.put("a.bool", true);
        expected.put("a.long", -42L);
        expected.put("a.double", 1.5);
        expected.put("a.string_array", List.of("x", "", "ü"));
        expected.put("a.bool_array", List.of(true, false));
        expected.put("a.long_array", List.of(1L, Long.MAX_VALUE, Long.MIN_VALUE));
        expected.put("a.double_array", List.of(0.25, -2.0));
        EtwRig.assertFields(expected, spanA);
        assertEquals(parentActivity, spanA.activityId());
        assertEquals(Guid.NULL, spanA.relatedActivityId());
    }

    private static Map<String, Object> ids(String spanId) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("TraceId", TRACE);
        m.put("SpanId", spanId);
        return m;
    }

    static List<String> names(List<EventRecord> events) {
        List<String> out = new ArrayList<>();
        events.forEach(e -> out.add(e.eventName()));
        return out;
    }
}
