package org.etw4j.spi;

import static org.junit.jupiter.api.Assertions.*;

import org.etw4j.sim.SimulatedBackend;
import org.junit.jupiter.api.Test;

class EtwBackendsTest {
    @Test
    void serviceLoaderFindsTheSimulatedBackendAndItIsTheFallback() {
        assertTrue(EtwBackends.factories().stream().anyMatch(f -> f.name().equals(SimulatedBackend.NAME)));
        assertEquals(SimulatedBackend.NAME, EtwBackends.choose(null).name(), "off Windows the simulated backend is chosen");
        assertSame(SimulatedBackend.shared(), EtwBackends.choose("simulated"));
    }

    @Test
    void unknownBackendNamesFailWithTheAvailableOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EtwBackends.choose("nope"));
        assertTrue(e.getMessage().contains("simulated"), e.getMessage());
    }
}
