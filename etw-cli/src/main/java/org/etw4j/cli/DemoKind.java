package org.etw4j.cli;

import org.etw4j.EventDescriptor;
import org.etw4j.Opcode;

/**
 * The kinds of event {@code etw demo} writes, with what each of its two sessions should receive and why.
 *
 * <p>Enum constants: immutable, thread-safe. The expectations are written out by hand from the rules of MS Learn, EVENT_DESCRIPTOR structure
 * (level: {@code event.level <= session level}; keyword: {@code keyword == 0 || (keyword & MatchAnyKeyword) != 0};
 * IGNORE_KEYWORD_0 drops keyword-0 events; an EventIds deny filter drops the listed ids), for the sessions
 * {@link DemoCommand} starts:
 * <ul>
 *   <li>A: level 4 (INFORMATIONAL), MatchAnyKeyword 0x1;</li>
 *   <li>B: level 5 (VERBOSE), every keyword, IGNORE_KEYWORD_0, EventIds deny {3}.</li>
 * </ul>
 * They are not computed from the filter code: the demo checks the engine against them.
 */
enum DemoKind {
    REQUEST_RECEIVED("RequestReceived", DemoEvents.REQUEST_RECEIVED, Count.PER_ROUND,
            true, true, "manifest event"),
    REQUEST_DETAIL("RequestDetail", DemoEvents.REQUEST_DETAIL, Count.PER_ROUND,
            false, true, "A: level 5 is above A's 4"),
    CACHE_MISS("CacheMiss", DemoEvents.CACHE_MISS, Count.PER_ROUND,
            false, false, "A: keyword 0x2 not in A's 0x1; B: id 3 denied by B's EventIds filter"),
    SLOW_REQUEST("SlowRequest", DemoEvents.SLOW_REQUEST, Count.PER_ROUND,
            true, false, "A: keyword 0 passes any mask; B: keyword 0 dropped (IGNORE_KEYWORD_0)"),
    TICK("Tick", DemoEvents.TICK.descriptor(), Count.PER_ROUND,
            true, true, "TraceLogging event"),
    SAMPLE("Sample", DemoEvents.SAMPLE.descriptor(), Count.PER_ROUND,
            false, true, "TraceLogging; A: level 5 is above A's 4"),
    JOB_START("Job/Start", DemoEvents.JOB.descriptor().withOpcode(Opcode.START.value()), Count.PER_WORKER,
            true, true, "TraceLogging activity start, one per worker"),
    JOB_STOP("Job/Stop", DemoEvents.JOB.descriptor().withOpcode(Opcode.STOP.value()), Count.PER_WORKER,
            true, true, "activity stop"),
    PROVIDER_STATE("ProviderState", DemoEvents.PROVIDER_STATE, Count.PER_WORKER,
            true, true, "written by the enable listener for CAPTURE_STATE, one per worker");

    /** How many of an event kind the demo writes. */
    enum Count {
        /** One per round per worker thread. */
        PER_ROUND,
        /** One per worker thread. */
        PER_WORKER
    }

    private final String displayName;
    private final EventDescriptor descriptor;
    private final Count count;
    private final boolean inA;
    private final boolean inB;
    private final String why;

    DemoKind(String displayName, EventDescriptor descriptor, Count count, boolean inA, boolean inB, String why) {
        this.displayName = displayName;
        this.descriptor = descriptor;
        this.count = count;
        this.inA = inA;
        this.inB = inB;
        this.why = why;
    }

    /** The name a decoder gives these events (TraceLogging activities: name/opcode). */
    String displayName() {
        return displayName;
    }

    EventDescriptor descriptor() {
        return descriptor;
    }

    /** Whether this kind is TraceLogging (self-describing) rather than manifest-described. */
    boolean isTraceLogging() {
        return descriptor.channel() == EventDescriptor.CHANNEL_TRACELOGGING;
    }

    /** Events of this kind written by {@code workers} threads of {@code rounds} rounds each. */
    long written(int workers, int rounds) {
        return count == Count.PER_ROUND ? (long) workers * rounds : workers;
    }

    /** What session A should receive of them. */
    long expectedA(int workers, int rounds) {
        return inA ? written(workers, rounds) : 0;
    }

    /** What session B should receive of them. */
    long expectedB(int workers, int rounds) {
        return inB ? written(workers, rounds) : 0;
    }

    String why() {
        return why;
    }

    /** The kind whose decoded name is {@code name}, or null. */
    static DemoKind byDisplayName(String name) {
        for (DemoKind k : values()) {
            if (k.displayName.equals(name)) {
                return k;
            }
        }
        return null;
    }
}
