package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.UndecodedEvents;
import org.etw4j.consumer.decode.EventDecoder;
import org.etw4j.consumer.decode.EventView;
import org.etw4j.consumer.decode.ManifestCache;
import org.etw4j.consumer.decode.ManifestRegistry;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlRecordEvent;
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
                expected = everyRecord(file, demoDecoder());
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

    /** A decoder with the etw4j-Demo manifest, as etw summary's reader registers it. */
    private static EventDecoder demoDecoder() throws IOException {
        ManifestRegistry registry = new ManifestRegistry();
        ManifestCache.shared().load(DemoEvents.manifestBytes(), SchemaSource.MANIFEST).forEach(registry::register);
        return new EventDecoder(registry);
    }

    /** The listing as it was made before the shortcut: every record decoded. */
    private static UndecodedEvents everyRecord(EtlFile file, EventDecoder decoder) {
        UndecodedEvents u = new UndecodedEvents();
        EtlCursor cursor = file.cursor();
        EtlRecordEvent record = new EtlRecordEvent();
        EventView event = new EventView(decoder);
        while (cursor.advance()) {
            u.add(event.decode(record.of(cursor.record())));
        }
        return u;
    }
}
