package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.etw4j.contract.BackendContractTest;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.EtwBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;

/**
 * The backend contract against the FFM backend on Linux, held to what Windows reports (no simulator-only session
 * counters, see {@link #sessionsReportEventCounts()}): {@link WindowsBackend} calls the stand-in
 * advapi32 through the jextract bindings, and the stand-in forwards to {@link SimEtwEngine}, which runs a fresh
 * simulated machine per test. Providers, sessions, enabling, consumption: everything goes through native memory,
 * downcalls and upcalls.
 */
@Tag("standin")
class FfmBackendContractTest extends BackendContractTest {
    private SimEtwEngine engine;
    private SimulatedBackend machine;
    private WindowsBackend ffm;

    @Override
    protected EtwBackend newBackend() {
        engine = SimEtwEngine.install();
        machine = new SimulatedBackend();
        engine.route(machine);
        ffm = WindowsBackend.create();
        return ffm;
    }

    /** The Windows backend reports what EVENT_TRACE_PROPERTIES carries, as on Windows: no event counts. */
    @Override
    protected boolean sessionsReportEventCounts() {
        return false;
    }

    @AfterEach
    void nothingEscaped() {
        assertEquals(List.of(), engine.errors(), "the engine's upcalls failed");
        assertEquals(List.of(), WindowsBackend.orphanFailures(), "an upcall could not find its owner");
        assertEquals(List.of(), machine.backgroundErrors(), "the simulator saw an exception from a callback");
    }
}
