package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link TimeHistory}: TraceLog's look-up rule, over its primitive-keyed table (growth, collisions, any key). */
class TimeHistoryTest {

    @Test
    void theValueAtOrBeforeTheTimeElseTheFirst() {
        TimeHistory<String> h = new TimeHistory<>();
        h.put(4, 100, "b");
        h.put(4, Long.MIN_VALUE, "a"); // a rundown: held since before the trace, sorts first
        h.put(4, 300, "c");
        assertEquals("a", h.at(4, 50));
        assertEquals("b", h.at(4, 100));
        assertEquals("b", h.at(4, 299));
        assertEquals("c", h.at(4, 301));
        assertEquals("c", h.latest(4));
        assertNull(h.at(5, 100));
        assertNull(h.latest(5));
    }

    @Test
    void everyKeyKeepsItsOwnHistoryThroughGrowthAndCollisions() {
        TimeHistory<Long> h = new TimeHistory<>();
        long[] keys = new long[5000];
        for (int i = 0; i < keys.length; i++) {
            // ids, IRP addresses, 0, -1 and keys equal modulo every power of two up to 2^16
            keys[i] = i % 4 == 0 ? (long) i << 16 : i % 4 == 1 ? 0xffffa00000000000L + i * 64L : i % 4 == 2 ? -i : i;
        }
        for (int round = 0; round < 2; round++) {
            for (long k : keys) {
                h.put(k, round * 10, k + round);
            }
        }
        assertEquals(keys.length, h.keys());
        for (long k : keys) {
            assertEquals(k, h.at(k, 5));
            assertEquals(k + 1, h.at(k, 10));
            assertEquals(k + 1, h.latest(k));
        }
        TimeHistory<Long> one = new TimeHistory<>();
        one.put(-1, 10, 0L);
        one.put(-1, 0, -1L);
        assertEquals("-1: 0=-1 10=0\n", one.describe(String::valueOf));
    }

    @Test
    void edgesBeforeTheFirstOnEqualTimesAndAfterTheLast() {
        TimeHistory<String> h = new TimeHistory<>();
        h.put(7, 200, "x");
        h.put(7, 100, "p");
        h.put(7, 100, "q"); // equal times: the one recorded later holds from then on
        h.put(7, 100, "r");
        h.put(7, 200, "y");
        assertEquals("p", h.at(7, 99)); // before the first: the first
        assertEquals("p", h.at(7, Long.MIN_VALUE));
        assertEquals("r", h.at(7, 100));
        assertEquals("r", h.at(7, 199));
        assertEquals("y", h.at(7, 200));
        assertEquals("y", h.at(7, Long.MAX_VALUE)); // after the last: the last
        assertEquals("y", h.latest(7));
        assertEquals("7: 100=p 100=q 100=r 200=x 200=y\n", h.describe(v -> v));

        TimeHistory<String> one = new TimeHistory<>();
        one.put(1, 50, "only");
        assertEquals("only", one.at(1, 49));
        assertEquals("only", one.at(1, 50));
        assertEquals("only", one.at(1, 51));

        TimeHistory<String> rundown = new TimeHistory<>();
        rundown.put(2, Long.MIN_VALUE, "r1");
        rundown.put(2, Long.MIN_VALUE, "r2");
        assertEquals("r2", rundown.at(2, Long.MIN_VALUE));
        assertEquals("r2", rundown.at(2, 0));
    }

    /** Against the rule written as a scan of every entry, on histories put in any order with many equal times. */
    @Test
    void theLookUpIsTheRuleOnLongHistoriesPutInAnyOrder() {
        Random random = new Random(19);
        for (int key = 0; key < 40; key++) {
            TimeHistory<Integer> h = new TimeHistory<>();
            List<long[]> puts = new ArrayList<>(); // {from, value}, in put order
            int n = 1 + random.nextInt(key < 10 ? 3 : 200);
            for (int v = 0; v < n; v++) {
                long from = random.nextInt(8) == 0 ? Long.MIN_VALUE : random.nextInt(50) * 10L;
                h.put(key, from, v);
                puts.add(new long[] {from, v});
            }
            for (long t = -20; t <= 520; t += 5) {
                assertEquals(rule(puts, t), h.at(key, t), "key " + key + " at " + t);
            }
            assertEquals(rule(puts, Long.MAX_VALUE), h.latest(key));
        }
    }

    /** The value recorded last among those with the greatest time at or before {@code t}; else the earliest-timed. */
    private static Integer rule(List<long[]> puts, long t) {
        long[] best = null;
        long[] first = null;
        for (long[] p : puts) {
            if (p[0] <= t && (best == null || p[0] >= best[0])) {
                best = p;
            }
            if (first == null || p[0] < first[0]) {
                first = p;
            }
        }
        return (int) (best != null ? best : first)[1];
    }
}
