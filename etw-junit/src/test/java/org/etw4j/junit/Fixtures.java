package org.etw4j.junit;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.etw4j.Level;
import org.etw4j.controller.Sessions;
import org.etw4j.provider.EtwProvider;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/** Shared by the tests that run fixture classes through the JUnit Platform's EngineTestKit. */
final class Fixtures {
    static final TraceLoggingEvent TICK = TraceLoggingEvent.builder("Tick").level(Level.INFORMATIONAL).keyword(0x1)
            .int32Field("n").stringField("label").build();
    /** An event with an unsigned and a signed 64-bit field and a string (the listing's value rule). */
    static final TraceLoggingEvent SIZE = TraceLoggingEvent.builder("Size").level(Level.INFORMATIONAL).keyword(0x1)
            .uint64Field("bytes").int64Field("delta").stringField("note").build();

    /** What fixture tests tell their runner: test method name -> session name. */
    static final Map<String, String> SESSIONS = new ConcurrentHashMap<>();

    private Fixtures() {
    }

    /** Writes {@code count} Tick events (n = 0..count-1) of a provider named {@code provider}. */
    static void ticks(String provider, int count, String label) {
        try (EtwProvider p = EtwProvider.register(provider)) {
            for (int i = 0; i < count; i++) {
                p.event(TICK).int32(i).string(label).write();
            }
        }
    }

    static EngineExecutionResults run(Class<?> fixture, Map<String, String> configuration) {
        return EngineTestKit.engine("junit-jupiter").configurationParameters(configuration)
                .selectors(org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(fixture)).execute();
    }

    static EngineExecutionResults run(Class<?> fixture) {
        return run(fixture, Map.of());
    }

    /** What a finished test event's test threw. */
    static Throwable thrown(org.junit.platform.testkit.engine.Event finished) {
        return finished.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable()
                .orElseThrow(() -> new AssertionError(finished + " threw nothing"));
    }

    /** The names of the sessions running now on the default backend. */
    static List<String> runningSessions() {
        return Sessions.list().stream().map(s -> s.name()).toList();
    }
}
