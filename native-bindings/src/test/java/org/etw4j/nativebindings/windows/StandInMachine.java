package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.etw4j.sim.SimulatedBackend;

/**
 * The FFM backend over the C stand-in advapi32, with the stand-in routed to a fresh simulated machine (tests
 * only): what the contract and stress suites run against on Linux.
 *
 * <p>One per test; not thread-safe to set up, the backend it returns is.
 */
final class StandInMachine {
    private final SimEtwEngine engine = SimEtwEngine.install();
    // Enable callbacks on a notification thread, EnableTraceEx2 returning at once unless it waits (issue 21, item 8)
    private final SimulatedBackend machine = new SimulatedBackend();
    final WindowsBackend backend;

    StandInMachine() {
        engine.route(machine);
        backend = WindowsBackend.create();
    }

    /** No upcall failed, lost its owner, or threw into the simulator. */
    void assertNothingEscaped() {
        assertEquals(List.of(), engine.errors(), "the engine's upcalls failed");
        assertEquals(List.of(), WindowsBackend.orphanFailures(), "an upcall could not find its owner");
        assertEquals(List.of(), machine.backgroundErrors(), "the simulator saw an exception from a callback");
    }
}
