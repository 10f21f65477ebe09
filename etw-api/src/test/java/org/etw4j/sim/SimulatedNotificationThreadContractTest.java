package org.etw4j.sim;

import org.etw4j.contract.BackendContractTest;
import org.etw4j.spi.EtwBackend;

/**
 * The backend contract against the simulator with Windows' enable threading ({@link
 * SimulatedBackend#withNotificationThread()}): callbacks on a notification thread, EnableTraceEx2 returning without
 * waiting unless asked. Issue 21, item 8 (1): the suite says where it needs "enabled before I write".
 */
class SimulatedNotificationThreadContractTest extends BackendContractTest {
    @Override
    protected EtwBackend newBackend() {
        return SimulatedBackend.withNotificationThread();
    }
}
