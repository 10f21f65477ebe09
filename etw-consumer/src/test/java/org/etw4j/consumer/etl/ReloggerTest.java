package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.etw4j.Guid;
import org.etw4j.consumer.CorpusFiles;
import org.etw4j.consumer.testing.TestRecord;
import org.etw4j.LogfileHeader;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.TimestampConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Relogging corpus files and synthetic files: counts, byte-exact records, filters, merged inputs. */
class ReloggerTest {
    private static final Guid EVENT_TRACE = Guid.parse("68fdd900-4a3e-11d1-84f4-0000f80464e3");

    @TempDir
    Path dir;

    static List<Path> corpus() {
        return CorpusFiles.all();
    }

    /** A record as it must survive relogging: raw timestamp, processor, bytes. */
    private record Key(long timestamp, int processor, int hash, int length) implements Comparable<Key> {
        static Key of(EtlRecordView v) {
            ByteBuffer b = v.recordBytes();
            byte[] bytes = new byte[b.remaining()];
            b.get(b.position(), bytes);
            return new Key(v.timestamp(), v.processorIndex(), Arrays.hashCode(bytes), bytes.length);
        }

        @Override
        public int compareTo(Key o) {
            int c = Long.compare(timestamp, o.timestamp);
            c = c != 0 ? c : Integer.compare(processor, o.processor);
            c = c != 0 ? c : Integer.compare(hash, o.hash);
            return c != 0 ? c : Integer.compare(length, o.length);
        }
    }

    private static boolean isLogfileHeader(EtlRecordView v) {
        return v.bufferIndex() == 0 && v.kind() == HeaderKind.SYSTEM_TRACE_HEADER
                && v.hookId() == SystemTraceHeaderLayout.HOOK_LOGFILE_HEADER;
    }

    /** The records of {@code file} {@code keep} accepts (logfile-header records excluded), sorted. */
    private static List<Key> keys(Path file, Predicate<EtlRecordView> keep) throws Exception {
        List<Key> out = new ArrayList<>();
        try (EtlFile f = EtlFile.open(file)) {
            EtlCursor c = f.cursor();
            while (c.advance()) {
                EtlRecordView v = c.record();
                if (!isLogfileHeader(v) && keep.test(v)) {
                    out.add(Key.of(v));
                }
            }
        }
        out.sort(null);
        return out;
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void relogsOneProviderByteForByte(Path input) throws Exception {
        Map<Guid, Long> counts = new HashMap<>();
        EtlLogfileHeader inHeader;
        try (EtlFile f = EtlFile.open(input)) {
            inHeader = f.header();
            EtlCursor c = f.cursor();
            while (c.advance()) {
                counts.merge(c.record().providerId(), 1L, Long::sum);
            }
        }
        // The busiest provider other than the trace's own EventTrace records.
        Guid provider = counts.entrySet().stream().filter(e -> !e.getKey().equals(EVENT_TRACE))
                .max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(EVENT_TRACE);
        long matching = counts.get(provider) - (provider.equals(EVENT_TRACE) ? 1 : 0);
        long total = counts.values().stream().mapToLong(Long::longValue).sum();

        Path out = dir.resolve("relogged.etl");
        RelogResult r = Relogger.from(input).providers(provider).relogTo(out);
        assertEquals(total, r.recordsRead());
        assertEquals(matching, r.recordsWritten(), "written = the reader's count of matching records");
        assertEquals(1, r.logfileHeadersReplaced());
        assertEquals(total - 1 - matching, r.filteredOut());
        assertEquals(0, r.retimed(), "one input: its own clock");

        try (EtlFile o = EtlFile.open(out)) {
            assertEquals(0, o.warningCount(), "the reader reads the output without complaint");
            EtlLogfileHeader h = o.header();
            assertEquals(inHeader.bufferSize(), h.bufferSize());
            assertEquals(inHeader.eventsLost(), h.eventsLost());
            assertEquals(inHeader.startTime(), h.startTime());
            assertEquals(inHeader.perfFreq(), h.perfFreq());
            assertEquals(inHeader.clockTypeCode(), h.clockTypeCode());
            assertEquals(inHeader.headerTimestamp(), h.headerTimestamp());
            assertEquals(inHeader.sessionName(), h.sessionName());
            assertEquals(r.buffersWritten(), h.buffersWritten());
            assertEquals(h.buffersWritten(), o.bufferCount());
            assertEquals(h.buffersWritten() * h.bufferSize(), Files.size(out));
            assertFalse(h.compressedMode());
            long n = 0;
            EtlCursor c = o.cursor();
            while (c.advance()) {
                if (!isLogfileHeader(c.record())) {
                    assertTrue(c.record().providerId().equals(provider));
                    n++;
                }
            }
            assertEquals(matching, n, "read back: the same count");
        }
        List<Key> expected = keys(input, v -> provider.equals(v.providerId()));
        assertEquals(expected, keys(out, v -> true), "same records, byte for byte, same timestamps and processors");
    }

    @Test
    void mergesInputsWithDifferentClocks() throws Exception {
        Path a = CorpusFiles.file("perfview__gcevents.etl");
        Path b = CorpusFiles.file("krabsetw__powershell.etl");
        Path out = dir.resolve("merged.etl");
        long expected = keys(a, v -> true).size() + keys(b, v -> true).size();
        RelogResult r = Relogger.from(a, b).sessionName("merged").relogTo(out);
        assertEquals(expected, r.recordsWritten());
        assertEquals(2, r.logfileHeadersReplaced());
        assertEquals(keys(b, v -> true).size(), r.retimed(), "the second input's records moved to the first's clock");
        List<Long> inTimes = new ArrayList<>();
        for (Path p : List.of(a, b)) {
            try (EtlFile f = EtlFile.open(p)) {
                EtlCursor c = f.cursor();
                while (c.advance()) {
                    if (!isLogfileHeader(c.record())) {
                        inTimes.add(c.record().timestampFileTime());
                    }
                }
            }
        }
        inTimes.sort(null);
        List<Long> outTimes = new ArrayList<>();
        try (EtlFile o = EtlFile.open(out)) {
            assertEquals("merged", o.header().sessionName());
            assertEquals(Math.max(bufferSize(a), bufferSize(b)), o.header().bufferSize());
            EtlCursor c = o.cursor();
            while (c.advance()) {
                if (!isLogfileHeader(c.record())) {
                    outTimes.add(c.record().timestampFileTime());
                }
            }
            assertEquals(0, c.outOfOrderCount());
        }
        outTimes.sort(null);
        assertEquals(inTimes.size(), outTimes.size());
        for (int i = 0; i < inTimes.size(); i++) {
            assertTrue(Math.abs(inTimes.get(i) - outTimes.get(i)) <= 1, "FILETIME kept to 100 ns #" + i);
        }
    }

    private static long bufferSize(Path p) throws Exception {
        try (EtlFile f = EtlFile.open(p)) {
            return f.header().bufferSize();
        }
    }

    @Test
    void filtersFollowEtwRules() throws Exception {
        List<TestRecord> events = new ArrayList<>();
        long start = 133_500_000_000_000_000L;
        Guid p1 = Guid.of(new java.util.UUID(1, 1));
        Guid p2 = Guid.of(new java.util.UUID(2, 2));
        for (int i = 0; i < 600; i++) {
            events.add(TestRecord.builder(i % 3 == 0 ? p2 : p1)
                    .descriptor(new org.etw4j.EventDescriptor(i % 10, 0, 0, i % 6, 0, 0, i % 4 == 0 ? 0L : 1L << (i % 4)))
                    .pid(1).tid(2).timestamp(start + 1_000L * i).processor(i % 2).data(new byte[] {(byte) i}).build());
        }
        Path in = dir.resolve("synthetic.etl");
        LogfileHeader h = EtlWriter.newHeader("synthetic", in, 4096, start, start - 1_000_000L);
        try (EtlWriter w = EtlWriter.create(in, h, EtlWriter.startRawOf(h))) {
            for (TestRecord e : events) {
                w.writeEvent(e);
            }
        }
        Instant from = TimestampConverter.toInstant(start + 100_000L);
        Instant to = TimestampConverter.toInstant(start + 400_000L);
        List<Integer> want = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            TestRecord e = events.get(i);
            if (e.providerId().equals(p1) && (e.id() == 1 || e.id() == 2 || e.id() == 5)
                    && (e.level() == 0 || e.level() <= 3) && (e.keyword() == 0 || (e.keyword() & 0b0110) != 0)
                    && e.timestamp() >= start + 100_000L && e.timestamp() < start + 400_000L && e.processorIndex() == 1) {
                want.add(i & 0xFF);
            }
        }
        long expected = want.size();
        assertTrue(expected > 3, "the filters leave something to check: " + expected);
        Path out = dir.resolve("filtered.etl");
        RelogResult r = Relogger.from(in).providers(p1).eventIds(5, 1, 2).maxLevel(3).keywordsAny(0b0110)
                .timeRange(from, to).where(v -> v.processorIndex() == 1).relogTo(out);
        assertEquals(expected, r.recordsWritten());
        assertEquals(600, r.recordsWritten() + r.filteredOut());
        List<Integer> kept = new ArrayList<>();
        try (EtlFile o = EtlFile.open(out)) {
            EtlCursor c = o.cursor();
            while (c.advance()) {
                if (c.record().kind() == HeaderKind.EVENT_HEADER) {
                    kept.add(c.record().userData().get(0) & 0xFF);
                }
            }
        }
        assertEquals(want, kept, "exactly the expected events, in time order");
        assertThrows(IllegalArgumentException.class, () -> Relogger.from(in).bufferSize(1024).relogTo(dir.resolve("small.etl")),
                "an output buffer smaller than the input's");
    }
}
