package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.etw4j.nativebindings.layout.DocumentedFunctions;
import org.junit.jupiter.api.Test;

/** Off Windows, the bindings load but refuse native calls with clear errors (and keep refusing). */
class WindowsLibrariesTest {

    @Test
    void offWindowsLoadingIsRefusedWithAnExplanation() {
        assumeFalse(WindowsLibraries.isWindows(), "checks the non-Windows behaviour");
        assertThrows(UnsupportedOperationException.class, WindowsLibraries::load);
    }

    /** Issue 9 defect 8: the bindings are x64; a JVM with 4-byte pointers is refused, saying why. */
    @Test
    void aJvmWithoutEightBytePointersIsRefusedWithAClearMessage() {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> WindowsLibraries.requirePointerSize(4));
        assertTrue(e.getMessage().contains("needs a 64-bit JVM"), e.getMessage());
        assertTrue(e.getMessage().contains("Windows x64 (8-byte pointers)"), e.getMessage());
        assertTrue(e.getMessage().contains("this JVM has 4-byte pointers"), e.getMessage());
        assertTrue(e.getMessage().contains("-Detw4j.backend=simulated"), e.getMessage());
        WindowsLibraries.requirePointerSize(8); // this JVM's size: accepted
        assertEquals(8, ValueLayout.ADDRESS.byteSize(), "the tests run on a 64-bit JVM");
    }

    /** The factory does not offer the FFM backend on a 32-bit JVM, so the default falls back instead of failing. */
    @Test
    void theFactoryIsUnsupportedOnA32BitJvm() {
        assertTrue(WindowsBackendFactory.supported(true, 25, 8));
        assertFalse(WindowsBackendFactory.supported(true, 25, 4), "32-bit JVM");
        assertFalse(WindowsBackendFactory.supported(true, 22, 8), "before Java 23");
        assertFalse(WindowsBackendFactory.supported(false, 25, 8), "not Windows");
    }

    @Test
    void handDeclaredFunctionsFailWithUnsatisfiedLinkErrorUntilTdhIsLoaded() {
        assumeFalse(WindowsLibraries.isWindows(), "checks the non-Windows behaviour");
        for (int attempt = 0; attempt < 2; attempt++) { // a failed lookup is not cached as a broken class
            assertThrows(UnsatisfiedLinkError.class, () -> DocumentedFunctions.TdhLoadManifest(MemorySegment.NULL));
        }
    }
}
