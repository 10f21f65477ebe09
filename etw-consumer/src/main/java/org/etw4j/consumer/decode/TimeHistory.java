package org.etw4j.consumer.decode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Values per key that change over a trace's time: which value held for a key at a given time.
 * Mutable, not thread-safe (one {@link TraceContext} owns it). Lookup rule, TraceLog's for processes
 * (microsoft/perfview f3ec1b38, TraceLog.cs {@code TraceProcesses.FindProcessAndIndex}): the value recorded last at
 * or before the time; for a time before the first value of the key (events a rundown describes later), the first
 * value. Values recorded with {@link Long#MIN_VALUE} (rundown: held since before the trace began) sort first.
 *
 * @param <K> key type
 * @param <V> value type
 */
final class TimeHistory<K, V> {

    /** One value and the time from which it holds. */
    record Entry<V>(long from, V value) {
    }

    private final Map<K, List<Entry<V>>> byKey = new HashMap<>();

    /** Records that {@code value} holds for {@code key} from {@code from} on. Entries are kept in time order. */
    void put(K key, long from, V value) {
        List<Entry<V>> l = byKey.computeIfAbsent(key, k -> new ArrayList<>(1));
        int i = l.size();
        while (i > 0 && l.get(i - 1).from() > from) {
            i--;
        }
        l.add(i, new Entry<>(from, value));
    }

    /** The value for {@code key} at {@code time} by the rule above, or {@code null} when the key has none. */
    V at(K key, long time) {
        List<Entry<V>> l = byKey.get(key);
        if (l == null || l.isEmpty()) {
            return null;
        }
        for (int i = l.size() - 1; i >= 0; i--) {
            if (l.get(i).from() <= time) {
                return l.get(i).value();
            }
        }
        return l.get(0).value();
    }

    /** The value recorded last for {@code key}, or {@code null}. */
    V latest(K key) {
        List<Entry<V>> l = byKey.get(key);
        return l == null || l.isEmpty() ? null : l.get(l.size() - 1).value();
    }

    /** Number of keys. */
    int keys() {
        return byKey.size();
    }
}
