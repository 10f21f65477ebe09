package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.TraceFile;
import org.etw4j.consumer.UndecodedEvents;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlSummary;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;

/**
 * {@code etw summary}'s undecoded listing (the reader's tally, which decides once per kind of event, issue 20) and lists
 * exactly what decoding every record lists: the same kinds, counts, names and reasons, on every corpus file (they
 * hold kernel MOF, manifest, EventSource, TraceLogging and MetaData-described events and undecoded ones); and the
 * summary counted from the same read (the file read once) equals the one of its own file-order pass.
 */
class SummaryUndecodedShortcutTest {

    @Test
    void listsWhatDecodingEveryRecordLists() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(SharedData.resolve("etl-corpus"))) {
            files = s.filter(p -> p.toString().endsWith(".etl")).sorted().toList();
        }
        assertTrue(files.size() >= 10, "corpus files: " + files);
        long undecodedSeen = 0;
        for (Path f : files) {
            UndecodedEvents expected;
            EtlSummary expectedSummary;
            UndecodedEvents actual;
            EtlSummary actualSummary;
            try (EtlFile file = EtlFile.open(f)) {
                expectedSummary = EtlSummary.of(file);
                expected = everyRecord(file);
            }
            try (EtlFile file = EtlFile.open(f)) {
                EtlSummary.Counter counter = new EtlSummary.Counter();
                actual = SummaryCommand.undecoded(file, SummaryCommand.settings(List.of()), counter);
                actualSummary = counter.finish(file);
                assertEquals(1, file.cursorCount(), f + ": the summary and its listing read the file once");
            }
            assertEquals(expectedSummary, actualSummary, f + ": the one-read summary is the header pass's");
            assertEquals(expected.kinds(), actual.kinds(), f.toString());
            assertEquals(expected.total(), actual.total(), f.toString());
            undecodedSeen += expected.total();
        }
        assertTrue(undecodedSeen > 0, "the corpus has undecoded events, so the comparison means something");
    }

    /**
     * The listing as it was made before the shortcut: every record decoded (as etw summary's reader decodes, the
     * etw4j-Demo manifest registered, no trace context) and counted through the public {@code UndecodedEvents.add}.
     */
    private static UndecodedEvents everyRecord(EtlFile file) throws IOException {
        UndecodedEvents u = new UndecodedEvents();
        ReadSettings settings = ReadSettings.builder().manifest(DemoEvents.manifestBytes())
                .traceContext(ReadSettings.TraceContext.NONE).build();
        TraceFile in = TraceFile.over(settings, List.of(file));
        while (in.hasMoreEvents()) {
            u.add(in.readEvent());
        }
        return u;
    }
}
