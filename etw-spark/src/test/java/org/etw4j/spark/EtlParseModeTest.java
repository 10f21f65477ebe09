package org.etw4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder with a corrupt copy of a corpus file (buffer 2's header broken: both end offsets outside the buffer,
 * so its records cannot be located) and a file that is not an .etl at all, read in each mode as Spark's CSV/JSON
 * sources would: PERMISSIVE keeps every readable record and one corrupt-record row per problem (also when split),
 * DROPMALFORMED keeps the records only, FAILFAST fails the job.
 */
class EtlParseModeTest {
    private static SparkSession spark;
    @TempDir
    static Path dir;
    private static long clean;
    private static long inBuffer2;

    @BeforeAll
    static void setUp() throws IOException {
        spark = SparkTests.session();
        Path source = SparkTests.corpusFile("perfview__gcevents.etl");
        byte[] bytes = Files.readAllBytes(source);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int buffer2 = 2 * 65536;
        b.putInt(buffer2 + 0x04, 0x7FFF_FFFF); // SavedOffset (etw-formats.md 3.2)
        b.putInt(buffer2 + 0x30, 0x7FFF_FFFF); // Offset
        Files.write(dir.resolve("corrupt-gcevents.etl"), bytes);
        byte[] junk = new byte[4096];
        Arrays.fill(junk, (byte) 0x41);
        Files.write(dir.resolve("not-a-trace.etl"), junk);
        Dataset<Row> ok = spark.read().format("etl").load(source.toString());
        clean = ok.count();
        inBuffer2 = ok.where("buffer_index = 2").count();
        assertTrue(inBuffer2 > 0 && clean > inBuffer2);
    }

    @Test
    void permissiveKeepsEveryReadableRecordAndOneCorruptRowPerProblem() {
        for (String split : List.of("134217728", "65536")) {
            Dataset<Row> df = spark.read().format("etl").option("splitSize", split).load(dir.toString());
            assertEquals(clean - inBuffer2, df.where("_corrupt_record is null").count(), "split " + split);
            List<Row> bad = df.where("_corrupt_record is not null").select("file", "buffer_index", "_corrupt_record")
                    .orderBy("file").collectAsList();
            assertEquals(2, bad.size(), "split " + split + ": " + bad);
            assertTrue(bad.get(0).getString(0).endsWith("corrupt-gcevents.etl"));
            assertEquals(2L, bad.get(0).getLong(1));
            assertTrue(bad.get(0).getString(2).contains("BAD_BUFFER"), bad.get(0).getString(2));
            assertTrue(bad.get(1).getString(0).endsWith("not-a-trace.etl"));
            assertTrue(bad.get(1).getString(2).contains("cannot be read"), bad.get(1).getString(2));
        }
    }

    @Test
    void theCorruptRecordColumnCanBeRenamed() {
        Dataset<Row> df = spark.read().format("etl").option("columnNameOfCorruptRecord", "problem").load(dir.toString());
        assertEquals(2, df.where("problem is not null").count());
    }

    @Test
    void dropMalformedKeepsTheRecordsOnly() {
        Dataset<Row> df = spark.read().format("etl").option("mode", "dropmalformed").load(dir.toString());
        assertFalse(Arrays.asList(df.columns()).contains("_corrupt_record"));
        assertEquals(clean - inBuffer2, df.count());
    }

    @Test
    void failFastFailsTheJobWithTheReadersMessage() {
        for (String file : List.of("corrupt-gcevents.etl", "not-a-trace.etl")) {
            Exception e = assertThrows(Exception.class, () -> spark.read().format("etl").option("mode", "FAILFAST")
                    .load(dir.resolve(file).toString()).count());
            String all = String.valueOf(e.getMessage());
            for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
                all += " | " + t.getMessage();
            }
            assertTrue(all.contains("Parse Mode: FAILFAST") && all.contains(file), all);
        }
    }

    @Test
    void anUnknownModeIsRefused() {
        Exception e = assertThrows(Exception.class,
                () -> spark.read().format("etl").option("mode", "lenient").load(dir.toString()).count());
        assertTrue(String.valueOf(e.getMessage()).contains("PERMISSIVE, DROPMALFORMED, FAILFAST"), e.getMessage());
    }
}
