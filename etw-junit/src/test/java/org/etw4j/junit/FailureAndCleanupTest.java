package org.etw4j.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.etw4j.Level;
import org.etw4j.provider.EtwProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.AssertionFailedError;

/**
 * Runs fixture classes that fail on purpose (through EngineTestKit) and checks what a user sees: the failure
 * messages (what was expected, the captured events, bounded) and that every session is stopped and every provider
 * disabled afterwards, whatever way the test ended.
 */
class FailureAndCleanupTest {
    static final String PROVIDER = "Etw4j-JUnit-Fixture-Failures";

    /** Not run by Surefire (a nested class); run by the tests below. */
    @EtwTest(providers = PROVIDER)
    static class FailingFixture {
        @BeforeEach
        void remember(CapturedEvents events, TestInfo info) {
            Fixtures.SESSIONS.put(info.getTestMethod().orElseThrow().getName(), events.sessionName());
        }

        @Test
        void wrongFieldValue(CapturedEvents events) {
            Fixtures.ticks(PROVIDER, 30, "x");
            events.assertThat().hasEvent("Tick").withField("label", "x").withField("n", 99);
        }

        @Test
        void missingEvent(CapturedEvents events) {
            Fixtures.ticks(PROVIDER, 2, "y");
            events.assertThat().hasEvent("Tock");
        }

        @Test
        void unsignedAndMultiLineValues(CapturedEvents events) {
            try (EtwProvider p = EtwProvider.register(PROVIDER)) {
                p.event(Fixtures.SIZE).uint64(-1L).int64(-1L).string("line 1\nline 2").write();
            }
            events.assertThat().hasEvent("Tock");
        }

        @Test
        void wrongCount(CapturedEvents events) {
            Fixtures.ticks(PROVIDER, 3, "z");
            events.assertThat().hasCount("Tick", 4);
        }

        @Test
        void tooSevere(CapturedEvents events) {
            Fixtures.ticks(PROVIDER, 1, "w");
            events.assertThat().hasNoEventMoreSevereThan(Level.WARNING).hasNoEventMoreSevereThan(Level.VERBOSE);
        }

        @Test
        void awaitTimesOut(CapturedEvents events) {
            Fixtures.ticks(PROVIDER, 1, "v");
            events.awaitEvent("Never", Duration.ofMillis(200));
        }

        @Test
        void throwsItsOwnException(CapturedEvents events) {
            throw new IllegalStateException("boom");
        }

        @Test
        void aborted(CapturedEvents events) {
            Assumptions.abort("not today");
        }
    }

    /** A CapturedEvents parameter without @EtwTest or @EtwCapture. */
    @ExtendWith(EtwExtension.class)
    static class UnconfiguredFixture {
        @Test
        void noProviders(CapturedEvents events) {
        }
    }

    /** A manifest that is not there. */
    @EtwTest(providers = PROVIDER, manifests = "classpath:org/etw4j/junit/no-such.man")
    static class MissingManifestFixture {
        @Test
        void neverRuns(CapturedEvents events) {
        }
    }

    /** Records its session; run with JUnit's closing of AutoCloseable store values switched off. */
    @EtwTest(providers = PROVIDER)
    static class LegacyCloseFixture {
        @Test
        void passes(CapturedEvents events) {
            Fixtures.SESSIONS.put("legacy-passes", events.sessionName());
            Fixtures.ticks(PROVIDER, 1, "legacy");
            events.assertThat().hasSize(1);
        }
    }

    private static EngineExecutionResults results;

    private static synchronized EngineExecutionResults failingRun() {
        if (results == null) {
            results = Fixtures.run(FailingFixture.class);
        }
        return results;
    }

    private static Throwable failureOf(String method) {
        Event finished = failingRun().testEvents().finished().list().stream()
                .filter(e -> e.getTestDescriptor().getDisplayName().startsWith(method + "("))
                .findFirst().orElseThrow(() -> new AssertionError("no finished event for " + method));
        return Fixtures.thrown(finished);
    }

    @Test
    void everyFixtureTestEndedAsExpected() {
        failingRun().testEvents().assertStatistics(s -> s.started(8).failed(7).aborted(1).succeeded(0));
    }

    @Test
    void aMissingFieldValueNamesTheValuesThereWereAndListsTheFirst25Events() {
        Throwable t = failureOf("wrongFieldValue");
        assertInstanceOf(AssertionFailedError.class, t);
        String m = t.getMessage();
        assertTrue(m.startsWith("expected an event named \"Tick\" with label=\"x\" with n=99 (Integer); none of the 30 events named \"Tick\""
                + " with label=\"x\" has it; they have n [0 (Integer), 1 (Integer), "), m);
        assertTrue(m.contains("24 (Integer), ... 5 more]"), "the distinct values are bounded: " + m);
        String session = Fixtures.SESSIONS.get("wrongFieldValue");
        assertTrue(m.contains("\nCaptured 30 events (session " + session + ", providers [" + PROVIDER + "] at level 5,"
                + " MatchAnyKeyword 0xffffffffffffffff, MatchAllKeyword 0x0), the first 25:\n  #1 " + PROVIDER
                + "/Tick id=0 level=4 opcode=0 keyword=0x1 n=0; label=x;\n  #2 "), m);
        assertTrue(m.contains("\n  #25 " + PROVIDER + "/Tick id=0 level=4 opcode=0 keyword=0x1 n=24; label=x;\n  ... and 5 more"), m);
        assertFalse(m.contains("#26"), "at most 25 listed");
    }

    @Test
    void aMissingEventNamesTheEventsThereWere() {
        String m = failureOf("missingEvent").getMessage();
        assertTrue(m.startsWith("expected an event named \"Tock\", but none was captured; names captured: {Tick=2}\nCaptured 2 events (session "), m);
        assertTrue(m.endsWith(":\n  #1 " + PROVIDER + "/Tick id=0 level=4 opcode=0 keyword=0x1 n=0; label=y;\n  #2 "
                + PROVIDER + "/Tick id=0 level=4 opcode=0 keyword=0x1 n=1; label=y;"), m);
    }

    /**
     * The listing shows values by the formatter's text rule, as etw dump and EventRecord.toString() do: a UINT64 of
     * all ones is 18446744073709551615 (the listing's own rule printed Java's signed -1), an INT64 stays -1, a line
     * break in a string is \n.
     */
    @Test
    void theListingShowsValuesAsEtwDumpDoes() {
        String m = failureOf("unsignedAndMultiLineValues").getMessage();
        assertTrue(m.endsWith(":\n  #1 " + PROVIDER + "/Size id=0 level=4 opcode=0 keyword=0x1"
                + " bytes=18446744073709551615; delta=-1; note=line 1\\nline 2;"), m);
    }

    @Test
    void countsAndLevelsSayWhatWasSeen() {
        assertTrue(failureOf("wrongCount").getMessage().startsWith("expected 4 events named \"Tick\", got 3; names captured: {Tick=3}\n"));
        assertTrue(failureOf("tooSevere").getMessage().startsWith("expected no event more severe than VERBOSE (level 5), but: "
                + PROVIDER + "/Tick id=0 level=4 "), failureOf("tooSevere").getMessage());
    }

    @Test
    void aTimedOutWaitSaysWhatItWaitedFor() {
        String m = failureOf("awaitTimesOut").getMessage();
        assertTrue(m.startsWith("expected at least 1 events named \"Never\" within PT0.2S, got 0\nCaptured 1 event (session "), m);
    }

    @Test
    void theTestsOwnExceptionIsReportedUntouched() {
        Throwable t = failureOf("throwsItsOwnException");
        assertInstanceOf(IllegalStateException.class, t);
        assertEquals("boom", t.getMessage());
        assertEquals(0, t.getSuppressed().length, "closing the capture added nothing to the test's failure");
    }

    @Test
    void everySessionIsStoppedWhateverWayTheTestEnded() {
        failingRun();
        List<String> names = List.of("wrongFieldValue", "missingEvent", "wrongCount", "tooSevere", "awaitTimesOut",
                "throwsItsOwnException", "aborted");
        List<String> running = Fixtures.runningSessions();
        for (String method : names) {
            String session = Fixtures.SESSIONS.get(method);
            assertNotNull(session, method + " ran with a session");
            assertTrue(session.startsWith(EtwExtension.SESSION_PREFIX + method + "-"), session);
            assertFalse(running.contains(session), session + " was stopped; running: " + running);
        }
        assertEquals(names.size(), Fixtures.SESSIONS.entrySet().stream().filter(e -> names.contains(e.getKey()))
                .map(Map.Entry::getValue).distinct().count(), "one session per test");
        try (EtwProvider p = EtwProvider.register(PROVIDER)) {
            assertFalse(p.isEnabled(), "no session enables the fixture's provider any more");
        }
    }

    @Test
    void sessionsAreStoppedAlsoWhereJUnitClosesOnlyCloseableResources() {
        EngineExecutionResults r = Fixtures.run(LegacyCloseFixture.class,
                Map.of("junit.jupiter.extensions.store.close.autocloseable.enabled", "false"));
        r.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
        String session = Fixtures.SESSIONS.get("legacy-passes");
        assertNotNull(session);
        assertFalse(Fixtures.runningSessions().contains(session), session + " was stopped");
    }

    @Test
    void aMissingManifestFailsTheTestNamingItAndLeavesNoSession() {
        EngineExecutionResults r = Fixtures.run(MissingManifestFixture.class);
        r.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Throwable t = Fixtures.thrown(r.testEvents().finished().list().get(0));
        assertEquals("cannot register the manifest classpath:org/etw4j/junit/no-such.man named by @EtwTest/@EtwCapture: "
                + "no resource org/etw4j/junit/no-such.man on the class path", t.getMessage());
        assertTrue(Fixtures.runningSessions().stream().noneMatch(n -> n.startsWith(EtwExtension.SESSION_PREFIX + "neverRuns-")),
                "the session started before the manifest failed was stopped: " + Fixtures.runningSessions());
    }

    @Test
    void aParameterWithoutProvidersIsAClearConfigurationError() {
        EngineExecutionResults r = Fixtures.run(UnconfiguredFixture.class);
        r.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Throwable t = Fixtures.thrown(r.testEvents().finished().list().get(0));
        assertInstanceOf(ParameterResolutionException.class, t);
        assertTrue(t.getMessage().startsWith("a CapturedEvents parameter needs @EtwTest(providers = ...) on the test method or class, "
                + "or @EtwCapture(providers = ...) on the parameter"), t.getMessage());
    }
}
