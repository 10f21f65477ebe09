package org.etw4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.StringStartsWith;
import org.etw4j.consumer.etl.EtlClock;
import org.junit.jupiter.api.Test;

/**
 * The reader-side filters agree with the column values Spark compares: a timestamp bound in microseconds becomes
 * the exact FILETIME bound ({@code timestamp = floor((filetime - epoch) / 10)}), at the edges of both roundings.
 */
class EtlPushdownTest {
    private static final long E = EtlClock.FILETIME_UNIX_EPOCH;
    private static final String P = "22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716";

    private static boolean at(EtlPushdown p, long fileTime) {
        return p.accepts(P, 1, 4, fileTime);
    }

    @Test
    void timestampBoundsAreExactAtTheMicrosecondEdges() {
        long m = 1_600_000_000_123_456L; // micros since 1970
        Instant i = Instant.ofEpochSecond(m / 1_000_000, m % 1_000_000 * 1000);
        long first = m * 10 + E; // the first FILETIME whose timestamp is m
        long last = first + 9; // the last
        EtlPushdown gt = EtlPushdown.of(new Filter[] {new GreaterThan("timestamp", i)});
        assertFalse(at(gt, last));
        assertTrue(at(gt, last + 1));
        EtlPushdown ge = EtlPushdown.of(new Filter[] {new GreaterThanOrEqual("timestamp", java.sql.Timestamp.from(i))});
        assertFalse(at(ge, first - 1));
        assertTrue(at(ge, first));
        EtlPushdown lt = EtlPushdown.of(new Filter[] {new LessThan("timestamp", i)});
        assertTrue(at(lt, first - 1));
        assertFalse(at(lt, first));
        EtlPushdown le = EtlPushdown.of(new Filter[] {new LessThanOrEqual("timestamp", i)});
        assertTrue(at(le, last));
        assertFalse(at(le, last + 1));
        EtlPushdown eq = EtlPushdown.of(new Filter[] {new EqualTo("timestamp", i)});
        assertFalse(at(eq, first - 1));
        assertTrue(at(eq, first) && at(eq, last));
        assertFalse(at(eq, last + 1));
        // A buffer flushed before the lower bound cannot hold a match; one flushed at it can; an unset flush time
        // says nothing.
        assertFalse(ge.mayHoldMatches(first - 1, false));
        assertTrue(ge.mayHoldMatches(first, false));
        assertTrue(ge.mayHoldMatches(0, true));
    }

    @Test
    void headerFiltersAndWhatIsNotPushed() {
        EtlPushdown p = EtlPushdown.of(new Filter[] {
            new EqualTo("provider_id", P.toUpperCase()), new In("event_id", new Object[] {1, 2}),
            new GreaterThan("level", 1), new LessThanOrEqual("level", 4), new StringStartsWith("event_name", "GC")});
        assertEquals(4, p.used().length, "event_name is Spark's to filter");
        assertTrue(p.accepts(P, 2, 4, 0));
        assertFalse(p.accepts(P, 3, 4, 0));
        assertFalse(p.accepts(P, 1, 1, 0));
        assertFalse(p.accepts(P, 1, 5, 0));
        assertFalse(p.accepts("00000000-0000-0000-0000-000000000000", 1, 4, 0));
        assertTrue(EtlPushdown.none().accepts(P, 99, 255, Long.MIN_VALUE));
    }

    @Test
    void loadWithSeveralPathsPassesThemAsAJsonArray() {
        assertEquals(List.of("/a/x.etl", "/b/\"q\".etl", "/c/\u00e9.etl"),
                EtlOptions.jsonStrings("[\"/a/x.etl\",\"/b/\\\"q\\\".etl\",\"/c/\\u00e9.etl\"]"));
    }
}
