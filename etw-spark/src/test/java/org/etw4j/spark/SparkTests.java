package org.etw4j.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.etw4j.testing.SharedData;

/**
 * What the etw-spark tests share: one local Spark (two worker threads, no UI, two shuffle partitions) per test
 * class, and the corpus in {@code ../shared/etl-corpus} (skipped locally, failed on CI when absent).
 *
 * <p>Stateless helpers; thread-safe.
 */
final class SparkTests {
    private SparkTests() {
    }

    /**
     * The local Spark of this test JVM, made on first use and shared by the test classes (Spark's start is the
     * larger part of this module's test time); Spark's shutdown hook stops it when the JVM ends.
     */
    static synchronized SparkSession session() {
        return SparkSession.builder()
                .appName("etw-spark-tests")
                .master("local[2]")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.sql.session.timeZone", "UTC")
                .getOrCreate();
    }

    static Path corpus() {
        return SharedData.resolve("etl-corpus");
    }

    static Path corpusFile(String name) {
        return SharedData.resolve("etl-corpus/" + name);
    }

    static List<Path> corpusFiles() {
        try (Stream<Path> s = Files.list(corpus())) {
            return s.filter(p -> p.getFileName().toString().endsWith(".etl")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code expected/<file>.json}, parsed. */
    static JsonNode expected(Path etl) throws IOException {
        return new ObjectMapper().readTree(etl.resolveSibling("expected").resolve(etl.getFileName() + ".json").toFile());
    }
}
