package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.ServiceLoader;
import org.etw4j.spi.EtwBackendFactory;
import org.etw4j.spi.EtwBackends;
import org.junit.jupiter.api.Test;

/** ServiceLoader finds the FFM backend's factory; off Windows it says it is unsupported. */
class WindowsBackendFactoryTest {

    @Test
    void serviceLoaderFindsTheFactoryWithItsNameAndPriority() {
        EtwBackendFactory f = ServiceLoader.load(EtwBackendFactory.class).stream().map(ServiceLoader.Provider::get)
                .filter(x -> x.name().equals("windows-ffm")).findFirst().orElseThrow();
        assertTrue(f instanceof WindowsBackendFactory);
        assertEquals(100, f.priority());
        assertEquals(f.name(), EtwBackends.factories().get(0).name(), "the highest priority comes first");
    }

    @Test
    void offWindowsItIsUnsupportedAndTheDefaultStaysSimulated() {
        assumeFalse(WindowsLibraries.isWindows(), "checks the non-Windows behaviour");
        assertFalse(new WindowsBackendFactory().isSupported());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> EtwBackends.choose("windows-ffm"));
        assertTrue(e.getMessage().contains("not supported"), e.getMessage());
        assertEquals("simulated", EtwBackends.choose(null).name());
    }

    @Test
    void unsupportedReasonsNameWhatToChange() {
        assertEquals("supported", WindowsBackendFactory.unsupportedReason(true, 25, 8));
        assertEquals("not Windows", WindowsBackendFactory.unsupportedReason(false, 25, 8));
        assertEquals("Java 21: the FFM bindings need Java 23+ (etw-jna runs on Java 17+)",
                WindowsBackendFactory.unsupportedReason(true, 21, 8));
        assertEquals("a 32-bit JVM: the bindings are x64, use a 64-bit JVM",
                WindowsBackendFactory.unsupportedReason(true, 25, 4));
    }
}
