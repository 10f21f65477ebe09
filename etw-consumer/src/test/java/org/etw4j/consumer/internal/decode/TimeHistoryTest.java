package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
}
