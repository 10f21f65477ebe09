package org.etw4j.nativebindings.windows;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Maps the ids etw4j hands to native code as callback contexts ({@code EventRegister}'s CallbackContext,
 * {@code EVENT_TRACE_LOGFILEW.Context}) to the Java objects they stand for.
 *
 * <p>Thread-safe. Native code never holds a Java object or an address of one: it holds a number, which an upcall
 * looks up here. Ids are never reused (a 64-bit counter), so a notification carrying the id of a closed object
 * finds nothing and is ignored instead of reaching a successor. Entries are removed by their owner's close.
 *
 * @param <T> what the ids stand for
 */
final class CallbackRegistry<T> {
    /** Ids of all registries come from one counter, so an id of one kind never matches an object of another. */
    private static final AtomicLong NEXT_ID = new AtomicLong(0x4554_5734_0000_0000L); // "ETW4" in the high bits

    private final ConcurrentHashMap<Long, T> entries = new ConcurrentHashMap<>();

    /** Adds {@code value} under a new id and returns the id. */
    long add(T value) {
        long id = NEXT_ID.incrementAndGet();
        entries.put(id, value);
        return id;
    }

    /** The object registered under {@code id}, or null when there is none (never was, or removed: stale). */
    T lookup(long id) {
        return entries.get(id);
    }

    /** Removes {@code id}; later lookups of it return null. */
    void remove(long id) {
        entries.remove(id);
    }

    /** Number of live entries (diagnostics and tests). */
    int size() {
        return entries.size();
    }
}
