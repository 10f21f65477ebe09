package org.etw4j.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlSummary;
import org.etw4j.consumer.model.TraceModel;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How {@link TraceReport#read} reads a file: twice (issue 20, target 3; it was four times), with the same summary and
 * buckets as separate passes give, and a bounded chart whatever the records' timestamps (issue 22, item 2).
 */
class TraceReportReadTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"perfview__net.4.5.2.x64.etl", "krabsetw__powershell.etl", "perfview__gcevents.etl"})
    void theReportReadsEachFileTwiceAndCountsWhatSeparatePassesCount(String name) throws IOException {
        Path etl = SharedData.resolve("etl-corpus/" + name);
        EtlSummary separateSummary;
        EventRate separateRate;
        try (EtlFile f = EtlFile.open(etl)) {
            // The composition before issue 20: summary pass, rate pass, the model's two passes.
            separateSummary = EtlSummary.of(f);
            separateRate = EventRate.of(f, separateSummary, TraceReport.CHART_PROVIDERS);
            TraceModel.read(List.of(f));
            assertEquals(4, f.cursorCount(), "passes before");
        }
        try (EtlFile f = EtlFile.open(etl)) {
            TraceReport report = TraceReport.read(f, phase -> { });
            assertEquals(2, f.cursorCount(), "passes now");
            assertEquals(separateSummary, report.summary());
            assertEquals(separateRate.startFileTime(), report.rate().startFileTime());
            assertEquals(separateRate.bucketHundredNs(), report.rate().bucketHundredNs());
            assertEquals(separateRate.outliers(), report.rate().outliers());
            assertEquals(separateRate.series().size(), report.rate().series().size());
            for (int i = 0; i < separateRate.series().size(); i++) {
                EventRate.Series a = separateRate.series().get(i);
                EventRate.Series b = report.rate().series().get(i);
                assertEquals(a.name(), b.name());
                assertArrayEquals(a.counts(), b.counts(), a.name());
            }
            assertEquals(0, report.rate().outliers().count(), "the corpus' records are inside their header range");
        }
    }

    @Test
    void aTimestampCenturiesAwayIsAnOutlierNotAChartOverTheCenturies() throws IOException {
        // ../shared/hardening/mk_future_ts.sh: one EVENT_HEADER record of krabsetw__powershell.etl (file offset 9624)
        // gets the raw timestamp 0x7000000000000000 (about 26,000 years later). Before the fix: one-hour buckets over
        // the whole span, 6 GB of memory and a 645 MB page (repro_report_rate_buckets.sh).
        byte[] b = Files.readAllBytes(SharedData.resolve("etl-corpus/krabsetw__powershell.etl"));
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(9624 + 16, 0x7000_0000_0000_0000L);
        Path future = tmp.resolve("future.etl");
        Files.write(future, b);
        try (EtlFile f = EtlFile.open(future)) {
            TraceReport report = TraceReport.read(f, phase -> { });
            EventRate rate = report.rate();
            assertTrue(rate.buckets() <= EventRate.MAX_BUCKETS, rate.buckets() + " buckets");
            EventRate.Outliers out = rate.outliers();
            assertEquals(1, out.count());
            assertEquals(f.clock().toFileTime(0x7000_0000_0000_0000L), out.latestFileTime());
            long plotted = rate.series().stream().mapToLong(EventRate.Series::total).sum();
            assertEquals(report.summary().totalRecords(), plotted + out.count(), "every record plotted or counted");
            assertEquals(report.summary().firstFileTime(), rate.startFileTime());
            assertTrue(out.rangeEndFileTime() <= f.header().endTime() + Math.max(EventRate.MIN_WIDENING,
                    f.header().endTime() - f.header().startTime()));
            StringWriter page = new StringWriter();
            HtmlReport.write(report, page);
            assertTrue(page.toString().contains("\"outliers\":{\"count\":1,\"earliest\":\""), "the page says so");
            assertTrue(page.toString().length() < 200_000, page.toString().length() + " characters");
        }
    }
}
