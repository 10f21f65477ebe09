package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.etw4j.Level;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.provider.EtwProvider;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Java 17 service: etw-api works; etw-consumer (Java 22) and etw-native-bindings (Java 23) on the class path do
 * not break it, and the one thing that needs them here, writing an .etl file, says which Java it needs.
 */
class Java17ServiceTest {
    @Test
    void runsOnJava17() {
        assertEquals(17, Runtime.version().feature());
    }

    @Test
    void aProviderWritesWithTheJava22ArtifactsOnTheClassPath() {
        TraceLoggingEvent ready = TraceLoggingEvent.builder("Ready").level(Level.INFORMATIONAL).int32Field("port").build();
        try (TraceSession session = TraceSession.start(SessionConfig.realTime("java17-user").build());
             EtwProvider provider = EtwProvider.register("Example-Java17Service")) {
            // Enable callbacks run on a notification thread, as on Windows (issue 21, item 8): a service that
            // asserts "enabled" right after enabling asks EnableTraceEx2 to wait for the callbacks.
            session.enable("Example-Java17Service",
                    EnableParameters.of(Level.VERBOSE).withCallbackWait(Duration.ofSeconds(10)));
            assertTrue(provider.isEnabled(ready.descriptor()));
            assertEquals(0, provider.event(ready).int32(8080).write());
        }
    }

    @Test
    void aFileSessionSaysWhichJavaTheEtlWriterNeeds(@TempDir Path dir) {
        Throwable t = assertThrows(Throwable.class,
                () -> TraceSession.start(SessionConfig.file("java17-file", dir.resolve("trace.etl")).build()).close());
        StringBuilder chain = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            assertTrue(!(c instanceof UnsupportedClassVersionError), "a bare UnsupportedClassVersionError: " + c);
            chain.append(c).append('\n');
        }
        assertTrue(chain.toString().contains("needs Java 22 or newer"), chain.toString());
    }
}
