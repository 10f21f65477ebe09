package org.etw4j.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Splits at buffer boundaries give exactly the rows of the whole-file read; pushed filters give the answer of a
 * filter applied afterwards while reading fewer buffers (time) or decoding fewer events (header filters); column
 * pruning skips decoding altogether. Rows are compared exactly, as their JSON text, ordered by where the record lies.
 */
class EtlSplitAndPushdownTest {
    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkTests.session();
    }

    private static String clrManifest() {
        return SharedData.resolve("manifests/ClrEtwAll.man").toString();
    }

    /** Every row as JSON text, in (buffer, offset) order; corrupt rows (null buffer index) first. */
    private static List<String> rows(Dataset<Row> df) {
        return df.orderBy(col("buffer_index").asc_nulls_first(), col("record_offset"), col("_corrupt_record"))
                .toJSON().collectAsList();
    }

    /** A Windows autologger's trace: 49 buffers of 64 KiB, 17078 records, kernel and manifest providers. */
    private static final String SHUTDOWN = "airbus__ShutdownPerfDiagLogger.etl";

    @Test
    void aFileSplitIntoRunsOfEightBuffersReadsExactlyAsTheWholeFileWithEveryColumnDecoded() {
        Path f = SparkTests.corpusFile(SHUTDOWN);
        Dataset<Row> whole = spark.read().format("etl").option("payload", "true").load(f.toString());
        Dataset<Row> split = spark.read().format("etl").option("payload", "true")
                .option("splitSize", String.valueOf(8 * 65536)).load(f.toString());
        assertEquals(1, whole.javaRDD().getNumPartitions());
        assertEquals(7, split.javaRDD().getNumPartitions());
        List<String> expected = rows(whole);
        assertEquals(17078, expected.size());
        assertEquals(expected, rows(split));
    }

    @Test
    void theFiveBuffersOfAClrTraceSplitOneATaskReadAsTheWholeFile() {
        Path f = SparkTests.corpusFile("perfview__gcevents.etl"); // 5 buffers of 64 KiB, CLR events
        Dataset<Row> whole = spark.read().format("etl").option("manifest", clrManifest()).load(f.toString());
        Dataset<Row> split = spark.read().format("etl").option("manifest", clrManifest()).option("splitSize", "65536")
                .load(f.toString());
        assertEquals(5, split.javaRDD().getNumPartitions());
        assertEquals(rows(whole), rows(split));
    }

    /**
     * Issue 20 target 3: each split used to repeat its file's context pass (28 passes here); now the splits of a file
     * share one, and every decoded column is still exactly what the one-split (whole-file) read gives.
     */
    @Test
    void theSplitsOfEachFileShareOneContextPassAndReadExactlyAsTheWholeFiles() {
        String a = SparkTests.corpusFile(SHUTDOWN).toString(); // 49 buffers: 25 splits of two
        String b = SparkTests.corpusFile("perfview__gcevents.etl").toString(); // 5 buffers: 3 splits
        Dataset<Row> whole = spark.read().format("etl").option("payload", "true").option("manifest", clrManifest())
                .load(a, b);
        Dataset<Row> split = spark.read().format("etl").option("payload", "true").option("manifest", clrManifest())
                .option("splitSize", String.valueOf(2 * 65536)).load(a, b);
        assertEquals(2, whole.javaRDD().getNumPartitions());
        assertEquals(28, split.javaRDD().getNumPartitions());
        List<String> expected = new ArrayList<>(whole.toJSON().collectAsList());
        EtlScanCounters.reset();
        List<String> got = new ArrayList<>(split.toJSON().collectAsList()); // one job, no sampling
        assertEquals(2, EtlScanCounters.contextPasses(), "one context pass per file, not per split");
        assertEquals(28, EtlScanCounters.filesOpened(), "every split still opens its file");
        assertEquals(0, SharedContexts.held(), "every split of both files took the pass: nothing is kept");
        EtlScanCounters.reset();
        List<String> perSplit = new ArrayList<>(spark.read().format("etl").option("payload", "true")
                .option("manifest", clrManifest()).option("splitSize", String.valueOf(2 * 65536))
                .option("shareContext", "false").load(a, b).toJSON().collectAsList());
        assertEquals(28, EtlScanCounters.contextPasses(), "shareContext=false: the old path, a pass per split");
        expected.sort(null);
        got.sort(null);
        perSplit.sort(null);
        assertTrue(expected.size() > 17078);
        assertEquals(expected, got);
        assertEquals(perSplit, got);
    }

    @Test
    void aLargerFileSplitInSevenReadsExactlyAsTheWholeFile() {
        Path f = SparkTests.corpusFile("perfview__diaghub.diaghub.etl"); // 6.4 MiB
        String[] header = {"file", "timestamp", "filetime", "provider_id", "event_id", "version", "opcode", "level",
            "task", "keyword", "pid", "tid", "processor", "activity_id", "related_activity_id", "header_kind",
            "buffer_index", "record_offset", "_corrupt_record"};
        Dataset<Row> whole = spark.read().format("etl").load(f.toString()).selectExpr(header);
        Dataset<Row> split = spark.read().format("etl").option("splitSize", String.valueOf(1 << 20))
                .load(f.toString()).selectExpr(header);
        assertEquals(7, split.javaRDD().getNumPartitions());
        assertEquals(rows(whole), rows(split));
    }

    @Test
    void aTimeLowerBoundReadsFewerBuffersAndGivesThePostFilterAnswer() {
        Path f = SparkTests.corpusFile(SHUTDOWN);
        Dataset<Row> all = spark.read().format("etl").load(f.toString()).select("buffer_index", "record_offset",
                "timestamp", "_corrupt_record");
        EtlScanCounters.reset();
        List<Row> everything = all.collectAsList();
        long buffersAll = EtlScanCounters.buffersRead();
        // A bound at two thirds of the trace's time span.
        List<Timestamp> times = new ArrayList<>();
        for (Row r : everything) {
            if (r.isNullAt(3)) {
                times.add(r.getTimestamp(2));
            }
        }
        times.sort(null);
        Timestamp bound = times.get(times.size() * 2 / 3);
        List<String> expected = new ArrayList<>();
        for (Row r : everything) {
            if (r.isNullAt(3) && !r.getTimestamp(2).before(bound)) {
                expected.add(r.getLong(0) + "/" + r.getInt(1));
            }
        }
        EtlScanCounters.reset();
        Dataset<Row> pushed = all.where(col("timestamp").geq(bound));
        List<String> got = new ArrayList<>();
        for (Row r : pushed.collectAsList()) {
            got.add(r.getLong(0) + "/" + r.getInt(1));
        }
        long buffersPushed = EtlScanCounters.buffersRead();
        expected.sort(null);
        got.sort(null);
        assertEquals(expected, got);
        assertTrue(buffersPushed < buffersAll, "buffers read with the bound " + buffersPushed + ", without " + buffersAll);
        assertTrue(pushed.queryExecution().executedPlan().toString().contains("timestamp"),
                pushed.queryExecution().executedPlan().toString());
    }

    @Test
    void providerLevelAndEventIdFiltersGiveThePostFilterAnswerAndOnlyMatchingEventsAreDecoded() {
        Path f = SparkTests.corpusFile(SHUTDOWN);
        Dataset<Row> df = spark.read().format("etl").load(f.toString());
        List<Row> everything = df.select("provider_id", "level", "event_id", "buffer_index", "record_offset")
                .where("_corrupt_record is null").collectAsList();
        // The provider with most records, its three most frequent event ids, and a level bound below its highest.
        Row top = df.groupBy("provider_id").count().orderBy(col("count").desc()).first();
        String provider = top.getString(0);
        List<Integer> ids = new ArrayList<>();
        for (Row r : df.where(col("provider_id").equalTo(provider)).groupBy("event_id").count()
                .orderBy(col("count").desc(), col("event_id")).limit(3).collectAsList()) {
            ids.add(r.getInt(0));
        }
        int level = df.where(col("provider_id").equalTo(provider)).selectExpr("max(level)").first().getInt(0);
        List<String> expected = new ArrayList<>();
        for (Row r : everything) {
            if (r.getString(0).equals(provider) && r.getInt(1) <= level && ids.contains(r.getInt(2))) {
                expected.add(r.getLong(3) + "/" + r.getInt(4));
            }
        }
        EtlScanCounters.reset();
        List<String> got = new ArrayList<>();
        String in = ids.toString().replace('[', '(').replace(']', ')');
        for (Row r : df.where("provider_id = '" + provider + "' and level <= " + level + " and event_id in " + in)
                .select("buffer_index", "record_offset", "event_name").collectAsList()) {
            got.add(r.getLong(0) + "/" + r.getInt(1));
        }
        expected.sort(null);
        got.sort(null);
        assertTrue(expected.size() > 10, "matching events: " + expected.size());
        assertEquals(expected, got);
        assertEquals(expected.size(), EtlScanCounters.eventsDecoded(), "only the events passing the header filters");
    }

    @Test
    void withoutADecodedColumnNothingIsDecodedAndNoContextPassRuns() {
        Path f = SparkTests.corpusFile(SHUTDOWN);
        Dataset<Row> df = spark.read().format("etl").load(f.toString());
        EtlScanCounters.reset();
        long n = df.groupBy("provider_id", "event_id").count().count();
        assertTrue(n > 1);
        assertTrue(EtlScanCounters.recordsSeen() > 1000);
        assertEquals(0, EtlScanCounters.eventsDecoded());
        assertEquals(0, EtlScanCounters.contextPasses());
        EtlScanCounters.reset();
        long named = df.where("event_name is not null").count();
        assertTrue(named > 0);
        assertEquals(EtlScanCounters.recordsSeen(), EtlScanCounters.eventsDecoded());
        assertEquals(1, EtlScanCounters.contextPasses());
    }
}
