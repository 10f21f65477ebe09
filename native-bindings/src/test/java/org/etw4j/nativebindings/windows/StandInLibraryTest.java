package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The one library seam: {@value WindowsLibraries#LIBRARY_PROPERTY} makes the bindings resolve against the stand-in. */
@Tag("standin")
class StandInLibraryTest {

    @Test
    void thePropertyChoosesTheLibraryAndTheBackendKnowsItIsNotRealEtw() {
        StandIn.require();
        assertEquals(WindowsLibraries.configuredSubstitute(), WindowsLibraries.loadedSubstitute());
        WindowsBackend b = WindowsBackend.create();
        assertFalse(b.isNative(), "a substitute library is not the operating system's ETW");
        assertEquals("windows-ffm", b.name());
    }

    @Test
    void offWindowsTheLastErrorIsCapturedFromErrno() {
        assumeFalse(WindowsLibraries.isWindows());
        assertEquals("errno", WindowsLibraries.lastErrorStateName());
    }
}
