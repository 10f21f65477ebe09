package org.etw4j.jfr;

import org.etw4j.Level;

/**
 * The groups of JFR events the agent re-emits, each with its own ETW keyword so a session selects groups with
 * MatchAnyKeyword ({@code etw record --provider Java-Runtime:4:0x1} for garbage collections only).
 *
 * <p>Closed set; immutable. Events named in the configuration that are not in a default group belong to
 * {@link #OTHER}. The levels follow what the events cost: one-per-collection and one-per-second events are
 * INFORMATIONAL, the per-class and per-allocation-sample ones VERBOSE, so a session at level 4 leaves them out.
 */
public enum Category {
    /** jdk.GarbageCollection, jdk.GCPhasePause. */
    GC(0x1L, Level.INFORMATIONAL),
    /** jdk.SafepointBegin, jdk.SafepointStateSynchronization, jdk.ExecuteVMOperation. */
    SAFEPOINT(0x2L, Level.INFORMATIONAL),
    /** jdk.Compilation. */
    COMPILATION(0x4L, Level.INFORMATIONAL),
    /** jdk.ClassLoad (off by default: one event per loaded class). */
    CLASS_LOADING(0x8L, Level.VERBOSE),
    /** jdk.ThreadStart, jdk.ThreadEnd. */
    THREADS(0x10L, Level.INFORMATIONAL),
    /** jdk.JavaMonitorEnter, jdk.ThreadPark. */
    CONTENTION(0x20L, Level.INFORMATIONAL),
    /** jdk.ObjectAllocationSample. */
    ALLOCATION(0x40L, Level.VERBOSE),
    /** jdk.CPULoad. */
    CPU(0x80L, Level.INFORMATIONAL),
    /** Any other JFR event named in the configuration. */
    OTHER(0x8000L, Level.INFORMATIONAL);

    private final long keyword;
    private final Level level;

    Category(long keyword, Level level) {
        this.keyword = keyword;
        this.level = level;
    }

    /** The ETW keyword bit of this group's events. */
    public long keyword() {
        return keyword;
    }

    /** The ETW level of this group's events. */
    public Level level() {
        return level;
    }
}
