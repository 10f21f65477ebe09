package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.etw4j.EtwException;
import org.etw4j.Win32Error;
import org.etw4j.controller.ClassicEventId;
import org.etw4j.controller.KernelFlag;
import org.etw4j.controller.KernelTracing;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.sim.SimulatedBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 12 follow-up: a kernel session that samples the CPU (KernelFlag.PROFILE or a sampling interval)
 * enables SeSystemProfilePrivilege first, as MS Learn requires (TraceSetInformation / TraceSampledProfileIntervalInfo,
 * EVENT_TRACE_FLAG_PROFILE) and TraceEvent does; a token without it is the typed error naming AdjustTokenPrivileges
 * and ERROR_NOT_ALL_ASSIGNED, before any session starts. Runs against the stand-in, whose token functions
 * (etw_standin_token.c) model MS Learn's AdjustTokenPrivileges: TRUE with ERROR_NOT_ALL_ASSIGNED when the token
 * lacks the privilege. Failed before this change: nothing enabled the privilege, and no error was raised.
 */
@Tag("standin")
class ProfilePrivilegeTest {
    private SimEtwEngine engine;
    private WindowsBackend backend;
    private StandIn.Exports standIn;

    @BeforeEach
    void setUp() throws Throwable {
        engine = SimEtwEngine.install();
        engine.route(new SimulatedBackend());
        backend = WindowsBackend.create();
        standIn = StandIn.require();
        holdPrivilege(true);
    }

    @AfterEach
    void tearDown() throws Throwable {
        if (standIn == null) {
            return; // skipped: no stand-in
        }
        holdPrivilege(true);
        assertEquals(java.util.List.of(), engine.errors(), "the engine's upcalls failed");
    }

    private void holdPrivilege(boolean held) throws Throwable {
        standIn.setProfilePrivilegeHeld.invokeExact(held ? 1 : 0);
    }

    private int privilegeEnabled() throws Throwable {
        return (int) standIn.profilePrivilegeEnabled.invokeExact();
    }

    private int openTokens() throws Throwable {
        return (int) standIn.openTokens.invokeExact();
    }

    private static SessionConfig kernel(String name, KernelTracing k) {
        return SessionConfig.realTime(name).kernel(k).build();
    }

    @Test
    void cpuSamplingEnablesTheProfilePrivilegeAndClosesTheToken() throws Throwable {
        try (TraceSession s = TraceSession.start(kernel("ffm-privilege-profile", KernelTracing.of(KernelFlag.PROFILE)),
                backend)) {
            assertTrue(s.isRunning());
        }
        assertEquals(1, privilegeEnabled(), "SeSystemProfilePrivilege enabled for PROFILE");
        assertEquals(0, openTokens(), "the token handle was closed");
    }

    @Test
    void aSamplingIntervalAloneAlsoNeedsThePrivilege() throws Throwable {
        KernelTracing k = KernelTracing.of(KernelFlag.PROCESS).withSamplingInterval(java.time.Duration.ofMillis(1));
        // The stand-in's engine has no TraceSetInformation: the session fails there (ERROR_NOT_SUPPORTED), after
        // the privilege was enabled, which is what this checks.
        EtwException e = assertThrows(EtwException.class, () -> backend.startSession(kernel("ffm-privilege-iv", k)));
        assertEquals("TraceSetInformation", e.function());
        assertEquals(1, privilegeEnabled());
        assertEquals(0, openTokens());
    }

    @Test
    void aTokenWithoutThePrivilegeIsTheTypedErrorAndNoSessionStarts() throws Throwable {
        holdPrivilege(false);
        SessionConfig c = kernel("ffm-privilege-denied",
                KernelTracing.of(KernelFlag.PROFILE).withStacks(ClassicEventId.SAMPLED_PROFILE));
        EtwException e = assertThrows(EtwException.class, () -> backend.startSession(c));
        // Before StartTraceW, so before TraceSetInformation: the error is the privilege's, not TraceSetInformation's.
        assertEquals("AdjustTokenPrivileges", e.function());
        assertEquals(Win32Error.ERROR_NOT_ALL_ASSIGNED, e.error());
        assertEquals(1300, e.status());
        assertTrue(e.getMessage().contains("ERROR_NOT_ALL_ASSIGNED"), e.getMessage());
        assertTrue(e.getMessage().contains("Run elevated: SeSystemProfilePrivilege"), e.getMessage());
        assertTrue(e.getMessage().contains("session 'ffm-privilege-denied'"), e.getMessage());
        assertTrue(backend.querySessions().stream().noneMatch(i -> i.name().equals(c.name())), "no session started");
        assertEquals(0, privilegeEnabled());
        assertEquals(0, openTokens(), "the token handle was closed on failure too");
    }

    @Test
    void aKernelSessionThatDoesNotSampleLeavesTheTokenAlone() throws Throwable {
        holdPrivilege(false); // would fail if anything asked for the privilege
        try (TraceSession s = TraceSession.start(kernel("ffm-privilege-none", KernelTracing.of(KernelFlag.PROCESS,
                KernelFlag.THREAD)), backend)) {
            assertTrue(s.isRunning());
        }
        assertEquals(0, privilegeEnabled());
    }
}
