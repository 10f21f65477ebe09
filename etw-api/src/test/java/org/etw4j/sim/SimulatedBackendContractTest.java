package org.etw4j.sim;

import org.etw4j.contract.BackendContractTest;
import org.etw4j.spi.EtwBackend;

/** The backend contract, run against the simulated backend (a fresh simulated machine per test). */
class SimulatedBackendContractTest extends BackendContractTest {
    @Override
    protected EtwBackend newBackend() {
        return new SimulatedBackend();
    }
}
