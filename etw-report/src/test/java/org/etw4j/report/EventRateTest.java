package org.etw4j.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlSummary;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link EventRate}: bucket widths, and every record of the corpus traces in exactly one bucket. */
class EventRateTest {

    @ParameterizedTest
    @CsvSource({
        "0, 10000",                // an empty or one-instant trace: 1 ms
        "3990000, 10000",          // 399 ms: 400 buckets of 1 ms
        "4000000, 20000",          // 400 ms would need 401 buckets of 1 ms: 2 ms
        "125820000, 500000",       // 12.582 s (perfview__net.4.5.2.x64.etl): 252 buckets of 50 ms
        "7990000000, 20000000",    // 799 s: 2 s
        "8000000000, 50000000",    // 800 s: 5 s
        "143640000000, 500000000", // 3.99 h: 50 s (before issue 22 the series stopped at 1 h: 4 buckets of 1 h)
        "8200000000000000, 50000000000000", // 26,000 years: 5 million s (an hour's buckets: 227 million of them)
        "9223372036854775807, 50000000000000000" // the longest span a long holds
    })
    void widthIsTheSmallestOfTheOneTwoFiveSeriesWithAtMost400BucketsForEverySpan(long duration, long width) {
        assertEquals(width, EventRate.bucketWidth(duration));
        assertTrue(duration / width + 1 <= EventRate.MAX_BUCKETS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"perfview__net.4.5.2.x64.etl", "perfview__gcevents.etl", "krabsetw__powershell.etl",
        "perfview__smallEtlFile.etl", "airbus__lxcore_kernel.etl"})
    void countsSumToTheSummaryPerProviderAndInAll(String name) throws IOException {
        Path etl = SharedData.resolve("etl-corpus/" + name);
        try (EtlFile f = EtlFile.open(etl)) {
            EtlSummary s = EtlSummary.of(f);
            EventRate r = EventRate.of(f, s, 3);
            long all = 0;
            for (int i = 0; i < r.series().size(); i++) {
                EventRate.Series x = r.series().get(i);
                assertEquals(r.buckets(), x.counts().length);
                if (!x.others()) {
                    assertEquals(s.providers().get(i).records(), x.total(), x.name());
                }
                all += x.total();
            }
            assertEquals(s.totalRecords(), all, "every record in one bucket");
            assertEquals(s.providers().size() > 3, r.series().get(r.series().size() - 1).others());
            assertEquals((s.lastFileTime() - s.firstFileTime()) / r.bucketHundredNs() + 1, r.buckets());
            assertEquals(s.firstFileTime(), r.startFileTime());
        }
    }
}
