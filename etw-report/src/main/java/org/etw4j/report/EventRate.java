package org.etw4j.report;

import java.util.ArrayList;
import java.util.List;
import org.etw4j.consumer.etl.EtlClock;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlOrder;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.etl.EtlSummary;

/**
 * Records per time bucket over a trace, per provider for the busiest providers and one series for all the others:
 * the data of the report's events-per-second chart.
 *
 * <p>Immutable once built (the count arrays are not copied out: do not modify them); thread-safe for reading. Built
 * by {@link #of} with one file-order pass that allocates nothing per record. Every record the summary counted is in
 * exactly one bucket, so the counts sum to {@link EtlSummary#totalRecords()}.
 *
 * @param startFileTime  FILETIME of the first bucket's start (the trace's first record)
 * @param bucketHundredNs bucket width in 100 ns units, from the 1-2-5 series between 1 ms and 1 hour, the smallest
 *                       that gives at most {@link #MAX_BUCKETS} buckets
 * @param series         the busiest providers (most records first), then {@code other providers} when there are more
 */
public record EventRate(long startFileTime, long bucketHundredNs, List<Series> series) {

    /** At most this many buckets (a chart a screen wide). */
    public static final int MAX_BUCKETS = 400;

    /**
     * Records of one provider (or of the providers not shown on their own) per bucket.
     *
     * @param name   the provider's name as the summary gives it, else its GUID; or {@code other providers}
     * @param counts records per bucket
     * @param others whether this is the series of the providers without one of their own
     */
    public record Series(String name, long[] counts, boolean others) {
        /** Sum of the counts. */
        public long total() {
            long n = 0;
            for (long c : counts) {
                n += c;
            }
            return n;
        }
    }

    public EventRate {
        series = List.copyOf(series);
    }

    /** Number of buckets. */
    public int buckets() {
        return series.isEmpty() ? 0 : series.get(0).counts().length;
    }

    /**
     * Counts the records of {@code file} (summarized as {@code summary}) per bucket, with a series of their own for
     * the {@code maxSeries} providers with the most records.
     */
    public static EventRate of(EtlFile file, EtlSummary summary, int maxSeries) {
        long first = summary.firstFileTime();
        long width = bucketWidth(summary.totalRecords() == 0 ? 0 : summary.lastFileTime() - first);
        int buckets = summary.totalRecords() == 0 ? 0
                : (int) ((summary.lastFileTime() - first) / width) + 1;
        List<EtlSummary.ProviderSummary> providers = summary.providers();
        int own = Math.min(maxSeries, providers.size());
        long[] msb = new long[own];
        long[] lsb = new long[own];
        long[][] counts = new long[own + 1][buckets];
        for (int i = 0; i < own; i++) {
            msb[i] = providers.get(i).id().mostSignificantBits();
            lsb[i] = providers.get(i).id().leastSignificantBits();
        }
        EtlClock clock = file.clock();
        EtlCursor c = file.cursor(EtlOrder.FILE);
        while (c.advance()) {
            EtlRecordView r = c.record();
            long t = clock.toFileTime(r.timestamp());
            int b = (int) Math.max(0, Math.min(buckets - 1, (t - first) / width));
            long m = r.providerIdMostSignificantBits();
            long l = r.providerIdLeastSignificantBits();
            int s = own;
            for (int i = 0; i < own; i++) {
                if (msb[i] == m && lsb[i] == l) {
                    s = i;
                    break;
                }
            }
            counts[s][b]++;
        }
        List<Series> series = new ArrayList<>(own + 1);
        for (int i = 0; i < own; i++) {
            EtlSummary.ProviderSummary p = providers.get(i);
            series.add(new Series(p.name() == null ? p.id().toString() : p.name(), counts[i], false));
        }
        if (providers.size() > own || own == 0) {
            series.add(new Series("other providers", counts[own], true));
        }
        return new EventRate(first, width, series);
    }

    /** The smallest width of the 1-2-5 series (1 ms .. 1 h, in 100 ns units) giving at most MAX_BUCKETS buckets. */
    static long bucketWidth(long durationHundredNs) {
        long w = 10_000; // 1 ms
        int step = 0;
        while ((durationHundredNs / w) + 1 > MAX_BUCKETS && w < 36_000_000_000L) {
            w = switch (step++ % 3) {
                case 0 -> w * 2;  // 1 -> 2
                case 1 -> w / 2 * 5; // 2 -> 5
                default -> w * 2; // 5 -> 10
            };
        }
        return w;
    }
}
