package org.etw4j.consumer.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pairs Start and Stop events into activities, the rule {@link Timeline} draws slices with. Not thread-safe; one per
 * read. Memory: one entry per activity still open, never per event.
 *
 * <p>The rule. Only EVENT_HEADER events (manifest, EventSource, TraceLogging) take part: their descriptor's opcode 1
 * is {@code win:Start} and 2 {@code win:Stop} (winmeta.xml; MS Learn, "EVENT_DESCRIPTOR structure (evntprov.h)" and
 * "EventOpcode Enum": Start "is published when an application starts a new transaction or activity", Stop
 * "corresponds to the last unpaired event that has a Start operation code"). Classic (MOF) events are left out:
 * their types 1/2 ({@code EVENT_TRACE_TYPE_START/END}, evntrace.h) mark object lifetimes such as the kernel's
 * Process and Thread Start/End, logged on other threads than each other, which the timeline shows as tracks.
 * <ul>
 *   <li>An event with an activity id (not GUID_NULL) belongs to the activity keyed by (provider, task, activity id):
 *       EventSource gives each Start a new activity id and logs the matching Stop with the same id and task
 *       (MS Learn, "EventSource Activity IDs"); TraceLogging's activity start/stop events carry their activity's
 *       id. Start and Stop may be on different threads.</li>
 *   <li>An event without one (GUID_NULL) is keyed by (provider, task, process, thread): the Stop must come on the
 *       thread that logged the Start (the CLR's GC/Start and GC/Stop, for instance).</li>
 *   <li>Within a key, a Stop closes the last Start still open (nesting, as the opcode documentation says).</li>
 *   <li>A Stop no open Start of its key precedes is a {@linkplain Listener#unmatchedStop stop without start}; Starts
 *       still open when the trace ends are {@linkplain #finish starts without stop}. Both are counted and handed to
 *       the listener, never dropped.</li>
 * </ul>
 *
 * @param <T> what the caller keeps of a Start until its Stop comes (for the slice it draws)
 */
final class StartStopPairing<T> {

    /** {@code win:Start} (winmeta.xml, WINEVENT_OPCODE_START). */
    static final int OPCODE_START = 1;
    /** {@code win:Stop} (winmeta.xml, WINEVENT_OPCODE_STOP). */
    static final int OPCODE_STOP = 2;

    /** What pairing found. */
    interface Listener<T> {
        /** A Start at {@code startTime} and the Stop at {@code stopTime} that closes it. */
        void matched(T start, long startTime, long stopTime, T stop);

        /** A Stop with no open Start of its key. */
        void unmatchedStop(T stop, long time);

        /** A Start still open when the trace ended. */
        void unmatchedStart(T start, long time);
    }

    /**
     * The key of an activity: provider, task and either the activity id or, when it is GUID_NULL, process and
     * thread ({@code byThread}).
     */
    record Key(long providerMsb, long providerLsb, int task, boolean byThread, long activityMsb, long activityLsb,
               int processId, int threadId) {

        static Key of(long providerMsb, long providerLsb, int task, long activityMsb, long activityLsb, int pid,
                      int tid) {
            boolean byThread = activityMsb == 0 && activityLsb == 0;
            return byThread ? new Key(providerMsb, providerLsb, task, true, 0, 0, pid, tid)
                    : new Key(providerMsb, providerLsb, task, false, activityMsb, activityLsb, 0, 0);
        }
    }

    private record Open<T>(T value, long time) {
    }

    private final Map<Key, ArrayDeque<Open<T>>> open = new HashMap<>();
    private final Listener<T> listener;
    private long matched;
    private long unmatchedStops;
    private long unmatchedStarts;
    private int openNow;

    StartStopPairing(Listener<T> listener) {
        this.listener = listener;
    }

    /** Whether an event with this header takes part (see the rule above). */
    static boolean takesPart(boolean classic, int opcode) {
        return !classic && (opcode == OPCODE_START || opcode == OPCODE_STOP);
    }

    /** A Start event at {@code time}. */
    void start(Key key, long time, T value) {
        open.computeIfAbsent(key, k -> new ArrayDeque<>(2)).addLast(new Open<>(value, time));
        openNow++;
    }

    /** A Stop event at {@code time}. */
    void stop(Key key, long time, T value) {
        ArrayDeque<Open<T>> q = open.get(key);
        if (q == null || q.isEmpty()) {
            unmatchedStops++;
            listener.unmatchedStop(value, time);
            return;
        }
        Open<T> s = q.removeLast();
        if (q.isEmpty()) {
            open.remove(key);
        }
        openNow--;
        matched++;
        listener.matched(s.value(), s.time(), time, value);
    }

    /** Ends the read: every Start still open goes to {@link Listener#unmatchedStart}, oldest first. */
    void finish() {
        List<Open<T>> left = new ArrayList<>(openNow);
        for (ArrayDeque<Open<T>> q : open.values()) {
            left.addAll(q);
        }
        open.clear();
        openNow = 0;
        left.sort((a, b) -> Long.compare(a.time(), b.time()));
        for (Open<T> s : left) {
            unmatchedStarts++;
            listener.unmatchedStart(s.value(), s.time());
        }
    }

    /** Number of Start/Stop pairs matched. */
    long matched() {
        return matched;
    }

    /** Number of Stops without an open Start. */
    long unmatchedStops() {
        return unmatchedStops;
    }

    /** Number of Starts still open at {@link #finish()}. */
    long unmatchedStarts() {
        return unmatchedStarts;
    }

    /** Number of activities open now. */
    int openCount() {
        return openNow;
    }
}
