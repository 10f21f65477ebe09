package org.etw4j.jna.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.etw4j.contract.BackendContractTest;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.EtwBackend;
import org.junit.jupiter.api.AfterEach;

/**
 * The backend contract with every provider going through the JNA backend's native path: JNA direct calls into
 * the stand-in advapi32 (C), which forwards to {@link SimEngine} upcalls routing into a fresh simulated machine
 * per test; enable notifications come back from native code through the JNA enable callback. Sessions and
 * consumers use the same simulated machine directly (the JNA backend has none).
 */
class JnaBackendContractTest extends BackendContractTest {
    private SimEngine engine;
    private JnaProvidersSimulatedSessions composite;

    @Override
    protected EtwBackend newBackend() {
        composite = null;
        engine = SimEngine.install();
        SimulatedBackend sim = new SimulatedBackend();
        engine.route(sim);
        composite = new JnaProvidersSimulatedSessions(new JnaEtwBackend(), sim);
        return composite;
    }

    @AfterEach
    void nothingEscapedIntoNativeCode() {
        if (composite == null) {
            return; // skipped: no stand-in library
        }
        assertEquals(List.of(), engine.errors(), "the engine's upcalls failed");
        assertEquals(0, ProviderRegistry.INSTANCE.unhandledFailures(), "a throwable reached the enable trampoline");
        assertEquals(List.of(), composite.sessions().backgroundErrors(), "the simulator saw an exception from a callback");
    }
}
