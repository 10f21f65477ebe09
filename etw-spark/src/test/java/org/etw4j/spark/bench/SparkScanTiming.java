package org.etw4j.spark.bench;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.etw4j.cli.EtwCommand;

/**
 * A timed main (not a test, not JMH: Spark's own threads and start-up do not fit JMH's model): rows per second per
 * core of the {@code etl} source in local mode against {@code etw dump --format jsonl} on the same file, in the same
 * JVM and run, after a warm-up round. Every variant materialises every row ({@code noop} sink: Spark reads and
 * builds the rows, writes nothing); the dump writes to a null stream.
 *
 * <p>Usage: {@code SparkScanTiming FILE [ROUNDS [context]]}; prints one line per variant with the median of the
 * rounds; {@code context} runs only the comparison of a shared and a per-split context pass.
 */
public final class SparkScanTiming {
    private SparkScanTiming() {
    }

    public static void main(String[] args) throws Exception {
        String file = args[0];
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        SparkSession spark = SparkSession.builder().master("local[2]").appName("etw-spark timing")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
        long rows = spark.read().format("etl").load(file).count();
        System.out.printf("file %s: %d rows; %d round(s) after one warm-up; load %s%n", file, rows, rounds,
                Arrays.toString(loadAverage()));
        if (args.length > 2 && args[2].equals("context")) {
            contextPasses(spark, file, rows, rounds);
            spark.stop();
            return;
        }
        PrintWriter nul = new PrintWriter(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        time("etw dump --format jsonl (1 thread)", rows, 1, rounds, () -> {
            if (EtwCommand.execute(nul, nul, "dump", "--format", "jsonl", file) != 0) {
                throw new IllegalStateException("etw dump failed");
            }
        });
        for (int cores : new int[] {1, 2}) {
            // spark.default.parallelism does not bound a DataSource V2 scan; the split size does (one task per split).
            String split = cores == 1 ? String.valueOf(Long.MAX_VALUE) : String.valueOf(splitFor(file, cores));
            time("etl source, all columns decoded, " + cores + " task(s)", rows, cores, rounds,
                    () -> noop(spark.read().format("etl").option("splitSize", split).load(file)));
            time("etl source, header columns only (no decoding), " + cores + " task(s)", rows, cores, rounds,
                    () -> noop(spark.read().format("etl").option("splitSize", split).load(file)
                            .select("file", "timestamp", "provider_id", "event_id", "opcode", "level", "pid", "tid")));
        }
        spark.stop();
    }

    /**
     * Issue 20 target 3: all columns decoded, the file cut into 8 splits read by 2 tasks, with the context pass
     * shared by the splits of the file (the default) and with one pass per split ({@code shareContext=false}, the
     * old path), rounds alternating so both see the same load.
     */
    private static void contextPasses(SparkSession spark, String file, long rows, int rounds) throws Exception {
        String split = String.valueOf(splitFor(file, 8));
        Work shared = () -> noop(spark.read().format("etl").option("splitSize", split).load(file));
        Work perSplit = () -> noop(spark.read().format("etl").option("splitSize", split)
                .option("shareContext", "false").load(file));
        shared.run();
        perSplit.run();
        long[][] ns = new long[2][rounds];
        long[][] cpu = new long[2][rounds];
        Work[] works = {shared, perSplit};
        for (int i = 0; i < rounds; i++) {
            for (int v = 0; v < 2; v++) {
                long c0 = processCpuNanos();
                long t0 = System.nanoTime();
                works[v].run();
                ns[v][i] = System.nanoTime() - t0;
                cpu[v][i] = processCpuNanos() - c0;
            }
        }
        String[] names = {"8 splits, 2 tasks, one context pass per file (shareContext)",
            "8 splits, 2 tasks, one context pass per split (shareContext=false)"};
        for (int v = 0; v < 2; v++) {
            Arrays.sort(ns[v]);
            Arrays.sort(cpu[v]);
            System.out.printf("%-68s median wall %7.3f s  CPU %7.3f s  %,10.0f rows/s%n", names[v],
                    ns[v][rounds / 2] / 1e9, cpu[v][rounds / 2] / 1e9, rows / (ns[v][rounds / 2] / 1e9));
        }
        System.out.printf("load after: %s%n", Arrays.toString(loadAverage()));
    }

    /** CPU time of this whole process (every thread: Spark's, the JIT's, the GC's). */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static long splitFor(String file, int parts) throws java.io.IOException {
        return Math.max(65536, java.nio.file.Files.size(java.nio.file.Path.of(file)) / parts + 1);
    }

    private static void noop(Dataset<Row> df) {
        df.write().format("noop").mode("overwrite").save();
    }

    private interface Work {
        void run() throws Exception;
    }

    private static void time(String what, long rows, int cores, int rounds, Work w) throws Exception {
        w.run(); // warm-up
        long[] ns = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            long t0 = System.nanoTime();
            w.run();
            ns[i] = System.nanoTime() - t0;
        }
        Arrays.sort(ns);
        double s = ns[rounds / 2] / 1e9;
        System.out.printf("%-62s median %7.3f s  %,10.0f rows/s  %,10.0f rows/s/core%n", what, s, rows / s,
                rows / s / cores);
    }

    private static double[] loadAverage() {
        double l = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return new double[] {l};
    }
}
