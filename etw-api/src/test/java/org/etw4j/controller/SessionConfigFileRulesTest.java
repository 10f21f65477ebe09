package org.etw4j.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.etw4j.EtwException;
import org.etw4j.controller.SessionConfigException.Rule;
import org.etw4j.spi.SessionUpdates;
import org.junit.jupiter.api.Test;

/**
 * {@link SessionConfig}'s file modes, MaximumFileSize and private sessions are refused as ETW documents them (MS
 * Learn, "Logging Mode Constants", "EVENT_TRACE_PROPERTIES structure", "Configuring and Starting a Private Logger
 * Session"), each refusal naming its rule.
 */
class SessionConfigFileRulesTest {
    private static final Path ETL = Path.of("trace.etl");

    private static Rule refused(SessionConfig.Builder b) {
        SessionConfigException e = assertThrows(SessionConfigException.class, b::build);
        assertTrue(e.getMessage().contains(e.rule().name()), e.getMessage());
        return e.rule();
    }

    @Test
    void circularAndNewFileNeedAMaximumSize() {
        assertEquals(Rule.MAXIMUM_FILE_SIZE_REQUIRED, refused(SessionConfig.file("s", ETL).fileMode(LogFileMode.CIRCULAR)));
        assertEquals(Rule.MAXIMUM_FILE_SIZE_REQUIRED,
                refused(SessionConfig.file("s", Path.of("t%d.etl")).fileMode(LogFileMode.NEW_FILE)));
        assertEquals(Rule.MAXIMUM_FILE_SIZE_NEGATIVE, refused(SessionConfig.file("s", ETL).maximumFileSizeMb(-1)));
        // sequential may be unlimited (EVENT_TRACE_FILE_MODE_NONE = SEQUENTIAL with no maximum) or limited
        assertEquals(0, SessionConfig.file("s", ETL).build().maximumFileSizeMb());
        assertEquals(5L << 20, SessionConfig.file("s", ETL).maximumFileSizeMb(5).build().maximumFileSizeBytes());
        assertEquals(LogFileMode.CIRCULAR, SessionConfig.file("s", ETL).circular(64).build().fileMode());
    }

    @Test
    void theMaximumSizeHoldsTheHeaderBufferAndOneMore() {
        assertEquals(Rule.MAXIMUM_FILE_SIZE_BELOW_TWO_BUFFERS,
                refused(SessionConfig.file("s", ETL).bufferSizeKb(1024).circular(1)));
        SessionConfig.file("s", ETL).bufferSizeKb(512).circular(1).build();
    }

    @Test
    void newFileNeedsExactlyOnePercentD() {
        assertEquals(Rule.NEW_FILE_NEEDS_PERCENT_D, refused(SessionConfig.file("s", ETL).newFileEvery(10)));
        assertEquals(Rule.NEW_FILE_NEEDS_PERCENT_D, refused(SessionConfig.file("s", Path.of("a%d_%d.etl")).newFileEvery(10)));
        SessionConfig c = SessionConfig.file("s", Path.of("dir", "trace_%d.etl")).newFileEvery(10).build();
        assertEquals(Path.of("dir", "trace_1.etl"), c.logFile(1));
        assertEquals(Path.of("dir", "trace_12.etl"), c.logFile(12));
        assertEquals(ETL, SessionConfig.file("s", ETL).build().logFile(3), "other modes write one file");
    }

    @Test
    void fileSettingsNeedAFile() {
        assertEquals(Rule.FILE_SETTINGS_WITHOUT_FILE, refused(SessionConfig.realTime("s").maximumFileSizeMb(10)));
        assertEquals(Rule.FILE_SETTINGS_WITHOUT_FILE, refused(SessionConfig.realTime("s").circular(10)));
    }

    @Test
    void appendOnlyWithSystemTimeNotRealTimeNotPrivate() {
        assertEquals(Rule.APPEND_NEEDS_SYSTEM_TIME, refused(SessionConfig.file("s", ETL).fileMode(LogFileMode.APPEND)));
        assertEquals(Rule.APPEND_NOT_REAL_TIME, refused(SessionConfig.realTimeAndFile("s", ETL).fileMode(LogFileMode.APPEND)
                .clockType(ClockType.SYSTEM_TIME)));
        assertEquals(Rule.APPEND_NOT_PRIVATE, refused(SessionConfig.file("s", ETL).fileMode(LogFileMode.APPEND)
                .clockType(ClockType.SYSTEM_TIME).privateInProcess(true)));
        SessionConfig.file("s", ETL).fileMode(LogFileMode.APPEND).clockType(ClockType.SYSTEM_TIME).build();
    }

    @Test
    void privateSessionsWriteAFileOnlyAndNeverNewFiles() {
        assertEquals(Rule.PRIVATE_NEEDS_FILE, refused(SessionConfig.realTime("s").privateInProcess(true)));
        assertEquals(Rule.PRIVATE_NEEDS_FILE, refused(SessionConfig.realTimeAndFile("s", ETL).privateInProcess(true)));
        assertEquals(Rule.NEW_FILE_NOT_PRIVATE,
                refused(SessionConfig.file("s", Path.of("t%d.etl")).newFileEvery(10).privateInProcess(true)));
        assertTrue(SessionConfig.file("s", ETL).circular(8).privateInProcess(true).build().privateInProcess());
    }

    @Test
    void theOldConstructorMeansSequentialUnlimitedNotPrivate() {
        SessionConfig c = new SessionConfig("s", false, ETL, 64, 4, 64, Duration.ofSeconds(1), ClockType.QPC, IfSessionExists.FAIL);
        assertEquals(LogFileMode.SEQUENTIAL, c.fileMode());
        assertEquals(0, c.maximumFileSizeMb());
        assertFalse(c.privateInProcess());
    }

    @Test
    void updateCannotChangeTheFileMode() {
        SessionConfig running = SessionConfig.file("s", ETL).build();
        EtwException e = assertThrows(EtwException.class,
                () -> SessionUpdates.check(running, SessionConfig.file("s", ETL).circular(8).build()));
        assertTrue(e.getMessage().contains("file mode"), e.getMessage());
    }
}
