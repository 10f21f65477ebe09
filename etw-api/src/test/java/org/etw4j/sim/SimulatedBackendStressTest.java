package org.etw4j.sim;

import org.etw4j.contract.BackendStressTest;
import org.etw4j.spi.EtwBackend;

/** Sessions under stress on the simulated backend (a fresh simulated machine). */
class SimulatedBackendStressTest extends BackendStressTest {
    @Override
    protected EtwBackend newBackend() {
        return new SimulatedBackend();
    }
}
