package org.etw4j.consumer;

import static org.junit.jupiter.api.Assertions.*;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.consumer.etl.EtlBufferFilter;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.output.EventFormat;
import org.etw4j.consumer.output.EventFormatter;
import org.junit.jupiter.api.Test;

/**
 * What the reader's settings let a client ask for instead of a loop of its own (the Spark splits, the summary, the
 * benchmarks): a buffer range of one file, a shared first pass, files the caller opened, the raw record, rewinding.
 */
class TraceFileReadSettingsTest {
    /** A kernel trace (net.4.5.2): events before the rundown of their process, file names, many buffers. */
    private static final String KERNEL = "perfview__net.4.5.2.x64.etl";

    /** Every event {@code in} delivers, as {@code etw dump --format jsonl} writes it (presented through the context). */
    private static List<String> lines(TraceFile in) {
        StringWriter out = new StringWriter();
        EventFormatter f = new EventFormatter(EventFormat.JSONL, out, false);
        while (in.hasMoreEvents()) {
            f.write(in.readEvent());
        }
        f.flush();
        return new ArrayList<>(out.toString().lines().toList());
    }

    /**
     * Ranges of 7 buffers that together cover the file, each read with the context one first pass learned, give
     * exactly the events of a whole-file read in two passes, shown alike (processes, drive-letter paths, file names).
     */
    @Test
    void splitsReadWithOneLearnedContextGiveExactlyTheWholeFilesEvents() throws Exception {
        Path file = CorpusFiles.file(KERNEL);
        List<String> whole;
        try (TraceFile in = TraceFile.open(file)) {
            whole = lines(in);
        }
        List<String> splits = new ArrayList<>();
        int ranges = 0;
        try (EtlFile f = EtlFile.open(file)) {
            LearnedContext learned = LearnedContext.learn(ReadSettings.DEFAULT, List.of(f));
            long buffers = f.bufferCount();
            for (long first = 0; first < buffers; first += 7) {
                ReadSettings s = ReadSettings.builder().learnedContext(learned)
                        .buffers(first, Math.min(buffers, first + 7), EtlBufferFilter.ALL).build();
                try (TraceFile in = TraceFile.over(s, List.of(f))) {
                    splits.addAll(lines(in));
                }
                ranges++;
            }
        }
        assertTrue(ranges > 3, "ranges: " + ranges);
        assertEquals(whole.size(), splits.size());
        assertTrue(whole.stream().anyMatch(l -> l.contains("\"process\"")), "the events are attributed");
        whole.sort(null);
        splits.sort(null);
        assertEquals(whole, splits);
    }

    /** A buffer filter leaves out whole buffers; the records it lets through are the range's cursor's. */
    @Test
    void aBufferFilterReadsOnlyTheBuffersItTakes() throws Exception {
        Path file = CorpusFiles.file(KERNEL);
        EtlBufferFilter even = (index, processor, flush) -> index % 2 == 0;
        try (EtlFile f = EtlFile.open(file)) {
            List<Long> expected = new ArrayList<>();
            EtlCursor c = f.cursor(org.etw4j.consumer.etl.EtlOrder.TIME, 0, Long.MAX_VALUE, even);
            while (c.advance()) {
                expected.add(c.record().bufferIndex() << 32 | c.record().offsetInBuffer());
            }
            ReadSettings s = ReadSettings.builder().traceContext(ReadSettings.TraceContext.NONE)
                    .buffers(0, Long.MAX_VALUE, even).build();
            List<Long> got = new ArrayList<>();
            try (TraceFile in = TraceFile.over(s, List.of(f))) {
                while (in.hasMoreEvents()) {
                    in.readEvent();
                    got.add(in.record().bufferIndex() << 32 | in.record().offsetInBuffer());
                }
            }
            assertFalse(got.isEmpty());
            assertTrue(got.stream().allMatch(k -> (k >>> 32) % 2 == 0));
            assertEquals(expected, got);
        }
    }

    @Test
    void aBufferRangeIsReadFromOneFileOnly() throws Exception {
        ReadSettings s = ReadSettings.builder().buffers(0, 3, EtlBufferFilter.ALL).build();
        Path a = CorpusFiles.file("airbus__AMSITrace.etl");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TraceFile.open(s, a, a));
        assertTrue(e.getMessage().contains("one file"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ReadSettings.builder().buffers(5, 4, EtlBufferFilter.ALL));
    }

    /**
     * A reader over the caller's files leaves them open; its raw record is the cursor's; rewinding reads the same
     * records again.
     */
    @Test
    void overTheCallersFilesTheRawRecordAndRewind() throws Exception {
        Path file = CorpusFiles.file("airbus__AMSITrace.etl");
        try (EtlFile f = EtlFile.open(file)) {
            List<String> cursor = new ArrayList<>();
            EtlCursor c = f.cursor();
            while (c.advance()) {
                cursor.add(c.record().bufferIndex() + "/" + c.record().offsetInBuffer() + "/" + c.record().eventId());
            }
            ReadSettings raw = ReadSettings.builder().traceContext(ReadSettings.TraceContext.NONE).build();
            TraceFile in = TraceFile.over(raw, List.of(f));
            assertThrows(IllegalStateException.class, in::record, "no event read yet");
            List<String> first = new ArrayList<>();
            List<String> again = new ArrayList<>();
            for (List<String> pass : List.of(first, again)) {
                while (in.hasMoreEvents()) {
                    EventRecord e = in.readEvent();
                    var v = in.record();
                    assertEquals(v.eventId(), e.eventId());
                    pass.add(v.bufferIndex() + "/" + v.offsetInBuffer() + "/" + e.eventId());
                }
                in.rewind();
            }
            assertTrue(in.hasMoreEvents());
            in.close(); // with an event pending: a closed reader reads nothing more
            assertThrows(IllegalStateException.class, in::hasMoreEvents);
            assertThrows(IllegalStateException.class, in::readEvent);
            assertEquals(cursor, first);
            assertEquals(cursor, again);
            assertTrue(f.cursor().advance(), "closing the reader left the caller's file open");
        }
    }
}
