package org.etw4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.etw4j.spark.example.EtlFleetJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sample job over two small corpus traces (a brace glob): its Parquet tables add up to the record totals. */
class EtlFleetJobTest {

    @Test
    void providerCountsAndTheProcessTimelineAddUpToTheExpectedRecordTotals(@TempDir Path out) throws IOException {
        SparkSession spark = SparkTests.session();
        long expected = 0;
        for (Path f : SparkTests.corpusFiles()) {
            String n = f.getFileName().toString();
            if (n.equals("airbus__AMSITrace.etl") || n.equals("krabsetw__powershell.etl")) {
                expected += SparkTests.expected(f).path("records").path("total").asLong();
            }
        }
        EtlFleetJob.run(spark, SparkTests.corpus().resolve("{airbus__AMSITrace,krabsetw__powershell}.etl").toString(), out.toString());
        long providers = spark.read().parquet(out.resolve("provider_counts").toString())
                .selectExpr("sum(events)").first().getLong(0);
        long timeline = spark.read().parquet(out.resolve("process_timeline").toString())
                .selectExpr("sum(events)").first().getLong(0);
        assertEquals(expected, providers);
        assertEquals(expected, timeline);
        assertEquals(0, spark.read().parquet(out.resolve("problems").toString()).count());
        assertTrue(spark.read().parquet(out.resolve("provider_counts").toString())
                .where("provider_name is not null").count() > 0);
    }
}
