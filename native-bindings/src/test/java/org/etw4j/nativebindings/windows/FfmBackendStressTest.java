package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.etw4j.contract.BackendStressTest;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.EtwBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;

/**
 * Sessions under stress through the FFM backend over the C stand-in advapi32 (downcalls, upcalls, native
 * buffers; the stand-in forwards to {@link SimEtwEngine}). The statistics it can check are those the stand-in's
 * QueryTrace reports (counters reported as -1 are skipped, as on Windows); no upcall may fail or lose its owner.
 */
@Tag("standin")
class FfmBackendStressTest extends BackendStressTest {
    private SimEtwEngine engine;
    private SimulatedBackend machine;

    @Override
    protected EtwBackend newBackend() {
        engine = SimEtwEngine.install();
        machine = new SimulatedBackend();
        engine.route(machine);
        return WindowsBackend.create();
    }

    @AfterEach
    void nothingEscaped() {
        assertEquals(List.of(), engine.errors(), "the engine's upcalls failed");
        assertEquals(List.of(), WindowsBackend.orphanFailures(), "an upcall could not find its owner");
        assertEquals(List.of(), machine.backgroundErrors(), "the simulator saw an exception from a callback");
    }
}
