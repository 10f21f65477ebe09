package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What runs here of issue 21, item 13's reverse proof (RealEtwFidelityTest
 * {@code aFileEtlWriterWroteIsReadByOpenTraceRecordByRecord} opens the same synthetic file with OpenTraceW on
 * Windows): etw4j's reader returns every record {@link SyntheticEtl} wrote, with every fact, and the record-by-record
 * comparison {@link RecordFacts#assertSameRecords} catches a changed field, a missing record and tolerates only
 * the named exception (order among equal timestamps)
 * while insisting on time order otherwise.
 */
class SyntheticEtlTest {

    @Test
    void etw4jsReaderReturnsEveryRecordTheWriterWroteWithEveryFact(@TempDir Path dir) throws Exception {
        Path etl = dir.resolve("synthetic.etl");
        List<RecordFacts> written = SyntheticEtl.write(etl, 133_000_000_000_000_000L);
        List<RecordFacts> read = FileReaders.etw4j(etl);
        List<RecordFacts> events = SyntheticEtl.eventHeaderRecords(read);
        assertEquals(SyntheticEtl.EVENTS, events.size());
        assertTrue(read.size() > events.size(), "the logfile header record is returned too (a classic record)");
        RecordFacts.assertSameRecords(written, events, "EtlWriter -> etw4j reader");
        assertTrue(written.stream().anyMatch(f -> f.extendedItems().size() >= 2), "items are exercised");
        assertTrue(written.stream().anyMatch(f -> f.userData().length() == 8000), "a 4000-byte payload is exercised");
    }

    @Test
    void theComparisonFindsAChangedFieldAndAMissingRecord(@TempDir Path dir) throws Exception {
        List<RecordFacts> written = SyntheticEtl.write(dir.resolve("s.etl"), 133_000_000_000_000_000L);
        List<RecordFacts> changed = new ArrayList<>(written);
        RecordFacts f = changed.get(17);
        changed.set(17, new RecordFacts(f.classic(), f.flags(), f.eventProperty(), f.threadId(), f.processId(),
                f.timestamp(), f.provider(), f.id(), f.version(), f.channel(), f.level(), f.opcode(), f.task(),
                f.keyword() ^ 1, f.kernelTime(), f.userTime(), f.activityId(), f.processorIndex(), f.pointerSize(),
                f.extendedItems(), f.userData()));
        assertThrows(AssertionError.class, () -> RecordFacts.assertSameRecords(written, changed, "keyword"));
        List<RecordFacts> missing = new ArrayList<>(written);
        missing.remove(100);
        assertThrows(AssertionError.class, () -> RecordFacts.assertSameRecords(written, missing, "missing"));
        List<RecordFacts> swapped = new ArrayList<>(written);
        java.util.Collections.swap(swapped, 40, 41);
        assertThrows(AssertionError.class, () -> RecordFacts.assertSameRecords(written, swapped, "out of time order"));
        // the one named exception: records of equal timestamp (other processors' buffers) in either order
        List<RecordFacts> tie = new ArrayList<>(written);
        tie.set(41, at(tie.get(41), tie.get(40).timestamp()));
        List<RecordFacts> tieSwapped = new ArrayList<>(tie);
        java.util.Collections.swap(tieSwapped, 40, 41);
        RecordFacts.assertSameRecords(tie, tieSwapped, "equal timestamps");
    }

    private static RecordFacts at(RecordFacts f, long timestamp) {
        return new RecordFacts(f.classic(), f.flags(), f.eventProperty(), f.threadId(), f.processId(), timestamp,
                f.provider(), f.id(), f.version(), f.channel(), f.level(), f.opcode(), f.task(), f.keyword(),
                f.kernelTime(), f.userTime(), f.activityId(), f.processorIndex(), f.pointerSize(), f.extendedItems(),
                f.userData());
    }
}
