package org.etw4j.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.EventStream;
import org.etw4j.tracelogging.ProviderIds;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged agent jar in a forked JVM ({@code -javaagent:target/etw-jfr-*-agent.jar}) on the simulated
 * backend: {@link ForkedWorkload} records a file session; the .etl is read back here with etw-consumer.
 * Runs in the {@code integration-test} phase, after {@code package} built the jar. The forked class path holds
 * the test classes and etw-consumer only: etw-api and the bridge come from the agent jar itself.
 */
class JfrAgentIT {

    private static final int ROUNDS = 5;

    @Test
    void forkedJvmWithTheAgentRecordsGcAndThreadEventsIntoAnEtlFile(@TempDir Path dir) throws Exception {
        String jar = System.getProperty("etw4j.test.jfrAgentJar");
        // -Dtest=JfrAgentIT also selects it in the `test` phase, before the jar exists: it runs in integration-test
        Assumptions.assumeTrue(jar != null, "runs in the agent-it execution (integration-test phase) only");
        Path agent = Path.of(jar);
        assertTrue(Files.isRegularFile(agent), "agent jar missing (run `verify`, not `test`): " + agent);
        Path etl = dir.resolve("jfr.etl");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = List.of(java, "-javaagent:" + agent + "=threshold.jdk.GCPhasePause=0",
                "-cp", forkedClassPath(), ForkedWorkload.class.getName(), etl.toString(), String.valueOf(ROUNDS));
        Path log = dir.resolve("fork.log");
        Instant before = Instant.now();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "forked JVM hung");
        Instant after = Instant.now();
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        assertFalse(out.contains("etw-jfr: not started"), out);

        List<EventRecord> events = new ArrayList<>();
        try (EventStream in = EventStream.openFiles(etl)) {
            in.onEvent(ProviderIds.fromName("Java-Runtime"), e -> events.add(e.copy()));
            in.start();
        }
        List<EventRecord> gcs = named(events, "jdk.GarbageCollection");
        List<EventRecord> starts = named(events, "jdk.ThreadStart");
        List<EventRecord> ends = named(events, "jdk.ThreadEnd");
        assertTrue(gcs.size() >= ROUNDS, "GCs: " + gcs.size() + "\n" + out);
        assertFalse(named(events, "jdk.GCPhasePause").isEmpty(), "GCPhasePause");

        for (EventRecord gc : gcs) {
            assertEquals(Category.GC.keyword(), gc.keyword());
            assertEquals(Category.GC.level().value(), gc.level());
            assertPlausible(gc, before, after);
            assertTrue(gc.getLong("gcId") >= 0);
            assertFalse(gc.getString("name").isEmpty(), gc.toString());
            assertFalse(gc.getString("cause").isEmpty(), gc.toString());
            long pauses = gc.getLong("sumOfPausesNs");
            assertTrue(pauses >= 0 && pauses <= gc.getLong("durationNs"), gc.toString());
            assertTrue(gc.getLong("longestPauseNs") <= pauses, gc.toString());
        }
        assertTrue(gcs.stream().anyMatch(g -> g.getString("cause").equals("System.gc()")), "a System.gc() collection");

        for (int i = 0; i < ROUNDS; i++) {
            String name = "etw-jfr-it-worker-" + i;
            EventRecord start = only(starts, "threadName", name);
            EventRecord end = only(ends, "threadName", name);
            assertPlausible(start, before, after);
            assertPlausible(end, before, after);
            assertEquals(Category.THREADS.keyword(), start.keyword());
            long id = start.getLong("threadId");
            assertTrue(id > 0);
            assertEquals(id, end.getLong("threadId"));
            assertTrue(start.getLong("threadOsId") > 0, start.toString());
            assertEquals("main", start.getString("parentThreadName"));
            assertFalse(end.getInstant("startTime").isBefore(start.getInstant("startTime")));
        }
    }

    /** JFR's start time and ETW's write time lie within the forked JVM's life; the write follows the start. */
    private static void assertPlausible(EventRecord e, Instant before, Instant after) {
        Instant jfr = e.getInstant("startTime");
        Instant etw = e.timestamp();
        assertFalse(jfr.isBefore(before), e.eventName() + " startTime " + jfr + " before the fork " + before);
        assertFalse(etw.isAfter(after), e.eventName() + " written " + etw + " after the fork ended " + after);
        // FILETIME keeps 100 ns; ETW stamps at write time, which is after JFR's start (1 us margin for rounding)
        assertFalse(etw.isBefore(jfr.minusNanos(1000)), e.eventName() + " written " + etw + " before its start " + jfr);
    }

    private static List<EventRecord> named(List<EventRecord> events, String name) {
        return events.stream().filter(e -> e.eventName().equals(name)).collect(Collectors.toList());
    }

    private static EventRecord only(List<EventRecord> events, String field, String value) {
        List<EventRecord> m = events.stream().filter(e -> value.equals(e.getString(field))).collect(Collectors.toList());
        assertEquals(1, m.size(), field + "=" + value + " in " + events.size() + " events");
        return m.get(0);
    }

    /** The test class path without etw-api and this module's own classes: those must come from the agent jar. */
    private static String forkedClassPath() {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String own = Path.of(System.getProperty("etw4j.test.jfrClasses", "target/classes")).toAbsolutePath().normalize().toString();
        List<String> keep = new ArrayList<>();
        for (String entry : cp.split(File.pathSeparator)) {
            String abs = Path.of(entry).toAbsolutePath().normalize().toString();
            boolean etwApi = abs.contains("etw-api");
            if (!etwApi && !abs.equals(own)) {
                keep.add(entry);
            }
        }
        return String.join(File.pathSeparator, keep);
    }
}
