package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.etw4j.Guid;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Truth test: every file of the shared corpus read by this reader must give the facts independent parsers
 * recorded in {@code expected/*.json}: header facts, record totals per header kind, per-provider counts and
 * timestamps; and the time-ordered cursor must deliver the same records, in order.
 */
class EtlCorpusTest {

    static List<Path> corpus() {
        return Corpus.files();
    }

    /** Largest distance from the reference allowed: 1 us (its resolution) + 16 ticks (its float64 spacing). */
    private static final long MAX_TICKS_FROM_REFERENCE = 10 + 16;

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void matchesExpectedFacts(Path etl) throws Exception {
        Map<String, Object> expected = Corpus.expected(etl);
        Map<String, Object> h = MiniJson.object(expected.get("header"));
        try (EtlFile file = EtlFile.open(etl, EtlReadOptions.strictMode())) {
            EtlLogfileHeader header = file.header();
            assertEquals(h.get("os_build"), header.osBuild(), "os_build");
            assertEquals(h.get("pointer_size"), header.pointerSize(), "pointer_size");
            assertEquals(h.get("log_file_mode"), "0x" + Long.toHexString(header.logFileMode()), "log_file_mode");
            assertEquals(h.get("clock_type"), header.clockTypeCode(), "clock_type");
            assertEquals(h.get("buffer_size"), header.bufferSize(), "buffer_size");
            assertEquals(h.get("buffers_written"), header.buffersWritten(), "buffers_written");
            assertEquals(h.get("buffers_written"), file.bufferCount(), "buffers found in the file");
            assertEquals(h.get("session"), header.sessionName(), "session");
            assertHeaderTime((String) h.get("start_utc"), header.startTime(), "start_utc");
            assertHeaderTime((String) h.get("end_utc"), header.endTime(), "end_utc");

            EtlSummary summary = EtlSummary.of(file);
            Map<String, Object> records = MiniJson.object(expected.get("records"));
            assertEquals(records.get("total"), summary.totalRecords(), "records.total");
            assertEquals(kindCounts(MiniJson.object(records.get("by_header_kind"))),
                    summary.recordsByHeaderKind(), "records.by_header_kind");
            assertEquals(expectedProviders(MiniJson.object(expected.get("providers"))), providers(summary), "providers");

            Map<String, Object> ts = MiniJson.object(expected.get("timestamps_utc"));
            assertRecordTime((String) ts.get("min"), summary.firstFileTime(), "min");
            assertRecordTime((String) ts.get("max"), summary.lastFileTime(), "max");
            long[] firstLast = firstAndLastInFileOrder(file);
            assertRecordTime((String) ts.get("first_in_file_order"), firstLast[0], "first_in_file_order");
            assertRecordTime((String) ts.get("last_in_file_order"), firstLast[1], "last_in_file_order");

            assertTimeOrderedCursorAgrees(file, summary);
            assertEquals(0, file.warningCount(), "warnings");
        }
    }

    /** The summary JSON carries the same facts, with the documented key names and formats. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void summaryJsonRoundTrips(Path etl) throws Exception {
        EtlSummary summary = EtlSummary.of(etl);
        Map<String, Object> json = MiniJson.object(MiniJson.parse(summary.toJson()));
        assertEquals(List.of("file", "osBuild", "pointerSize", "bufferSize", "buffersWritten", "logFileMode", "clockType",
                "sessionName", "startTime", "endTime", "eventsLost", "records", "providers", "firstTimestamp",
                "lastTimestamp", "warnings"), new ArrayList<>(json.keySet()));
        assertEquals(summary.warnings(), ((Number) json.get("warnings")).longValue());
        EtlLogfileHeader h = summary.header();
        assertEquals(etl.getFileName().toString(), json.get("file"));
        assertEquals(h.osBuild(), json.get("osBuild"));
        assertEquals(h.pointerSize(), json.get("pointerSize"));
        assertEquals(h.bufferSize(), json.get("bufferSize"));
        assertEquals(h.buffersWritten(), json.get("buffersWritten"));
        assertEquals("0x" + Long.toHexString(h.logFileMode()), json.get("logFileMode"));
        assertEquals(h.clockTypeCode(), json.get("clockType"));
        assertEquals(h.sessionName(), json.get("sessionName"));
        assertEquals(h.eventsLost(), json.get("eventsLost"));
        assertEquals(EtlSummary.formatFileTime(h.startTime()), json.get("startTime"));
        assertTrue(((String) json.get("startTime")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}\\+00:00"));
        assertEquals(EtlSummary.formatFileTime(summary.firstFileTime()), json.get("firstTimestamp"));
        assertEquals(EtlSummary.formatFileTime(summary.lastFileTime()), json.get("lastTimestamp"));
        Map<String, Object> records = MiniJson.object(json.get("records"));
        assertEquals(summary.totalRecords(), records.get("total"));
        assertEquals(summary.recordsByHeaderKind(), kindCounts(MiniJson.object(records.get("byHeaderKind"))));
        List<?> providers = (List<?>) json.get("providers");
        assertEquals(summary.providers().size(), providers.size());
        long sum = 0;
        for (int i = 0; i < providers.size(); i++) {
            Map<String, Object> p = MiniJson.object(providers.get(i));
            EtlSummary.ProviderSummary ps = summary.providers().get(i);
            assertEquals(ps.group() == null ? List.of("id", "name", "records", "byHeaderKind")
                    : List.of("id", "name", "group", "records", "byHeaderKind"), new ArrayList<>(p.keySet()));
            assertEquals(ps.group(), p.get("group"));
            assertEquals(ps.id().toString(), p.get("id"));
            assertEquals(ps.name(), p.get("name"));
            assertEquals(ps.records(), p.get("records"));
            assertEquals(ps.byHeaderKind(), kindCounts(MiniJson.object(p.get("byHeaderKind"))));
            sum += ps.records();
        }
        assertEquals(summary.totalRecords(), sum, "provider counts add up to the total");
    }

    private static void assertTimeOrderedCursorAgrees(EtlFile file, EtlSummary summary) {
        EtlCursor cursor = file.cursor();
        long n = 0;
        long previous = Long.MIN_VALUE;
        long[] byKind = new long[HeaderKind.values().length];
        while (cursor.advance()) {
            EtlRecordView r = cursor.record();
            assertTrue(r.timestamp() >= previous, () -> "time order broken at " + r);
            previous = r.timestamp();
            byKind[r.kind().ordinal()]++;
            n++;
        }
        assertFalse(cursor.advance(), "stays at the end");
        assertEquals(summary.totalRecords(), n, "time-ordered record count");
        assertEquals(0, cursor.outOfOrderCount());
        for (HeaderKind k : HeaderKind.values()) {
            assertEquals(summary.recordsByHeaderKind().getOrDefault(k, 0L), byKind[k.ordinal()], k.name());
        }
    }

    private static long[] firstAndLastInFileOrder(EtlFile file) {
        EtlCursor cursor = file.cursor(EtlOrder.FILE);
        long first = 0;
        long last = 0;
        boolean any = false;
        while (cursor.advance()) {
            long ft = cursor.record().timestampFileTime();
            if (!any) {
                first = ft;
                any = true;
            }
            last = ft;
        }
        assertTrue(any, "file has records");
        return new long[] {first, last};
    }

    /** Exact reproduction of the reference's float64 rendering, and a bound on the distance from it. */
    private static void assertRecordTime(String expected, long fileTime, String what) {
        assertEquals(ReferenceTime.normalize(expected), ReferenceTime.recordStyle(fileTime),
                what + ": reference rendering of FILETIME " + fileTime);
        long d = ReferenceTime.distanceTicks(fileTime, expected);
        assertTrue(d <= MAX_TICKS_FROM_REFERENCE, what + ": " + d + " ticks from " + expected);
    }

    private static void assertHeaderTime(String expected, long fileTime, String what) {
        assertEquals(ReferenceTime.normalize(expected), ReferenceTime.headerStyle(fileTime),
                what + ": reference rendering of FILETIME " + fileTime);
        long d = ReferenceTime.distanceTicks(fileTime, expected);
        assertTrue(d <= MAX_TICKS_FROM_REFERENCE, what + ": " + d + " ticks from " + expected);
    }

    private static Map<HeaderKind, Long> kindCounts(Map<String, Object> json) {
        Map<HeaderKind, Long> m = new EnumMap<>(HeaderKind.class);
        json.forEach((k, v) -> m.put(HeaderKind.valueOf(k), (Long) v));
        return m;
    }

    private static Map<String, Map<HeaderKind, Long>> expectedProviders(Map<String, Object> json) {
        Map<String, Map<HeaderKind, Long>> m = new TreeMap<>();
        json.forEach((id, kinds) -> m.put(Guid.parse(id).toString(), kindCounts(MiniJson.object(kinds))));
        return m;
    }

    private static Map<String, Map<HeaderKind, Long>> providers(EtlSummary summary) {
        Map<String, Map<HeaderKind, Long>> m = new TreeMap<>();
        for (EtlSummary.ProviderSummary p : summary.providers()) {
            m.put(p.id().toString(), p.byHeaderKind());
        }
        return m;
    }
}
