package org.etw4j.spark.example;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.first;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.window;

import java.util.Arrays;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * A sample Spark job over a folder of .etl files, written as Parquet under an output folder:
 * <ul>
 *   <li>{@code provider_counts}: per provider, its events, the files it appears in and its first and last event;</li>
 *   <li>{@code process_timeline}: per file, process and second, the events the process logged and the providers
 *       they came from (the process's activity over time);</li>
 *   <li>{@code problems}: the corrupt-record rows (files or buffers the reader could not read), if any.</li>
 * </ul>
 * Usage: {@code EtlFleetJob INPUT_FOLDER_OR_GLOB OUTPUT_FOLDER [MANIFEST.man...]}. The master comes from
 * {@code spark-submit --master}; when none is set (a plain {@code java} run) it is {@code local[*]}.
 *
 * <p>A program, not a library class: one run per process.
 */
public final class EtlFleetJob {
    private EtlFleetJob() {
    }

    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: EtlFleetJob INPUT_FOLDER_OR_GLOB OUTPUT_FOLDER [MANIFEST.man...]");
            System.exit(2);
        }
        SparkSession.Builder builder = SparkSession.builder().appName("etw4j fleet job");
        if (!new org.apache.spark.SparkConf().contains("spark.master")) {
            builder.master("local[*]");
        }
        SparkSession spark = builder.getOrCreate();
        try {
            run(spark, args[0], args[1], Arrays.copyOfRange(args, 2, args.length));
        } finally {
            spark.stop();
        }
    }

    /** Reads {@code input} and writes the three tables under {@code output} (replacing them). */
    public static void run(SparkSession spark, String input, String output, String... manifests) {
        Dataset<Row> events = spark.read().format("etl")
                .option("manifest", String.join(",", manifests))
                .load(input);
        events.cache();
        Dataset<Row> ok = events.where(col("_corrupt_record").isNull());

        Dataset<Row> providers = ok.groupBy("provider_id")
                .agg(first("provider_name", true).as("provider_name"), count("*").as("events"),
                        countDistinct("file").as("files"), min("timestamp").as("first_event"),
                        max("timestamp").as("last_event"))
                .orderBy(col("events").desc());
        providers.write().mode(SaveMode.Overwrite).parquet(output + "/provider_counts");

        Dataset<Row> timeline = ok.groupBy(col("file"), col("pid"), window(col("timestamp"), "1 second").as("second"))
                .agg(count("*").as("events"), countDistinct("provider_id").as("providers"))
                .select(col("file"), col("pid"), col("second.start").as("second"), col("events"), col("providers"))
                .orderBy("file", "pid", "second");
        timeline.write().mode(SaveMode.Overwrite).parquet(output + "/process_timeline");

        events.where(col("_corrupt_record").isNotNull()).select("file", "buffer_index", "_corrupt_record")
                .write().mode(SaveMode.Overwrite).parquet(output + "/problems");

        System.out.println("etw4j fleet job: " + ok.count() + " events from " + ok.select("file").distinct().count()
                + " file(s); " + providers.count() + " providers; wrote " + output + "/{provider_counts,"
                + "process_timeline,problems}");
        providers.show(10, false);
        events.unpersist();
    }
}
