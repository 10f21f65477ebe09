package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.etw4j.EventDescriptor;
import org.etw4j.Level;
import org.etw4j.EtwException;
import org.etw4j.controller.ClockType;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.LogFileMode;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.controller.TraceSession;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.provider.EtwProvider;
import org.etw4j.sim.SimulatedBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator's file modes on the .etl files it writes, read back by the pure-Java reader (MS Learn, "Logging Mode
 * Constants"): SEQUENTIAL with a maximum size stops writing and counts the rest lost; CIRCULAR keeps the latest
 * buffers, out of time order on disk, and the reader's time-ordered merge still returns every record in order;
 * NEW_FILE writes name_1.etl, name_2.etl, ... each a complete trace; APPEND continues a file. 1 KB buffers and 1 MB files: 1,024 buffers a
 * file, buffer 0 included. The session's pool is large so that no event is lost before the file sees it.
 */
class LogFileModesTest {
    static final EventDescriptor EVENT = EventDescriptor.of(1, Level.INFORMATIONAL, 1);
    static final int EVENTS = 20_000;
    static final int BUFFERS_PER_FILE = 1024;

    @TempDir
    Path dir;

    private SessionStatistics record(SessionConfig.Builder config) throws Exception {
        return record(config, 0);
    }

    /** Records {@link #EVENTS} events numbered from {@code first}. */
    private SessionStatistics record(SessionConfig.Builder config, int first) throws Exception {
        SimulatedBackend backend = new SimulatedBackend();
        try (TraceSession session = TraceSession.start(config.bufferSizeKb(1).buffers(4, 100_000)
                .flushTimer(Duration.ZERO).build(), backend);
             EtwProvider provider = EtwProvider.builder("Etw4j-Test-FileModes").backend(backend).register()) {
            session.enable(provider.id(), EnableParameters.of(Level.VERBOSE).withCallbackWait(java.time.Duration.ofSeconds(10)));
            for (int i = first; i < first + EVENTS; i++) {
                assertEquals(0, provider.event(EVENT).int32(i).string("x".repeat(100)).write());
            }
            session.stop();
            assertTrue(backend.backgroundErrors().isEmpty(), () -> backend.backgroundErrors().toString());
            return session.statistics();
        }
    }

    /** The event numbers in the file, in the cursor's order; a reader warning fails the test. */
    private static List<Integer> numbers(Path etl, EtlOrder order) throws Exception {
        List<Integer> out = new ArrayList<>();
        try (EtlFile file = EtlFile.open(etl, new EtlReadOptions(true, org.etw4j.consumer.etl.EtlWarningListener.IGNORE))) {
            EtlCursor c = file.cursor(order);
            while (c.advance()) {
                if (c.record().kind() == HeaderKind.EVENT_HEADER) {
                    out.add(c.record().userData().getInt(0));
                }
            }
            assertEquals(0, file.warningCount());
        }
        return out;
    }

    private static void assertConsecutive(List<Integer> n, int first, int last) {
        assertEquals(last - first + 1, n.size(), "events " + first + ".." + last);
        for (int i = 0; i < n.size(); i++) {
            assertEquals(first + i, n.get(i), "event at " + i);
        }
    }

    @Test
    void sequentialStopsWritingAtTheMaximumSizeAndCountsTheRestLost() throws Exception {
        Path etl = dir.resolve("seq.etl");
        SessionStatistics stats = record(SessionConfig.file("seq-" + UUID.randomUUID(), etl).maximumFileSizeMb(1));
        assertEquals(BUFFERS_PER_FILE * 1024L, Files.size(etl), "the file stops at MaximumFileSize");
        List<Integer> n = numbers(etl, EtlOrder.TIME);
        assertConsecutive(n, 0, n.size() - 1);
        assertTrue(n.size() < EVENTS);
        assertEquals(EVENTS - n.size(), stats.eventsLost(), "every event the file refused is counted lost");
        try (EtlFile file = EtlFile.open(etl)) {
            assertEquals(EVENTS - n.size(), file.header().eventsLost());
            assertEquals(1, file.header().maximumFileSize());
            assertEquals(LogFileMode.SEQUENTIAL.bit(), file.header().logFileMode());
            assertEquals(BUFFERS_PER_FILE, file.header().buffersWritten());
        }
    }

    @Test
    void circularKeepsTheLatestBuffersAndTheMergeReturnsThemInTimeOrder() throws Exception {
        Path etl = dir.resolve("ring.etl");
        SessionStatistics stats = record(SessionConfig.file("ring-" + UUID.randomUUID(), etl).circular(1));
        assertEquals(0, stats.eventsLost());
        assertEquals(BUFFERS_PER_FILE * 1024L, Files.size(etl), "the file never grows past MaximumFileSize");
        List<Integer> onDisk = numbers(etl, EtlOrder.FILE);
        boolean wrapped = false;
        for (int i = 1; i < onDisk.size(); i++) {
            wrapped |= onDisk.get(i) < onDisk.get(i - 1);
        }
        assertTrue(wrapped, "the ring wrapped: buffers on disk are not in time order");
        List<Integer> n = numbers(etl, EtlOrder.TIME);
        assertEquals(EVENTS - 1, n.get(n.size() - 1), "the latest event is kept");
        assertConsecutive(n, EVENTS - n.size(), EVENTS - 1);
        assertEquals(onDisk.size(), n.size(), "every record in the file is returned");
        try (EtlFile file = EtlFile.open(etl)) {
            assertEquals(LogFileMode.CIRCULAR.bit(), file.header().logFileMode());
            assertEquals(1, file.header().maximumFileSize());
        }
    }

    @Test
    void newFileWritesNumberedCompleteTraces() throws Exception {
        Path pattern = dir.resolve("part_%d.etl");
        SessionStatistics stats = record(SessionConfig.file("parts-" + UUID.randomUUID(), pattern).newFileEvery(1));
        assertEquals(0, stats.eventsLost());
        List<Integer> all = new ArrayList<>();
        int files = 0;
        for (int k = 1; Files.exists(dir.resolve("part_" + k + ".etl")); k++) {
            Path part = dir.resolve("part_" + k + ".etl");
            files++;
            assertTrue(Files.size(part) <= BUFFERS_PER_FILE * 1024L, part + " is within MaximumFileSize");
            try (EtlFile file = EtlFile.open(part, new EtlReadOptions(true, org.etw4j.consumer.etl.EtlWarningListener.IGNORE))) {
                assertEquals(part.toAbsolutePath().toString(), file.header().logFileName());
                assertEquals(Files.size(part), file.header().buffersWritten() * 1024, "BuffersWritten matches the file");
                assertEquals(LogFileMode.NEW_FILE.bit(), file.header().logFileMode());
                assertTrue(file.header().endTime() >= file.header().startTime());
            }
            all.addAll(numbers(part, EtlOrder.TIME));
        }
        assertTrue(files >= 3, "several files, got " + files);
        assertFalse(Files.exists(pattern), "no file with a literal %d");
        assertConsecutive(all, 0, EVENTS - 1);
    }

    @Test
    void aPrivateSessionsFileSaysSoInItsHeaderAndEveryEvent() throws Exception {
        Path etl = dir.resolve("private.etl");
        record(SessionConfig.file("private-" + UUID.randomUUID(), etl).privateInProcess(true));
        int events = 0;
        try (EtlFile file = EtlFile.open(etl)) {
            // EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_PRIVATE_IN_PROC
            assertEquals(0x1 | 0x800 | 0x2_0000, file.header().logFileMode());
            EtlCursor c = file.cursor();
            while (c.advance()) {
                if (c.record().kind() == HeaderKind.EVENT_HEADER) {
                    assertEquals(EventHeaderLayout.FLAG_PRIVATE_SESSION, c.record().headerFlags() & EventHeaderLayout.FLAG_PRIVATE_SESSION,
                            "EVENT_HEADER_FLAG_PRIVATE_SESSION (MS Learn, EVENT_HEADER: \"logged to a private session\")");
                    events++;
                }
            }
        }
        assertEquals(EVENTS, events);
    }

    @Test
    void appendContinuesTheFileAfterItsBuffersAndKeepsItsHeader() throws Exception {
        Path etl = dir.resolve("appended.etl");
        record(SessionConfig.file("first-" + UUID.randomUUID(), etl).clockType(ClockType.SYSTEM_TIME));
        long firstSize = Files.size(etl);
        long firstStart;
        try (EtlFile file = EtlFile.open(etl)) {
            firstStart = file.header().startTime();
        }
        record(SessionConfig.file("second-" + UUID.randomUUID(), etl).clockType(ClockType.SYSTEM_TIME)
                .fileMode(LogFileMode.APPEND), EVENTS);
        assertTrue(Files.size(etl) > firstSize);
        assertConsecutive(numbers(etl, EtlOrder.TIME), 0, 2 * EVENTS - 1);
        try (EtlFile file = EtlFile.open(etl)) {
            assertEquals(Files.size(etl), file.header().buffersWritten() * 1024, "BuffersWritten counts both sessions'");
            assertEquals(firstStart, file.header().startTime(), "the file keeps its origin");
            assertEquals(LogFileMode.APPEND.bit(), file.header().logFileMode());
        }
    }

    @Test
    void appendRefusesAFileOfAnotherBufferSize() throws Exception {
        Path etl = dir.resolve("other.etl");
        record(SessionConfig.file("first-" + UUID.randomUUID(), etl).clockType(ClockType.SYSTEM_TIME));
        SimulatedBackend backend = new SimulatedBackend();
        EtwException e = assertThrows(EtwException.class, () -> TraceSession.start(SessionConfig.file("x-" + UUID.randomUUID(), etl)
                .clockType(ClockType.SYSTEM_TIME).fileMode(LogFileMode.APPEND).bufferSizeKb(4).build(), backend));
        assertTrue(e.getMessage().contains("BufferSize 1024 (the session's 4096)"), e.getMessage());
    }
}
