package org.etw4j.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlFormatException;
import org.etw4j.consumer.etl.FuzzSeeds;
import org.etw4j.report.EventRate;
import org.etw4j.report.HtmlReport;
import org.etw4j.report.TraceReport;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes the HTML report's time buckets (issue 22, item 2) with whole .etl files (the reader's seeds: corpus heads
 * and synthetic files of every header kind), whose mutated timestamps land anywhere in the 64-bit range.
 *
 * <p>Invariants, for any bytes the reader opens: {@link TraceReport#read} reads the file twice and never throws;
 * the chart has at most {@link EventRate#MAX_BUCKETS} buckets; every record the summary counted is in one bucket or
 * an outlier; and the page, whatever the timestamps, stays within a bound set by the records and providers it lists
 * (not by the trace's time span).
 */
class ReportBucketsFuzzTest {
    private static final Path SCRATCH = scratchFile();

    static Stream<Arguments> seeds() {
        return FuzzSeeds.etlSeeds().entrySet().stream()
                .map(e -> Arguments.of(Named.of(e.getKey(), e.getValue())));
    }

    @MethodSource("seeds")
    @FuzzTest
    void bucketsStayBounded(byte[] data) throws IOException {
        Files.write(SCRATCH, data);
        EtlFile f;
        try {
            f = EtlFile.open(SCRATCH);
        } catch (EtlFormatException e) {
            return; // not an .etl file
        }
        try (f) {
            TraceReport report = TraceReport.read(f, phase -> { });
            assertEquals(2, f.cursorCount(), "the report reads the file twice");
            EventRate rate = report.rate();
            assertTrue(rate.buckets() <= EventRate.MAX_BUCKETS, rate.buckets() + " buckets");
            long plotted = 0;
            for (EventRate.Series s : rate.series()) {
                assertEquals(rate.buckets(), s.counts().length);
                plotted += s.total();
            }
            assertEquals(report.summary().totalRecords(), plotted + rate.outliers().count(),
                    "every record in one bucket or an outlier");
            long[] chars = {0};
            HtmlReport.write(report, new Writer() {
                @Override
                public void write(char[] buf, int off, int len) {
                    chars[0] += len;
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            });
            long bound = 4L << 20 /* the page's code and styles, generous */
                    + 512L * (report.summary().providers().size() + report.cpu().stacks().size())
                    + 40L * EventRate.MAX_BUCKETS * rate.series().size();
            assertTrue(chars[0] <= bound, chars[0] + " characters, over " + bound);
        }
    }

    private static Path scratchFile() {
        try {
            Path p = Files.createTempFile("etw4j-fuzz-report", ".etl");
            p.toFile().deleteOnExit();
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
