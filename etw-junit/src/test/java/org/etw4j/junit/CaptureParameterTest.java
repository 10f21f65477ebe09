package org.etw4j.junit;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.etw4j.Level;
import org.etw4j.provider.EtwProvider;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code @EtwCapture} parameters: several sessions with their own settings in one test. */
@ExtendWith(EtwExtension.class)
class CaptureParameterTest {
    static final String PROVIDER = "Etw4j-JUnit-Capture-Parameters";
    static final TraceLoggingEvent INFO = TraceLoggingEvent.builder("Info").level(Level.INFORMATIONAL).build();
    static final TraceLoggingEvent WARN = TraceLoggingEvent.builder("Warn").level(Level.WARNING).build();

    @Test
    void aWarningSessionGetsNoInfoWhileAVerboseOneGetsBoth(
            @EtwCapture(providers = PROVIDER, level = Level.WARNING) CapturedEvents warnings,
            @EtwCapture(providers = PROVIDER) CapturedEvents all) {
        try (EtwProvider p = EtwProvider.register(PROVIDER)) {
            p.event(INFO).write();
            p.event(WARN).write();
        }
        assertNotEquals(warnings.sessionName(), all.sessionName());
        warnings.assertThat().containsExactlyInOrder("Warn").hasNoEventMoreVerboseThan(Level.WARNING);
        all.assertThat().containsExactlyInOrder("Info", "Warn");
    }

    @Test
    @EtwTest(providers = PROVIDER, level = Level.WARNING)
    void aParameterCaptureSitsBesideTheTestCapture(CapturedEvents test, @EtwCapture(providers = PROVIDER) CapturedEvents verbose) {
        try (EtwProvider p = EtwProvider.register(PROVIDER)) {
            p.event(INFO).write();
            p.event(WARN).write();
        }
        test.assertThat().containsExactlyInOrder("Warn");
        verbose.assertThat().containsExactlyInOrder("Info", "Warn");
    }

    /** One capture per test: what {@code @BeforeEach} receives is what the test method receives. */
    @Nested
    @EtwTest(providers = PROVIDER)
    class OneCapturePerTest {
        private CapturedEvents seenBefore;

        @BeforeEach
        void writeFirst(CapturedEvents events) {
            seenBefore = events;
            try (EtwProvider p = EtwProvider.register(PROVIDER)) {
                p.event(INFO).write();
            }
        }

        @Test
        void theTestSeesTheEventsOfItsBeforeEach(CapturedEvents events) {
            assertSame(seenBefore, events);
            events.assertThat().containsExactlyInOrder("Info");
        }
    }
}
