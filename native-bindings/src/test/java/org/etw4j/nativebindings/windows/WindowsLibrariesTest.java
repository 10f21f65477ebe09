package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.lang.foreign.MemorySegment;

import org.etw4j.nativebindings.layout.DocumentedFunctions;
import org.junit.jupiter.api.Test;

/** Off Windows, the bindings load but refuse native calls with clear errors (and keep refusing). */
class WindowsLibrariesTest {

    @Test
    void offWindowsLoadingIsRefusedWithAnExplanation() {
        assumeFalse(WindowsLibraries.isWindows(), "checks the non-Windows behaviour");
        assertThrows(UnsupportedOperationException.class, WindowsLibraries::load);
    }

    @Test
    void handDeclaredFunctionsFailWithUnsatisfiedLinkErrorUntilTdhIsLoaded() {
        assumeFalse(WindowsLibraries.isWindows(), "checks the non-Windows behaviour");
        for (int attempt = 0; attempt < 2; attempt++) { // a failed lookup is not cached as a broken class
            assertThrows(UnsatisfiedLinkError.class, () -> DocumentedFunctions.TdhLoadManifest(MemorySegment.NULL));
        }
    }
}
