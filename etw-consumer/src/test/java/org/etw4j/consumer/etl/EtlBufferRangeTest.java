package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link EtlFile#cursor(EtlOrder, long, long, EtlBufferFilter)}: disjoint buffer ranges together give the records of
 * the whole-file cursor exactly once, and a refused buffer is not read (the split reader of etw-spark stands on it).
 */
class EtlBufferRangeTest {

    /** What identifies a record and its values: where it is, when, whose, and its bytes' hash. */
    private record Seen(long buffer, int offset, long timestamp, String provider, int id, int bytesHash) {
        static Seen of(EtlRecordView v) {
            return new Seen(v.bufferIndex(), v.offsetInBuffer(), v.timestamp(), v.providerId().toString(), v.eventId(),
                    v.recordBytes().hashCode());
        }
    }

    private static List<Seen> read(EtlCursor c) {
        List<Seen> out = new ArrayList<>();
        while (c.advance()) {
            out.add(Seen.of(c.record()));
        }
        return out;
    }

    @Test
    void rangesOfEveryWidthTogetherGiveTheWholeFileInBothOrders() throws IOException {
        for (Path p : Corpus.files()) {
            try (EtlFile f = EtlFile.open(p)) {
                List<Seen> fileOrder = read(f.cursor(EtlOrder.FILE));
                List<Seen> timeOrder = read(f.cursor(EtlOrder.TIME));
                for (long width : new long[] {1, 5, Math.max(1, f.bufferCount() / 2)}) {
                    List<Seen> fileParts = new ArrayList<>();
                    List<Seen> timeParts = new ArrayList<>();
                    for (long first = 0; first < f.bufferCount(); first += width) {
                        fileParts.addAll(read(f.cursor(EtlOrder.FILE, first, first + width, EtlBufferFilter.ALL)));
                        timeParts.addAll(read(f.cursor(EtlOrder.TIME, first, first + width, EtlBufferFilter.ALL)));
                    }
                    // File order: the concatenation is the same sequence.
                    assertEquals(fileOrder, fileParts, p.getFileName() + " width " + width + " (file order)");
                    // Time order: the same records (each range is time-ordered on its own).
                    Comparator<Seen> where = Comparator.comparingLong(Seen::buffer).thenComparingInt(Seen::offset);
                    assertEquals(sorted(timeOrder, where), sorted(timeParts, where),
                            p.getFileName() + " width " + width + " (time order)");
                }
            }
        }
    }

    @Test
    void aRefusedBufferIsNotReadAndTheFilterSeesTheFlushTimestamp() throws IOException {
        Path p = Corpus.file("airbus__AMSITrace.etl");
        try (EtlFile f = EtlFile.open(p)) {
            List<Seen> all = read(f.cursor(EtlOrder.FILE));
            AtomicLong asked = new AtomicLong();
            List<Long> flushTimes = new ArrayList<>();
            List<Seen> even = read(f.cursor(EtlOrder.TIME, 0, Long.MAX_VALUE, (index, cpu, flush) -> {
                asked.incrementAndGet();
                flushTimes.add(flush);
                return index % 2 == 0;
            }));
            assertEquals(f.bufferCount(), asked.get(), "asked once per buffer (all readable here)");
            assertEquals(all.stream().filter(s -> s.buffer() % 2 == 0).count(), even.size());
            assertTrue(even.stream().allMatch(s -> s.buffer() % 2 == 0));
            assertEquals(0L, flushTimes.get(0), "etw-formats.md 3.2: TimeStamp is 0 in the header buffer");
        }
    }

    /**
     * What etw-spark's time pushdown stands on: a buffer's records are all logged before it is flushed, so none is
     * later than the buffer's TimeStamp (etw-formats.md 3.2, "flush time"), where the writer set one (not 0).
     */
    @Test
    void noRecordOfTheCorpusIsLaterThanItsBuffersFlushTimestamp() throws IOException {
        for (Path p : Corpus.files()) {
            try (EtlFile f = EtlFile.open(p)) {
                java.util.Map<Long, Long> flush = new java.util.HashMap<>();
                EtlCursor c = f.cursor(EtlOrder.FILE, 0, Long.MAX_VALUE, (index, cpu, t) -> {
                    flush.put(index, t);
                    return true;
                });
                long checked = 0;
                while (c.advance()) {
                    EtlRecordView v = c.record();
                    long t = flush.get(v.bufferIndex());
                    if (t != 0) {
                        assertTrue(v.timestamp() <= t, p.getFileName() + ": " + v + " is later than its buffer's flush " + t);
                        checked++;
                    }
                }
                assertTrue(checked > 0 || f.bufferCount() <= 2, p.getFileName() + ": no buffer with a flush time");
            }
        }
    }

    @Test
    void anInvalidRangeIsRefused() throws IOException {
        try (EtlFile f = EtlFile.open(Corpus.file("perfview__smallEtlFile.etl"))) {
            assertThrows(IllegalArgumentException.class, () -> f.cursor(EtlOrder.TIME, -1, 3, EtlBufferFilter.ALL));
            assertThrows(IllegalArgumentException.class, () -> f.cursor(EtlOrder.TIME, 3, 2, EtlBufferFilter.ALL));
            assertEquals(0, read(f.cursor(EtlOrder.TIME, 2, 2, EtlBufferFilter.ALL)).size());
        }
    }

    private static List<Seen> sorted(List<Seen> l, Comparator<Seen> c) {
        List<Seen> s = new ArrayList<>(l);
        s.sort(c);
        return s;
    }
}
