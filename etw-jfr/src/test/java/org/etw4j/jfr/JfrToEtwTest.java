package org.etw4j.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Name;
import jdk.jfr.Percentage;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;
import jdk.jfr.Timestamp;
import jdk.jfr.Unsigned;
import org.etw4j.Level;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.EventStream;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.tracelogging.ProviderIds;
import org.junit.jupiter.api.Test;

/**
 * In-process: the bridge on a private simulated backend, read back live with etw-consumer. JFR recordings are
 * process-wide, so these tests also check {@link FlightRecorder#getRecordings()} directly.
 */
class JfrToEtwTest {

    private static final String SAMPLE = "etw4j.test.Sample";

    @Name(SAMPLE)
    @Category("etw4j")
    @StackTrace(true)
    static final class SampleEvent extends Event {
        int count;
        @Unsigned
        long bytes;
        @Timespan(Timespan.NANOSECONDS)
        long wait;
        @Timestamp(Timestamp.MILLISECONDS_SINCE_EPOCH)
        long deadline;
        String label;
        Thread owner;
        Class<?> type;
        boolean flag;
        @Percentage
        double load;
        float ratio;
        short small;
        byte tiny;
        char letter;
    }

    @Test
    void noSessionNoRecordingAndTheStreamFollowsTheEnabledKeywords() throws Exception {
        SimulatedBackend backend = new SimulatedBackend();
        try (JfrToEtw bridge = JfrToEtw.start(JfrToEtwConfig.defaults(), backend)) {
            assertEquals(Set.of(), bridge.streamedEvents());
            assertTrue(FlightRecorder.getFlightRecorder().getRecordings().isEmpty(),
                    "no session enables the provider: no JFR recording may run");

            try (TraceSession gcOnly = TraceSession.start(SessionConfig.realTime("jfr-gc").build(), backend)) {
                gcOnly.enable("Java-Runtime", EnableParameters.of(Level.VERBOSE, Category_GC()));
                await(() -> bridge.streamedEvents().equals(Set.of("jdk.GarbageCollection", "jdk.GCPhasePause")),
                        "GC keyword only", bridge);
                assertEquals(1, FlightRecorder.getFlightRecorder().getRecordings().size());

                try (TraceSession threads = TraceSession.start(SessionConfig.realTime("jfr-thr").build(), backend)) {
                    threads.enable("Java-Runtime", EnableParameters.of(Level.INFORMATIONAL,
                            org.etw4j.jfr.Category.THREADS.keyword()));
                    await(() -> bridge.streamedEvents().equals(Set.of("jdk.GarbageCollection", "jdk.GCPhasePause",
                            "jdk.ThreadStart", "jdk.ThreadEnd")), "GC + threads", bridge);
                }
                await(() -> bridge.streamedEvents().equals(Set.of("jdk.GarbageCollection", "jdk.GCPhasePause")),
                        "threads session gone", bridge);
                assertEquals(1, FlightRecorder.getFlightRecorder().getRecordings().size(), "the old stream is closed");
            }
            await(() -> bridge.streamedEvents().isEmpty(), "last session stopped", bridge);
            assertTrue(FlightRecorder.getFlightRecorder().getRecordings().isEmpty());
        }
    }

    @Test
    void verboseGroupsNeedLevelFive() throws Exception {
        SimulatedBackend backend = new SimulatedBackend();
        JfrToEtwConfig config = JfrToEtwConfig.builder().enable("jdk.ClassLoad").build();
        try (JfrToEtw bridge = JfrToEtw.start(config, backend);
             TraceSession s = TraceSession.start(SessionConfig.realTime("jfr-l4").build(), backend)) {
            s.enable("Java-Runtime", EnableParameters.of(Level.INFORMATIONAL,
                    org.etw4j.jfr.Category.CLASS_LOADING.keyword() | org.etw4j.jfr.Category.CPU.keyword()));
            await(() -> bridge.streamedEvents().equals(Set.of("jdk.CPULoad")), "level 4: no ClassLoad", bridge);
        }
    }

    @Test
    void providerGuidIsTheEventSourceHashOfTheName() {
        try (JfrToEtw bridge = JfrToEtw.start(JfrToEtwConfig.defaults(), new SimulatedBackend())) {
            assertEquals(ProviderIds.fromName("Java-Runtime"), bridge.provider().id());
        }
    }

    @Test
    void everyJfrValueTypeMapsToItsTraceLoggingField() throws Exception {
        SimulatedBackend backend = new SimulatedBackend();
        JfrToEtwConfig config = JfrToEtwConfig.builder().only(SAMPLE).stackTrace(SAMPLE, true).build();
        List<EventRecord> got = new CopyOnWriteArrayList<>();
        try (JfrToEtw bridge = JfrToEtw.start(config, backend);
             TraceSession s = TraceSession.start(SessionConfig.realTime("jfr-map").build(), backend);
             EventStream in = EventStream.openSession("jfr-map", backend)) {
            in.onEvent(bridge.provider().id(), e -> got.add(e.copy()));
            in.startAsync();
            s.enable("Java-Runtime", EnableParameters.of(Level.VERBOSE, org.etw4j.jfr.Category.OTHER.keyword()));
            await(bridge::isStreaming, "stream for " + SAMPLE, bridge);
            Thread owner = new Thread(() -> { }, "owner-thread");
            Instant before = Instant.now();
            SampleEvent ev = new SampleEvent();
            ev.begin();
            ev.count = -7;
            ev.bytes = 0xFFFF_FFFF_FFFF_FFF0L;
            ev.wait = 1_234_567L;
            ev.deadline = 1_700_000_000_123L;
            ev.label = "héllo";
            ev.owner = Thread.currentThread();
            ev.type = String.class;
            ev.flag = true;
            ev.load = 0.25;
            ev.ratio = 1.5f;
            ev.small = -3;
            ev.tiny = 9;
            ev.letter = 'Z';
            ev.commit();
            Instant after = Instant.now();
            await(() -> !got.isEmpty(), "the ETW event", bridge);

            EventRecord e = got.get(0);
            assertEquals(SAMPLE, e.eventName());
            assertEquals(org.etw4j.jfr.Category.OTHER.keyword(), e.keyword());
            assertEquals(-7, e.getInt("count"));
            assertEquals(0xFFFF_FFFF_FFFF_FFF0L, e.getLong("bytes"));
            assertEquals(1_234_567L, e.getLong("waitNs"));
            assertEquals(Instant.ofEpochMilli(1_700_000_000_123L), e.getInstant("deadline"));
            assertEquals("héllo", e.getString("label"));
            assertEquals(Thread.currentThread().getName(), e.getString("ownerName"));
            assertEquals(Thread.currentThread().getId(), e.getLong("ownerId"));
            assertEquals("java.lang.String", e.getString("type"));
            assertTrue(e.getBoolean("flag"));
            assertEquals(0.25, e.getDouble("load"));
            assertEquals(1.5, e.getDouble("ratio"));
            assertEquals(-3, e.getInt("small"));
            assertEquals(9, e.getInt("tiny"));
            assertEquals('Z', e.getInt("letter"));
            // the JFR header fields: own start time (FILETIME, 100 ns), duration, thread, stack trace
            Instant start = e.getInstant("startTime");
            assertFalse(start.isBefore(before.minusMillis(1)), start + " before " + before);
            assertFalse(start.isAfter(after), start + " after " + after);
            assertTrue(e.getLong("durationNs") >= 0);
            assertEquals(Thread.currentThread().getId(), e.getLong("eventThreadId"));
            assertEquals(Thread.currentThread().getName(), e.getString("eventThreadName"));
            String stack = e.getString("stackTrace");
            assertTrue(stack.contains("org.etw4j.jfr.JfrToEtwTest.everyJfrValueTypeMapsToItsTraceLoggingField"), stack);
            assertFalse(owner.isAlive());
            assertEquals(0, bridge.writeFailures());
        }
    }

    private static long Category_GC() {
        return org.etw4j.jfr.Category.GC.keyword();
    }

    static void await(BooleanSupplier condition, String what, Object state) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + ": " + state);
            }
            Thread.sleep(20);
        }
    }
}
