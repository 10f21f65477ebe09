package org.etw4j.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code spark.read.format("etl")} over the whole corpus in local[2]: row counts per file are the expected record
 * totals (counted by two independent parsers), per-provider counts agree with etw-consumer's reader and the expected
 * facts, the schema is the documented one, decoded columns are filled.
 */
class EtlDataSourceTest {
    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkTests.session();
    }

    @Test
    void rowCountPerFileIsTheExpectedRecordTotalAndNothingIsCorrupt() throws IOException {
        Path dir = SparkTests.corpus();
        Dataset<Row> df = spark.read().format("etl").load(dir.toString());
        Map<String, Long> rows = new TreeMap<>();
        Map<String, Long> corrupt = new TreeMap<>();
        for (Row r : df.groupBy(col("file"), col("_corrupt_record").isNull().as("ok")).count().collectAsList()) {
            String name = Path.of(r.getString(0)).getFileName().toString();
            (r.getBoolean(1) ? rows : corrupt).merge(name, r.getLong(2), Long::sum);
        }
        List<Path> files = SparkTests.corpusFiles();
        assertEquals(files.size(), rows.size(), "one group per corpus file: " + rows.keySet());
        for (Path f : files) {
            long total = SparkTests.expected(f).path("records").path("total").asLong(-1);
            assertEquals(total, rows.get(f.getFileName().toString()), f.getFileName() + " records");
            long warnings;
            try (EtlFile e = EtlFile.open(f)) {
                EtlCursor c = e.cursor();
                while (c.advance()) {
                    // count the reader's warnings of a whole read
                }
                warnings = e.warningCount();
            }
            assertEquals(warnings, corrupt.getOrDefault(f.getFileName().toString(), 0L),
                    f.getFileName() + ": one corrupt-record row per reader warning");
        }
    }

    @Test
    void perProviderCountsAgreeWithTheReaderAndTheExpectedFacts() throws IOException {
        Dataset<Row> df = spark.read().format("etl").load(SparkTests.corpus().resolve("*.etl").toString());
        Map<String, Long> spark = new HashMap<>();
        for (Row r : df.where(col("_corrupt_record").isNull()).groupBy("file", "provider_id").count().collectAsList()) {
            spark.put(Path.of(r.getString(0)).getFileName() + " " + r.getString(1), r.getLong(2));
        }
        Map<String, Long> reader = new HashMap<>();
        for (Path f : SparkTests.corpusFiles()) {
            try (EtlFile e = EtlFile.open(f)) {
                EtlCursor c = e.cursor();
                while (c.advance()) {
                    reader.merge(f.getFileName() + " " + c.record().providerId().toString().toLowerCase(Locale.ROOT),
                            1L, Long::sum);
                }
            }
            JsonNode providers = SparkTests.expected(f).path("providers");
            for (Iterator<Map.Entry<String, JsonNode>> it = providers.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> p = it.next();
                long sum = 0;
                for (JsonNode n : p.getValue()) {
                    sum += n.asLong();
                }
                assertEquals(sum, spark.getOrDefault(f.getFileName() + " " + p.getKey().toLowerCase(Locale.ROOT), 0L),
                        f.getFileName() + " provider " + p.getKey() + " (expected facts)");
            }
        }
        assertEquals(reader, spark);
    }

    @Test
    void schemaIsTheDocumentedOneAndDecodedColumnsAreFilled() {
        Dataset<Row> df = spark.read().format("etl").option("payload", "true").option("manifest", clrManifest())
                .load(SparkTests.corpusFile("perfview__gcevents.etl").toString());
        assertEquals("struct<file:string,timestamp:timestamp,filetime:bigint,provider_id:string,provider_name:string,"
                + "event_id:int,version:int,opcode:int,level:int,task:int,keyword:bigint,event_name:string,pid:bigint,"
                + "tid:bigint,processor:int,activity_id:string,related_activity_id:string,header_kind:string,"
                + "fields:map<string,string>,fields_json:string,buffer_index:bigint,record_offset:int,payload:binary,"
                + "_corrupt_record:string>", df.schema().simpleString());
        // A CLR GC/Start event (Microsoft-Windows-DotNETRuntime id 1), decoded with ../shared/manifests/ClrEtwAll.man.
        List<Row> gc = df.where("provider_name = 'Microsoft-Windows-DotNETRuntime' and event_id = 1").limit(1)
                .collectAsList();
        assertEquals(1, gc.size(), "a GC/Start event");
        Row r = gc.get(0);
        assertNotNull(r.getAs("event_name"));
        Map<String, String> fields = r.getJavaMap(r.fieldIndex("fields"));
        assertTrue(fields.containsKey("Count"), "GC/Start has Count: " + fields);
        String json = r.getAs("fields_json");
        assertTrue(json.startsWith("{\"provider\":\"Microsoft-Windows-DotNETRuntime\""), json);
        assertNotNull(r.getAs("payload"));
        assertNull(r.getAs("_corrupt_record"));
        // timestamp is filetime rounded down to microseconds
        long filetime = r.getAs("filetime");
        java.sql.Timestamp ts = r.getAs("timestamp");
        long micros = ts.getTime() / 1000 * 1_000_000 + ts.getNanos() / 1000 % 1_000_000;
        assertEquals(Math.floorDiv(filetime - org.etw4j.consumer.etl.EtlClock.FILETIME_UNIX_EPOCH, 10), micros);
    }

    private static String clrManifest() {
        return org.etw4j.testing.SharedData.resolve("manifests/ClrEtwAll.man").toString();
    }

    @Test
    void decodingOffLeavesTheDecodedColumnsNullAndTheProviderOptionFilters() {
        Path f = SparkTests.corpusFile("perfview__gcevents.etl");
        Dataset<Row> off = spark.read().format("etl").option("decode", "false").load(f.toString());
        assertEquals(0, off.where("provider_name is not null or fields is not null").count());
        long clr = spark.read().format("etl").load(f.toString())
                .where("provider_id = 'e13c0d23-ccbc-4e12-931b-d9cc2eee27e4'").count();
        assertTrue(clr > 0);
        assertEquals(clr, spark.read().format("etl").option("provider", "E13C0D23-CCBC-4E12-931B-D9CC2EEE27E4")
                .load(f.toString()).count());
        assertEquals(clr, spark.read().format("etl").option("provider", "Microsoft-Windows-DotNETRuntime")
                .option("manifest", clrManifest()).load(f.toString()).count());
    }
    /**
     * Issue 25.3: a provider is named alike in every file, so {@code groupBy("provider_name")} gives one row per
     * provider. Failed before etw-consumer's ProviderNames: net.4.5.2's CLR events were named by the trace's
     * metadata and gcevents' (no manifest) by their GUID, two rows for one provider.
     */
    @Test
    void groupByProviderNameGivesOneRowPerProviderAcrossFiles() throws IOException {
        Path net = SparkTests.corpusFile("perfview__net.4.5.2.x64.etl");
        Path gc = SparkTests.corpusFile("perfview__gcevents.etl");
        Dataset<Row> df = spark.read().format("etl").load(net.toString(), gc.toString());
        for (Row r : df.groupBy("provider_id").agg(org.apache.spark.sql.functions.countDistinct("provider_name"))
                .collectAsList()) {
            assertEquals(1L, r.getLong(1), "one name for provider " + r.getString(0));
        }
        Map<String, Long> byName = new HashMap<>();
        for (Row r : df.groupBy("provider_name").count().collectAsList()) {
            byName.put(r.getString(0), r.getLong(1));
        }
        String clr = "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4";
        long expected = SparkTests.expected(net).at("/providers/" + clr + "/EVENT_HEADER").asLong()
                + SparkTests.expected(gc).at("/providers/" + clr + "/EVENT_HEADER").asLong();
        assertEquals(expected, byName.get("Microsoft-Windows-DotNETRuntime"), byName.toString());
        assertNull(byName.get(clr), byName.toString());
        // TraceEvent's name for the classic kernel groups, in both files
        assertTrue(byName.containsKey("Windows Kernel"), byName.toString());
        assertNull(byName.get("PerfInfo"), byName.toString());
    }
}
