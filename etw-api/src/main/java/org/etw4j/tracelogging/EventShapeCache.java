package org.etw4j.tracelogging;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * TraceLogging definitions made at run time, by shape: for code that defines its events while it runs (a bridge
 * whose event fields follow a log record's context keys, a span's attributes or a JFR event type), so that each
 * shape is built once and its {@link TraceLoggingEvent} (metadata bytes and all) is reused for every event of that
 * shape. The key is whatever identifies a shape for the caller; the value is the definition, or a caller's record
 * holding it.
 *
 * <p>Thread-safe: lookups of kept shapes take no lock and allocate nothing. Bounded: it keeps at most
 * {@code maxEntries} shapes and, when full, empties itself and starts over (as {@link TraceLoggingSchemaCache}
 * does), so shapes that vary without end (ever new attribute or context-key sets) cannot grow memory without end;
 * a shape dropped that way is built again on its next use. Two threads meeting a new shape at once may both build
 * it; one result is kept and both callers get a definition of that shape. Nothing to close.
 *
 * @param <K> what identifies a shape (with {@code equals}/{@code hashCode})
 * @param <V> the definition kept per shape
 */
public final class EventShapeCache<K, V> {

    private final ConcurrentHashMap<K, V> shapes = new ConcurrentHashMap<>();
    private final int maxEntries;

    /** A cache of at most {@code maxEntries} (>= 1) shapes. */
    public EventShapeCache(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be >= 1, got " + maxEntries);
        }
        this.maxEntries = maxEntries;
    }

    /**
     * The definition of {@code shape}: the kept one, or {@code build}'s (called on first use, outside any lock;
     * it must not return null), kept from now on.
     */
    public V get(K shape, Function<? super K, ? extends V> build) {
        V kept = shapes.get(shape);
        if (kept != null) {
            return kept;
        }
        V built = Objects.requireNonNull(build.apply(shape), "the built shape");
        if (shapes.size() >= maxEntries) {
            shapes.clear();
        }
        V raced = shapes.putIfAbsent(shape, built);
        return raced != null ? raced : built;
    }

    /** How many shapes are kept now. */
    public int size() {
        return shapes.size();
    }
}
