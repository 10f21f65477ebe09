package org.etw4j.nativebindings.windows;

import org.etw4j.contract.BackendContractTest;
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
    private StandInMachine standIn;

    @Override
    protected EtwBackend newBackend() {
        standIn = new StandInMachine();
        return standIn.backend;
    }

    /** The Windows backend reports what EVENT_TRACE_PROPERTIES carries, as on Windows: no event counts. */
    @Override
    protected boolean sessionsReportEventCounts() {
        return false;
    }

    @AfterEach
    void nothingEscaped() {
        standIn.assertNothingEscaped();
    }
}
