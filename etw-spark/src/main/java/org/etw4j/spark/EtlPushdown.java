package org.etw4j.spark;

import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.etw4j.consumer.etl.EtlClock;

/**
 * The filters the {@code etl} reader applies itself: provider id, event id, level (equality, IN, ranges), and the
 * time range on {@code timestamp} or {@code filetime}, which also skips whole buffers. Spark still evaluates every
 * filter after the scan ({@link EtlScanBuilder#pushFilters} returns them all), so a pushed filter only saves work
 * and never decides the answer alone.
 *
 * <p>Immutable after {@link #of}; thread-safe; serializable (shipped to executors). The time bounds are kept as
 * FILETIME (100-ns) values, inclusive, derived exactly from the microsecond comparison the {@code timestamp}
 * column makes ({@code timestamp = floor((filetime - 1970 epoch) / 10)} microseconds).
 */
final class EtlPushdown implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final long EPOCH = EtlClock.FILETIME_UNIX_EPOCH;

    /** Lower-case GUID text, or null for any. */
    private Set<String> providerIds;
    private Set<Integer> eventIds;
    private int levelMin = Integer.MIN_VALUE;
    private int levelMax = Integer.MAX_VALUE;
    private long fileTimeMin = Long.MIN_VALUE;
    private long fileTimeMax = Long.MAX_VALUE;
    private final List<Filter> used = new ArrayList<>();

    private EtlPushdown() {
    }

    /** No filter. */
    static EtlPushdown none() {
        return new EtlPushdown();
    }

    /** The pushable part of {@code filters} (Spark ANDs them). */
    static EtlPushdown of(Filter[] filters) {
        EtlPushdown p = new EtlPushdown();
        for (Filter f : filters) {
            if (p.take(f)) {
                p.used.add(f);
            }
        }
        return p;
    }

    /** The filters this reader applies (for {@code explain()}). */
    Filter[] used() {
        return used.toArray(new Filter[0]);
    }

    boolean hasTimeBounds() {
        return fileTimeMin != Long.MIN_VALUE || fileTimeMax != Long.MAX_VALUE;
    }

    long fileTimeMin() {
        return fileTimeMin;
    }

    /** Whether a record with these header values can pass. */
    boolean accepts(String providerIdLowerCase, int eventId, int level, long fileTime) {
        return (providerIds == null || providerIds.contains(providerIdLowerCase))
                && (eventIds == null || eventIds.contains(eventId))
                && level >= levelMin && level <= levelMax
                && fileTime >= fileTimeMin && fileTime <= fileTimeMax;
    }

    /**
     * Whether a buffer flushed at {@code flushFileTime} can hold a record that passes: every record of a buffer is
     * logged before the buffer is flushed (etw-formats.md 3.2, TimeStamp "flush time"; EtlBufferRangeTest checks it
     * on the corpus), so a buffer flushed before the lower bound holds none. {@code unset}: the writer left the
     * TimeStamp at 0 and nothing is known.
     */
    boolean mayHoldMatches(long flushFileTime, boolean unset) {
        return unset || flushFileTime >= fileTimeMin;
    }

    private boolean take(Filter f) {
        if (f instanceof And a) {
            // Both sides narrow; take what is pushable of each (the rest is Spark's post-filter).
            boolean l = take(a.left());
            boolean r = take(a.right());
            return l && r;
        }
        if (f instanceof EqualTo e) {
            return equal(e.attribute(), e.value());
        }
        if (f instanceof In in) {
            return in(in.attribute(), in.values());
        }
        if (f instanceof GreaterThan g) {
            return bound(g.attribute(), g.value(), true, false);
        }
        if (f instanceof GreaterThanOrEqual g) {
            return bound(g.attribute(), g.value(), true, true);
        }
        if (f instanceof LessThan l) {
            return bound(l.attribute(), l.value(), false, false);
        }
        if (f instanceof LessThanOrEqual l) {
            return bound(l.attribute(), l.value(), false, true);
        }
        return false;
    }

    private boolean equal(String attribute, Object value) {
        if (value == null) {
            return false;
        }
        return in(attribute, new Object[] {value})
                || (bound(attribute, value, true, true) && bound(attribute, value, false, true));
    }

    private boolean in(String attribute, Object[] values) {
        switch (attribute) {
            case "provider_id" -> {
                Set<String> s = new HashSet<>();
                for (Object v : values) {
                    if (v instanceof String str) {
                        s.add(str.toLowerCase(Locale.ROOT));
                    }
                }
                providerIds = intersect(providerIds, s);
                return true;
            }
            case "event_id" -> {
                Set<Integer> s = new HashSet<>();
                for (Object v : values) {
                    if (v instanceof Integer i) {
                        s.add(i);
                    }
                }
                eventIds = intersect(eventIds, s);
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    private static <T> Set<T> intersect(Set<T> old, Set<T> add) {
        if (old == null) {
            return add;
        }
        old.retainAll(add);
        return old;
    }

    private boolean bound(String attribute, Object value, boolean lower, boolean inclusive) {
        switch (attribute) {
            case "level" -> {
                if (!(value instanceof Integer v)) {
                    return false;
                }
                if (lower) {
                    levelMin = Math.max(levelMin, inclusive ? v : v + 1);
                } else {
                    levelMax = Math.min(levelMax, inclusive ? v : v - 1);
                }
                return true;
            }
            case "filetime" -> {
                if (!(value instanceof Long v)) {
                    return false;
                }
                narrow(lower, inclusive ? v : (lower ? v + 1 : v - 1));
                return true;
            }
            case "timestamp" -> {
                Long micros = micros(value);
                if (micros == null) {
                    return false;
                }
                long m = micros;
                // timestamp > m  <=>  floor((ft - EPOCH) / 10) >= m + 1  <=>  ft >= (m + 1) * 10 + EPOCH
                // timestamp <= m <=>  ft < (m + 1) * 10 + EPOCH
                long first = (lower == inclusive ? m : m + 1) * 10 + EPOCH;
                narrow(lower, lower ? first : first - 1);
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    private void narrow(boolean lower, long fileTime) {
        if (lower) {
            fileTimeMin = Math.max(fileTimeMin, fileTime);
        } else {
            fileTimeMax = Math.min(fileTimeMax, fileTime);
        }
    }

    /** Microseconds since 1970 of a timestamp literal (Timestamp, or Instant with the Java 8 time API). */
    private static Long micros(Object v) {
        Instant i;
        if (v instanceof Timestamp t) {
            i = t.toInstant();
        } else if (v instanceof Instant in) {
            i = in;
        } else {
            return null;
        }
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
    }

    @Override
    public String toString() {
        return "EtlPushdown" + used;
    }
}
