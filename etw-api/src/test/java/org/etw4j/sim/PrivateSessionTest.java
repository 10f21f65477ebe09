package org.etw4j.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.EtwException;
import org.etw4j.Win32Error;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.LogfileHeader;
import org.etw4j.spi.LogFileSink;
import org.etw4j.spi.RecordSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Private in-process sessions in the simulator (MS Learn, "Configuring and Starting a Private Logger Session" and
 * "Logging Mode Constants"): they do not count against the 64 sessions, at most three run in a process, they have
 * no real-time consumers. The file side (the
 * private-session flag in each event) is tested in etw-consumer's LogFileModesTest.
 */
class PrivateSessionTest {
    @TempDir
    Path dir;

    /** A simulated machine whose file sessions write nothing (the .etl writer lives in etw-consumer). */
    private static SimulatedBackend backendDiscardingFiles() {
        SimulatedBackend backend = new SimulatedBackend();
        backend.setLogFileSinkFactory((path, header, startRaw) -> new LogFileSink() {
            @Override
            public void writeBuffer(ByteBuffer buffer) {
            }

            @Override
            public void close(LogfileHeader finalHeader) {
            }
        });
        return backend;
    }

    @Test
    void atMostThreePrivateSessionsAndTheyDoNotCountAgainstTheSystemLimit() {
        SimulatedBackend backend = backendDiscardingFiles();
        List<TraceSession> open = new ArrayList<>();
        try {
            for (int i = 0; i < SimulatedBackend.MAX_PRIVATE_SESSIONS; i++) {
                open.add(TraceSession.start(SessionConfig.file("private-" + i, dir.resolve(i + ".etl")).privateInProcess(true).build(), backend));
            }
            EtwException e = assertThrows(EtwException.class, () -> TraceSession.start(
                    SessionConfig.file("private-x", dir.resolve("x.etl")).privateInProcess(true).build(), backend));
            assertEquals(Win32Error.ERROR_NO_SYSTEM_RESOURCES.code(), e.status());
            for (int i = 0; i < SimulatedBackend.MAX_SESSIONS; i++) {
                open.add(TraceSession.start(SessionConfig.realTime("public-" + i).build(), backend));
            }
            EtwException full = assertThrows(EtwException.class,
                    () -> TraceSession.start(SessionConfig.realTime("public-x").build(), backend));
            assertEquals(Win32Error.ERROR_NO_SYSTEM_RESOURCES.code(), full.status());
        } finally {
            open.forEach(TraceSession::close);
        }
    }

    @Test
    void aPrivateSessionHasNoRealTimeConsumer() {
        SimulatedBackend backend = backendDiscardingFiles();
        try (TraceSession s = TraceSession.start(SessionConfig.file("p", dir.resolve("p.etl")).privateInProcess(true).build(), backend)) {
            RecordSink ignore = r -> { };
            EtwException e = assertThrows(EtwException.class, () -> backend.openRealTime(s.name(), ignore));
            assertEquals(Win32Error.ERROR_INVALID_PARAMETER.code(), e.status());
        }
    }
}
