package org.etw4j.nativebindings.windows;

import org.etw4j.contract.BackendStressTest;
import org.etw4j.spi.EtwBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;

/**
 * Sessions under stress through the FFM backend over the C stand-in advapi32 (downcalls, upcalls, native
 * buffers; the stand-in forwards to {@link SimEtwEngine}). Statistics: only what Windows reports (lost events and
 * buffers), so the conservation rule is the simulated suite's; no upcall may fail or lose its owner.
 */
@Tag("standin")
class FfmBackendStressTest extends BackendStressTest {
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
