package org.etw4j.consumer.internal.decode;

import java.util.ArrayList;
import java.util.List;

/**
 * Values per key that change over a trace's time: which value held for a key at a given time.
 * Mutable, not thread-safe for writing (one {@link TraceContext} owns it; once learned, presenters on several threads
 * only read it). Lookup rule, TraceLog's for processes
 * (microsoft/perfview f3ec1b38, TraceLog.cs {@code TraceProcesses.FindProcessAndIndex}): the value recorded last at
 * or before the time; for a time before the first value of the key (events a rundown describes later), the first
 * value. Values recorded with {@link Long#MIN_VALUE} (rundown: held since before the trace began) sort first.
 *
 * <p>Keys are primitive {@code long}s (process, thread ids, IRPs, file keys) in an open-addressing table: a look-up
 * per presented event allocates nothing and boxes nothing (the boxed {@code Integer} keys of a {@code HashMap} were
 * about 5 % of {@code etw dump}'s CPU samples, issue 20).
 *
 * @param <V> value type
 */
final class TimeHistory<V> {

    /** One value and the time from which it holds. */
    record Entry<V>(long from, V value) {
    }

    /** Keys by slot; a slot is taken when its {@link #lists} entry is not null. */
    private long[] keys = new long[16];
    private List<Entry<V>>[] lists = newLists(16);
    private int size;

    @SuppressWarnings("unchecked")
    private static <V> List<Entry<V>>[] newLists(int n) {
        return (List<Entry<V>>[]) new List<?>[n];
    }

    /** Records that {@code value} holds for {@code key} from {@code from} on. Entries are kept in time order. */
    void put(long key, long from, V value) {
        int slot = slot(key);
        List<Entry<V>> l = lists[slot];
        if (l == null) {
            l = new ArrayList<>(1);
            keys[slot] = key;
            lists[slot] = l;
            if (++size * 2 > keys.length) {
                grow();
            }
        }
        l.add(after(l, from), new Entry<>(from, value)); // after the entries of the same time: the later one holds
    }

    /** The value for {@code key} at {@code time} by the rule above, or {@code null} when the key has none. */
    V at(long key, long time) {
        List<Entry<V>> l = lists[slot(key)];
        if (l == null || l.isEmpty()) {
            return null;
        }
        int i = after(l, time);
        return l.get(i == 0 ? 0 : i - 1).value();
    }

    /**
     * The index of the first entry of {@code l} (in time order) recorded from after {@code time}: a binary search,
     * as a key's history can be long (a thread id reused all through a trace; an IRP address used again and again).
     */
    private static <V> int after(List<Entry<V>> l, long time) {
        int lo = 0;
        int hi = l.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (l.get(mid).from() <= time) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The value recorded last for {@code key}, or {@code null}. */
    V latest(long key) {
        List<Entry<V>> l = lists[slot(key)];
        return l == null || l.isEmpty() ? null : l.get(l.size() - 1).value();
    }

    /** Number of keys. */
    int keys() {
        return size;
    }

    /**
     * Every key's entries, keys in ascending order, one line each as {@code key: from=value, ...} with values
     * written by {@code value}: what two histories hold, compared as text (tests of the context pass).
     */
    String describe(java.util.function.Function<? super V, String> value) {
        List<Integer> slots = new ArrayList<>(size);
        for (int i = 0; i < keys.length; i++) {
            if (lists[i] != null) {
                slots.add(i);
            }
        }
        slots.sort((a, b) -> Long.compare(keys[a], keys[b]));
        StringBuilder out = new StringBuilder();
        for (int i : slots) {
            out.append(keys[i]).append(':');
            for (Entry<V> e : lists[i]) {
                out.append(' ').append(e.from()).append('=').append(value.apply(e.value()));
            }
            out.append('\n');
        }
        return out.toString();
    }

    /** The slot of {@code key}: where it is, or the free slot where it would go (linear probing). */
    private int slot(long key) {
        int mask = keys.length - 1;
        int i = (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
        while (lists[i] != null && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void grow() {
        long[] oldKeys = keys;
        List<Entry<V>>[] oldLists = lists;
        keys = new long[oldKeys.length * 2];
        lists = newLists(oldKeys.length * 2);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldLists[i] != null) {
                int s = slot(oldKeys[i]);
                keys[s] = oldKeys[i];
                lists[s] = oldLists[i];
            }
        }
    }
}
