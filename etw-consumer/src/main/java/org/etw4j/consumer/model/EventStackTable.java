package org.etw4j.consumer.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The stacks of a trace's events, found by (raw timestamp, thread). Mutable while {@link TraceModel}'s second pass
 * fills it, read-only after {@link #freeze()}; not thread-safe while filled.
 *
 * <p>Memory: distinct stacks are kept once (interned frame lists); per stacked event 21 bytes (timestamp, thread,
 * process, stack index, completeness), in arrays sorted once at the end. This is the one table of the model that
 * grows with the number of events, and only with those that carry a stack.
 */
final class EventStackTable {

    private final Map<List<StackFrame>, Integer> ids = new HashMap<>();
    private final List<List<StackFrame>> stacks = new ArrayList<>();
    private long[] raw = new long[256];
    private int[] tid = new int[256];
    private int[] pid = new int[256];
    private int[] stack = new int[256];
    private boolean[] complete = new boolean[256];
    private int size;

    void add(long rawTime, int threadId, int processId, List<StackFrame> frames, boolean whole) {
        if (size == raw.length) {
            int n = size * 2;
            raw = Arrays.copyOf(raw, n);
            tid = Arrays.copyOf(tid, n);
            pid = Arrays.copyOf(pid, n);
            stack = Arrays.copyOf(stack, n);
            complete = Arrays.copyOf(complete, n);
        }
        Integer id = ids.get(frames);
        if (id == null) {
            id = stacks.size();
            List<StackFrame> copy = List.copyOf(frames);
            stacks.add(copy);
            ids.put(copy, id);
        }
        raw[size] = rawTime;
        tid[size] = threadId;
        pid[size] = processId;
        stack[size] = id;
        complete[size] = whole;
        size++;
    }

    /** Sorts by (timestamp, thread), keeping the order of arrival among equals; drops the interning map. */
    void freeze() {
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> raw[a] != raw[b] ? Long.compare(raw[a], raw[b]) : Integer.compare(tid[a], tid[b]));
        long[] r = new long[size];
        int[] t = new int[size];
        int[] p = new int[size];
        int[] s = new int[size];
        boolean[] c = new boolean[size];
        for (int i = 0; i < size; i++) {
            int j = order[i];
            r[i] = raw[j];
            t[i] = tid[j];
            p[i] = pid[j];
            s[i] = stack[j];
            c[i] = complete[j];
        }
        raw = r;
        tid = t;
        pid = p;
        stack = s;
        complete = c;
        ids.clear();
    }

    /**
     * The stack of the event of thread {@code threadId} at {@code rawTime}; with {@code threadId == -1} (a record
     * header without a thread) the only stack at that time, else {@code null}. Two stacked events of one thread
     * with the same timestamp: the first in trace order.
     */
    EventStack find(long rawTime, int threadId) {
        int i = first(rawTime);
        if (i < 0) {
            return null;
        }
        if (threadId == -1) {
            for (int j = i + 1; j < size && raw[j] == rawTime; j++) {
                if (tid[j] != tid[i]) {
                    return null; // ambiguous
                }
            }
            return at(i);
        }
        for (; i < size && raw[i] == rawTime; i++) {
            if (tid[i] == threadId) {
                return at(i);
            }
        }
        return null;
    }

    private int first(long rawTime) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (raw[mid] < rawTime) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < size && raw[lo] == rawTime ? lo : -1;
    }

    private EventStack at(int i) {
        return new EventStack(pid[i], tid[i], raw[i], stacks.get(stack[i]), complete[i]);
    }

    /** Number of events with a stack. */
    int size() {
        return size;
    }

    /** Number of distinct stacks. */
    int distinct() {
        return stacks.size();
    }
}
