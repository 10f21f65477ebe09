package org.etw4j.tracelogging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The run-time shape cache the bridges share: built once per shape, bounded, starts over when full. */
class EventShapeCacheTest {

    private static TraceLoggingEvent define(String name) {
        return TraceLoggingEvent.builder(name).stringField("Text").build();
    }

    @Test
    void aShapeIsBuiltOnceAndItsDefinitionReused() {
        EventShapeCache<String, TraceLoggingEvent> cache = new EventShapeCache<>(16);
        AtomicInteger builds = new AtomicInteger();
        TraceLoggingEvent a = cache.get("A", k -> {
            builds.incrementAndGet();
            return define(k);
        });
        TraceLoggingEvent again = cache.get("A", k -> {
            builds.incrementAndGet();
            return define(k);
        });
        assertSame(a, again);
        assertEquals(1, builds.get());
        assertEquals("A", a.name());
        assertEquals(1, cache.size());
    }

    @Test
    void whenFullItStartsOverAndRebuildsADroppedShapeOnItsNextUse() {
        EventShapeCache<Integer, TraceLoggingEvent> cache = new EventShapeCache<>(2);
        TraceLoggingEvent first = cache.get(1, k -> define("E" + k));
        cache.get(2, k -> define("E" + k));
        assertEquals(2, cache.size());
        cache.get(3, k -> define("E" + k)); // full: emptied, then 3 kept
        assertEquals(1, cache.size());
        TraceLoggingEvent rebuilt = cache.get(1, k -> define("E" + k));
        assertEquals(first.name(), rebuilt.name());
        assertEquals(2, cache.size());
    }

    @Test
    void refusesABoundBelowOneAndANullDefinition() {
        assertThrows(IllegalArgumentException.class, () -> new EventShapeCache<String, String>(0));
        EventShapeCache<String, String> cache = new EventShapeCache<>(1);
        assertThrows(NullPointerException.class, () -> cache.get("x", k -> null));
        assertEquals(0, cache.size());
    }
}
