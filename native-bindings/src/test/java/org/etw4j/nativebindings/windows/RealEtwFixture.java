package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.abort;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.EtwException;
import org.etw4j.Win32Error;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.Sessions;
import org.etw4j.spi.SessionControl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every real-ETW test class shares ({@link RealEtwTest}, {@link RealEtwFidelityTest}): the FFM backend over
 * Windows' advapi32, stale {@value #PREFIX}... sessions of crashed runs stopped first, everything a test opened
 * closed after it in reverse order, no upcall failure allowed, and a session start that aborts (skips) the test
 * when the process is not elevated (the Windows workflow fails a run in which anything was skipped).
 *
 * <p>One instance per test (JUnit's default); not thread-safe.
 */
abstract class RealEtwFixture {
    static final String PREFIX = "etw4j-realetw-";
    static final Duration WAIT = Duration.ofSeconds(20);

    WindowsBackend backend;
    final List<AutoCloseable> cleanup = new ArrayList<>();

    @BeforeEach
    void openBackend() {
        backend = WindowsBackend.create();
        Sessions.stopStale(backend, PREFIX);
    }

    @AfterEach
    void closeWhatTheTestOpened() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
        assertEquals(List.of(), backend.upcallFailures());
    }

    /** Starts a session (stopped after the test), or aborts the test when the process is not elevated. */
    SessionControl start(SessionConfig config) {
        try {
            SessionControl s = backend.startSession(config);
            cleanup.add(s::stop);
            return s;
        } catch (EtwException e) {
            if (e.error() == Win32Error.ERROR_ACCESS_DENIED) {
                abort("needs an elevated prompt (Administrator) or the 'Performance Log Users' group: " + e.getMessage());
            }
            throw e;
        }
    }
}
