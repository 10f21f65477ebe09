package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.etw4j.Guid;
import org.etw4j.testing.LinuxCi;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 14, the part that runs here: the JDK 17 child RealEtwTest starts on Windows
 * ({@code aJdk17ChildRegisteringThroughEtwJnaIsConsumedHere}) is found, started with this JVM's class path, runs
 * on Java 17, registers through etw-jna and writes; off Windows it binds the stand-in advapi32 with its own
 * simulated session (the parent cannot see another process's stand-in), so what is checked here is the JDK
 * discovery, the launch, the child's code on Java 17 and the line protocol, not cross-process ETW.
 *
 * <p>Needs a JDK 17 (the build's etw-jna toolchain) and the stand-in library (this module's standin run); skips
 * without them locally and fails under CI.
 */
@Tag("standin")
class JnaChildProcessTest {

    @Test
    void aJdk17ChildRegistersThroughEtwJnaWritesAndItsEventsCarryTheValuesWritten() throws Exception {
        String library = System.getProperty("etw4j.windows.library");
        Path jdk = JnaChildProcess.jdk17().orElse(null);
        if (jdk == null || library == null || !Files.isRegularFile(Path.of(library))) {
            String why = "needs a JDK 17 (found " + jdk + ") and the stand-in library (" + library + ")";
            if (LinuxCi.proofsRequired()) {
                throw new AssertionError(why + "; CI requires them");
            }
            Assumptions.abort(why);
        }
        Guid provider = Guid.of(UUID.randomUUID());
        JnaChildProcess.Result r = JnaChildProcess.run(jdk, provider, 3, library, 120);
        String context = "exit " + r.exitCode() + ", output:\n" + String.join("\n", r.lines()) + "\nclass path:\n"
                + JnaChildProcess.describeClassPath();
        assertEquals(0, r.exitCode(), context);
        assertEquals(List.of("JAVA 17"), r.linesStartingWith("JAVA "), context);
        // enabled at VERBOSE (5), MatchAnyKeyword 0x1, inside EventRegister (the session enabled it first)
        assertEquals(List.of("ENABLED 5 1"), r.linesStartingWith("ENABLED "), context);
        assertEquals(List.of("WROTE 0 0", "WROTE 1 0", "WROTE 2 0"), r.linesStartingWith("WROTE "), context);
        assertEquals(List.of("DONE 3 0"), r.linesStartingWith("DONE "), context);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            expected.add("RECEIVED 7 4 1 " + r.pid() + " " + i); // id, INFORMATIONAL, keyword, the child's pid, value
        }
        assertEquals(expected, r.linesStartingWith("RECEIVED "), context);
        assertTrue(r.pid() != ProcessHandle.current().pid());
    }
}
