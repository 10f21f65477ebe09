package org.etw4j.consumer;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.TimestampConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pull reader: what it delivers, with which settings, and that streams over files read exactly as it reads. */
class TraceFileTest {
    /** A kernel trace whose events come before the rundown that describes their processes. */
    private static final String KERNEL = "perfview__net.4.5.2.x64.etl";

    private static String process(ProcessInfo p) {
        return p == null ? "-" : p.processId() + ":" + p.name();
    }

    private static List<String> readerProcesses(Path file, ReadSettings settings) throws IOException {
        List<String> out = new ArrayList<>();
        try (TraceFile in = TraceFile.open(settings, file)) {
            while (in.hasMoreEvents()) {
                EventRecord e = in.readEvent();
                // What etw dump writes (the presented view) and what the API says (EventRecord.process) agree.
                String shown = process(e.view().process());
                assertEquals(shown, process(e.process()), () -> "record " + out.size());
                out.add(shown);
            }
        }
        return out;
    }

    /**
     * Streams over files and {@code etw dump} (both through TraceFile) attribute every event to the same process:
     * two passes by default, as TraceEvent's TraceLog. One pass would differ (events before the rundown).
     */
    @Test
    void streamsAndTheReaderAttributeProcessesAlike() throws Exception {
        Path file = CorpusFiles.file(KERNEL);
        List<String> reader = readerProcesses(file, ReadSettings.DEFAULT);
        List<String> stream = new ArrayList<>();
        try (EventStream s = EventStream.openFiles(file)) {
            s.onEvent(e -> stream.add(process(e.process())));
            s.start();
        }
        assertEquals(reader.size(), stream.size());
        assertEquals(reader, stream);
        List<String> onePass = readerProcesses(file, ReadSettings.builder().traceContext(ReadSettings.TraceContext.ONE_PASS).build());
        assertEquals(reader.size(), onePass.size());
        assertNotEquals(reader, onePass, "one pass leaves events before their process's rundown unattributed");
        long unattributed = onePass.stream().filter("-"::equals).count();
        assertTrue(unattributed > reader.stream().filter("-"::equals).count(), "one pass: " + unattributed);
        List<String> none = readerProcesses(file, ReadSettings.builder().traceContext(ReadSettings.TraceContext.NONE).build());
        assertTrue(none.stream().allMatch("-"::equals), "no context, no process");
    }

    @Test
    void deliversEveryRecordOfTheCursorInOrderAndCountsProgress() throws Exception {
        Path file = CorpusFiles.file("airbus__AMSITrace.etl");
        List<Long> expected = new ArrayList<>();
        try (EtlFile f = EtlFile.open(file)) {
            EtlCursor c = f.cursor();
            while (c.advance()) {
                expected.add(c.record().timestampFileTime());
            }
        }
        List<Long> times = new ArrayList<>();
        try (TraceFile in = TraceFile.open(file)) {
            assertEquals(0.0, in.progress());
            EventRecord first = null;
            while (in.hasMoreEvents()) {
                EventRecord e = in.readEvent();
                first = first == null ? e : first;
                assertSame(first, e, "reused");
                times.add(e.fileTime());
            }
            assertEquals(1.0, in.progress());
            assertEquals(expected.size(), in.recordsRead());
            assertFalse(in.hasMoreEvents());
            assertThrows(java.util.NoSuchElementException.class, in::readEvent);
            assertEquals(List.of(new TraceFile.Warnings(file.getFileName().toString(), 0)), in.warnings());
        }
        assertEquals(expected, times);
    }

    @Test
    void selectsProvidersAndATimeRangeAndCopiesWhenReuseIsOff() throws Exception {
        Path file = CorpusFiles.file("krabsetw__powershell.etl");
        List<EventRecord> all = new ArrayList<>();
        try (TraceFile in = TraceFile.open(ReadSettings.builder().reuse(false).build(), file)) {
            while (in.hasMoreEvents()) {
                all.add(in.readEvent());
            }
        }
        assertTrue(all.size() > 10);
        assertTrue(all.stream().allMatch(EventRecord::isCopy));
        EventRecord some = all.stream().filter(e -> !e.providerName().isEmpty() && e.eventId() > 0).findFirst().orElseThrow();
        String name = some.providerName();
        long ofProvider = all.stream().filter(e -> e.providerId().equals(some.providerId())).count();
        List<EventRecord> selected = new ArrayList<>();
        try (TraceFile in = TraceFile.open(ReadSettings.builder().reuse(false).providers(List.of(name)).build(), file)) {
            while (in.hasMoreEvents()) {
                selected.add(in.readEvent());
            }
        }
        assertEquals(ofProvider, selected.size(), name);
        Instant from = TimestampConverter.toInstant(all.get(all.size() / 3).fileTime());
        Instant to = TimestampConverter.toInstant(all.get(2 * all.size() / 3).fileTime());
        long inRange = all.stream().filter(e -> !e.timestamp().isBefore(from) && e.timestamp().isBefore(to)).count();
        long read = 0;
        try (TraceFile in = TraceFile.open(ReadSettings.builder().timeRange(from, to).build(), file)) {
            while (in.hasMoreEvents()) {
                EventRecord e = in.readEvent();
                assertFalse(e.timestamp().isBefore(from));
                assertTrue(e.timestamp().isBefore(to));
                read++;
            }
        }
        assertEquals(inRange, read);
        assertTrue(read > 0);
    }

    @Test
    void aFileOrManifestThatCannotBeReadIsNamedWithItsCause(@TempDir Path dir) throws IOException {
        Path missing = dir.resolve("missing.etl");
        ReadSetupException e = assertThrows(ReadSetupException.class, () -> TraceFile.open(missing));
        assertEquals(missing.toString(), e.source());
        assertInstanceOf(NoSuchFileException.class, e.getCause());
        Path bad = dir.resolve("bad.man");
        Files.writeString(bad, "<not a manifest", StandardCharsets.UTF_8);
        Path etl = CorpusFiles.file("perfview__smallEtlFile.etl");
        e = assertThrows(ReadSetupException.class, () -> TraceFile.open(ReadSettings.builder().manifest(bad).build(), etl));
        assertEquals("manifest " + bad, e.source());
        e = assertThrows(ReadSetupException.class,
                () -> TraceFile.open(ReadSettings.builder().manifestResource(getClass().getClassLoader(), "no/such.man").build(), etl));
        assertEquals("manifest classpath:no/such.man", e.source());
    }

    @Test
    void manifestsComeFromBytesAsFromFiles() throws IOException {
        Path file = org.etw4j.testing.SharedData.resolve("manifests/ClrEtwAll.man");
        byte[] xml = Files.readAllBytes(file);
        Path etl = CorpusFiles.file("perfview__smallEtlFile.etl");
        try (TraceFile a = TraceFile.open(ReadSettings.builder().manifest(xml).build(), etl);
             TraceFile b = TraceFile.open(ReadSettings.builder().manifest(file).build(), etl)) {
            assertEquals(a.decoding().decoder.manifests().size(), b.decoding().decoder.manifests().size());
            assertTrue(a.decoding().decoder.manifests().size() > 0);
        }
    }
}
