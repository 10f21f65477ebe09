package org.etw4j.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.etw4j.Guid;
import org.etw4j.sim.SimulatedBackend;
import org.junit.jupiter.api.Test;

/** A null argument to a session's provider methods is a NullPointerException naming the argument (issue 22 item 12). */
class TraceSessionNullArgumentsTest {
    @Test
    void nullArgumentsAreNamed() {
        SimulatedBackend backend = new SimulatedBackend();
        try (TraceSession s = TraceSession.start(SessionConfig.realTime("etw4j-null-args").build(), backend)) {
            EnableParameters p = EnableParameters.builder().build();
            Guid g = TraceSession.resolve("Some-Provider");
            assertEquals("providerId", assertThrows(NullPointerException.class, () -> s.enable((Guid) null, p)).getMessage());
            assertEquals("parameters", assertThrows(NullPointerException.class, () -> s.enable(g, null)).getMessage());
            assertEquals("provider", assertThrows(NullPointerException.class, () -> s.enable((String) null, p)).getMessage());
            assertEquals("providerId", assertThrows(NullPointerException.class, () -> s.disable(null)).getMessage());
            assertEquals("providerId", assertThrows(NullPointerException.class, () -> s.captureState(null, p)).getMessage());
            assertEquals("parameters", assertThrows(NullPointerException.class, () -> s.captureState(g, null)).getMessage());
        }
    }
}
