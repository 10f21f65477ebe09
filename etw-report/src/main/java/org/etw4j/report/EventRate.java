package org.etw4j.report;

import java.util.ArrayList;
import java.util.List;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.ReadSetupException;
import org.etw4j.consumer.TraceFile;
import org.etw4j.consumer.etl.EtlClock;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.etl.EtlSummary;

/**
 * Records per time bucket over a trace, per provider for the busiest providers and one series for all the others:
 * the data of the report's events-per-second chart.
 *
 * <p>Immutable once built (the count arrays are not copied out: do not modify them); thread-safe for reading. Built
 * by a {@link Counter} fed every record of one pass (allocating nothing per record), or by {@link #of} with a pass of
 * its own. Every record the summary counted is in exactly one bucket or counted as an {@link Outliers outlier}, so
 * the counts and the outliers sum to {@link EtlSummary#totalRecords()}.
 *
 * <p>Bounded for every trace: at most {@link #MAX_BUCKETS} buckets, whatever the span (the 1-2-5 series of widths
 * goes on past one hour as far as needed). The plotted range is the records' first to last timestamp, cut to the
 * trace's header range ({@code StartTime}..{@code EndTime} of the logfile header) widened by its own length, and by
 * at least a minute, on each side: a garbage timestamp centuries away is then an outlier, not a chart stretched over
 * the centuries (issue 22, item 2). The widening is a named tolerance: perfview__net.4.5.2.x64.etl's records run
 * 2.5 s past its EndTime (PerfView's rundown after the session stopped). A header without a usable range (EndTime
 * not after StartTime) leaves the records' own range.
 *
 * @param startFileTime   FILETIME of the first bucket's start (the first plotted record)
 * @param bucketHundredNs bucket width in 100 ns units, from the 1-2-5 series from 1 ms up, the smallest that gives at
 *                        most {@link #MAX_BUCKETS} buckets
 * @param series          the busiest providers (most records first), then {@code other providers} when there are more
 * @param outliers        the records outside the plotted range
 */
public record EventRate(long startFileTime, long bucketHundredNs, List<Series> series, Outliers outliers) {

    /** At most this many buckets (a chart a screen wide). */
    public static final int MAX_BUCKETS = 400;
    /** The least widening of the header range on each side, in 100 ns units (one minute). */
    static final long MIN_WIDENING = 600_000_000L;

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

    /**
     * The records whose timestamps fall outside the plotted range: counted, not plotted.
     *
     * @param count             how many
     * @param earliestFileTime  the earliest outlier's FILETIME (0 when there is none)
     * @param latestFileTime    the latest outlier's FILETIME (0 when there is none)
     * @param rangeStartFileTime the plotted range's start (FILETIME)
     * @param rangeEndFileTime   the plotted range's end (FILETIME)
     */
    public record Outliers(long count, long earliestFileTime, long latestFileTime, long rangeStartFileTime,
                           long rangeEndFileTime) {
    }

    public EventRate {
        series = List.copyOf(series);
        java.util.Objects.requireNonNull(outliers, "outliers");
    }

    /** Number of buckets. */
    public int buckets() {
        return series.isEmpty() ? 0 : series.get(0).counts().length;
    }

    /** Headers only: the counts need no trace context and no decoding. */
    private static final ReadSettings HEADERS = ReadSettings.builder().traceContext(ReadSettings.TraceContext.NONE)
            .build();

    /**
     * Counts the records of {@code file} (summarized as {@code summary}) per bucket with a pass of its own through
     * the consumer's reader (headers only), with a series of their own for the {@code maxSeries} providers with the
     * most records.
     */
    public static EventRate of(EtlFile file, EtlSummary summary, int maxSeries) {
        Counter counter = new Counter(file.clock(), summary, maxSeries);
        TraceFile in;
        try {
            in = TraceFile.over(HEADERS, List.of(file));
        } catch (ReadSetupException e) {
            throw new IllegalStateException("HEADERS names no manifest: " + e.getMessage(), e);
        }
        while (in.hasMoreEvents()) {
            in.readEvent();
            counter.add(in.record());
        }
        return counter.finish();
    }

    /**
     * Counts records into buckets, one {@link #add} per record of a pass over the whole file (in any order), so that
     * the report can count them during a pass it makes anyway.
     *
     * <p>Not thread-safe; one per pass. Allocates nothing per record.
     */
    public static final class Counter {
        private final EtlClock clock;
        private final EtlSummary summary;
        private final List<EtlSummary.ProviderSummary> providers;
        private final int own;
        private final long[] msb;
        private final long[] lsb;
        private final long[][] counts;
        private final long first;
        private final long last;
        private final long width;
        private final int buckets;
        private long outliers;
        private long earliestOutlier = Long.MAX_VALUE;
        private long latestOutlier = Long.MIN_VALUE;

        /** A counter for the records {@code summary} counted, timestamps converted by {@code clock}. */
        public Counter(EtlClock clock, EtlSummary summary, int maxSeries) {
            this.clock = clock;
            this.summary = summary;
            long[] range = plottedRange(summary);
            first = range[0];
            last = range[1];
            width = bucketWidth(summary.totalRecords() == 0 ? 0 : last - first);
            buckets = summary.totalRecords() == 0 ? 0 : (int) ((last - first) / width) + 1;
            providers = summary.providers();
            own = Math.min(maxSeries, providers.size());
            msb = new long[own];
            lsb = new long[own];
            counts = new long[own + 1][buckets];
            for (int i = 0; i < own; i++) {
                msb[i] = providers.get(i).id().mostSignificantBits();
                lsb[i] = providers.get(i).id().leastSignificantBits();
            }
        }

        /** Counts one record. */
        public void add(EtlRecordView r) {
            long t = clock.toFileTime(r.timestamp());
            if (t < first || t > last || buckets == 0) {
                outliers++;
                earliestOutlier = Math.min(earliestOutlier, t);
                latestOutlier = Math.max(latestOutlier, t);
                return;
            }
            int b = (int) Math.min(buckets - 1, (t - first) / width);
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

        /** The buckets counted so far. */
        public EventRate finish() {
            List<Series> series = new ArrayList<>(own + 1);
            for (int i = 0; i < own; i++) {
                EtlSummary.ProviderSummary p = providers.get(i);
                series.add(new Series(p.label() == null ? p.id().toString() : p.label(), counts[i], false));
            }
            if (providers.size() > own || own == 0) {
                series.add(new Series("other providers", counts[own], true));
            }
            Outliers out = outliers == 0 ? new Outliers(0, 0, 0, first, last)
                    : new Outliers(outliers, earliestOutlier, latestOutlier, first, last);
            return new EventRate(first, width, series, out);
        }

        /** The summary this counter was made for. */
        public EtlSummary summary() {
            return summary;
        }
    }

    /**
     * The plotted range {@code [start, end]} (FILETIMEs) for a trace: its records' range cut to the header range
     * widened by its length, at least {@link #MIN_WIDENING}, on each side.
     */
    static long[] plottedRange(EtlSummary s) {
        long first = s.firstFileTime();
        long last = s.lastFileTime();
        long start = s.header().startTime();
        long end = s.header().endTime();
        if (s.totalRecords() == 0 || start <= 0 || end <= start) {
            return span(first, last);
        }
        long widen = Math.max(MIN_WIDENING, end - start);
        long lo = start - Math.min(widen, start);
        long hi = end > Long.MAX_VALUE - widen ? Long.MAX_VALUE : end + widen;
        long from = Math.max(first, lo);
        long to = Math.min(last, hi);
        return from <= to ? new long[] {from, to} : new long[] {lo, hi};
    }

    /** {@code [first, last]}, its start moved up when the span would overflow a long (the rest are outliers). */
    private static long[] span(long first, long last) {
        return last - first < 0 ? new long[] {last - (Long.MAX_VALUE >> 1), last} : new long[] {first, last};
    }

    /** The smallest width of the 1-2-5 series (from 1 ms, in 100 ns units) giving at most MAX_BUCKETS buckets. */
    static long bucketWidth(long durationHundredNs) {
        long w = 10_000; // 1 ms
        int step = 0;
        while ((durationHundredNs / w) + 1 > MAX_BUCKETS) {
            w = switch (step++ % 3) {
                case 0 -> w * 2;  // 1 -> 2
                case 1 -> w / 2 * 5; // 2 -> 5
                default -> w * 2; // 5 -> 10
            };
        }
        return w;
    }
}
