package org.etw4j.spi;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.etw4j.Backend;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.provider.EtwProvider;
import org.etw4j.sim.SimulatedBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;

class EtwBackendsTest {
    /** A factory with fixed answers; create() is never expected to be called by select(). */
    private record Fake(String name, boolean isSupported, int priority, boolean isSimulated, String why)
            implements EtwBackendFactory {
        @Override
        public EtwBackend create() {
            throw new AssertionError("select() only chooses");
        }

        @Override
        public String unsupportedReason() {
            return why;
        }
    }

    private static final Fake FFM_32_BIT = new Fake("windows-ffm", false, 100, false, "a 32-bit JVM: the bindings are x64");
    private static final Fake JNA_BROKEN = new Fake("jna", false, 50, false, "JNA could not be loaded: boom");
    private static final Fake JNA = new Fake("jna", true, 50, false, "supported");
    private static final Fake SIM = new Fake("simulated", true, 0, true, "supported");

    @Test
    @DisabledOnOs(OS.WINDOWS)
    void serviceLoaderFindsTheSimulatedBackendAndOffWindowsItIsTheDefault() {
        assertTrue(EtwBackends.factories().stream().anyMatch(f -> f.name().equals(SimulatedBackend.NAME)));
        assertEquals(SimulatedBackend.NAME, EtwBackends.choose(null).name(), "off Windows the simulated backend is chosen");
        assertSame(SimulatedBackend.shared(), EtwBackends.choose("simulated"));
    }

    @Test
    void unknownBackendNamesFailWithTheAvailableOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EtwBackends.choose("nope"));
        assertTrue(e.getMessage().contains("simulated"), e.getMessage());
    }

    @Test
    void onWindowsWithoutARealBackendTheDefaultIsAClearErrorNotTheSimulator() {
        // Failed before issue 21 item 3: a 32-bit JVM, Java 17-22 without etw-jna or a JNA load failure fell back
        // to the simulated backend in silence, and every event written vanished.
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> EtwBackends.select(null, List.of(FFM_32_BIT, JNA_BROKEN, SIM), true));
        String m = e.getMessage();
        assertTrue(m.contains("windows-ffm: a 32-bit JVM: the bindings are x64"), m);
        assertTrue(m.contains("jna: JNA could not be loaded: boom"), m);
        assertTrue(m.contains("-Detw4j.backend=simulated"), m);
        assertThrows(IllegalStateException.class, () -> EtwBackends.select("", List.of(SIM), true), "none at all");
    }

    @Test
    void onWindowsTheSimulatorOnlyWhenAskedAndTheReasonIsSaid() {
        EtwBackends.Selection asked = EtwBackends.select("simulated", List.of(FFM_32_BIT, SIM), true);
        assertSame(SIM, asked.factory());
        assertEquals("etw4j backend: simulated (asked: -Detw4j.backend=simulated)", asked.describe());

        EtwBackends.Selection real = EtwBackends.select(null, List.of(FFM_32_BIT, JNA, SIM), true);
        assertSame(JNA, real.factory());
        assertTrue(real.reason().startsWith("the best supported real backend on "), real.reason());
        assertTrue(real.reason().endsWith("; not windows-ffm: a 32-bit JVM: the bindings are x64"), real.reason());
    }

    @Test
    void offWindowsTheSimulatorIsTheDefaultAndANamedUnsupportedBackendSaysWhy() {
        EtwBackends.Selection s = EtwBackends.select(null, List.of(FFM_32_BIT, SIM), false);
        assertSame(SIM, s.factory());
        assertTrue(s.reason().startsWith("not Windows ("), s.reason());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> EtwBackends.select("windows-ffm", List.of(FFM_32_BIT, SIM), false));
        assertTrue(e.getMessage().endsWith(": a 32-bit JVM: the bindings are x64"), e.getMessage());
    }

    @Test
    void theSpiFindsTheSimulatorThroughTheServiceLoaderOnly() throws IOException {
        // Issue 19: spi/EtwBackends no longer imports the simulator (a hard-wired fallback); the constant pool
        // of the compiled class names every class it refers to.
        try (InputStream in = EtwBackends.class.getResourceAsStream("EtwBackends.class")) {
            String pool = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertFalse(pool.contains("org/etw4j/sim/"), "EtwBackends refers to org.etw4j.sim");
        }
    }

    /** Applications hold a backend as {@link Backend}; every etw4j backend is the SPI's {@link EtwBackend}. */
    @Test
    void theApplicationsBackendIsTheSpisBackend() {
        Backend backend = SimulatedBackend.shared();
        assertSame(backend, EtwBackends.spi(backend));
        try (EtwProvider p = EtwProvider.builder("Etw4j-Test-BackendView").backend(backend).register()) {
            assertSame(backend, p.backend(), "the provider runs on the backend it was given");
        }
    }

    /** A {@link Backend} written elsewhere cannot run ETW: refused where it is passed in, naming the fix. */
    @Test
    void aBackendImplementedOutsideEtw4jIsRefusedWithTheFix() {
        Backend foreign = new Backend() {
            @Override
            public String name() {
                return "mine";
            }

            @Override
            public boolean isNative() {
                return false;
            }
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EtwBackends.spi(foreign));
        assertTrue(e.getMessage().contains("is not an etw4j backend") && e.getMessage().contains("Backend.getDefault()")
                && e.getMessage().contains(EtwBackend.class.getName()), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TraceSession.start(SessionConfig.realTime("etw4j-foreign").build(), foreign));
        assertThrows(IllegalArgumentException.class, () -> EtwProvider.builder("Etw4j-Test-Foreign").backend(foreign).register());
        assertThrows(NullPointerException.class, () -> EtwBackends.spi(null));
    }
}
