package org.etw4j.controller;

/**
 * {@code EVENT_ENABLE_PROPERTY_*} flags of {@code ENABLE_TRACE_PARAMETERS.EnableProperty} (evntrace.h).
 *
 * <p>Enum constants: immutable, thread-safe. Most ask ETW to attach an extended data item to each event of the
 * provider in that session; {@link #IGNORE_KEYWORD_0} makes the session drop events whose keyword is 0
 * (MS Learn, EVENT_DESCRIPTOR structure, Windows 10 1507 and later).
 */
public enum EnableProperty {
    /** Adds the user's SID (extended item SID). */
    SID(0x001),
    /** Adds the terminal-session id (extended item TS_ID). */
    TS_ID(0x002),
    /** Adds a call stack (extended item STACK_TRACE64). */
    STACK_TRACE(0x004),
    /** Adds the PSM key. */
    PSM_KEY(0x008),
    /** Drops events whose keyword is 0 in this session. */
    IGNORE_KEYWORD_0(0x010),
    /** The id given is a provider group. */
    PROVIDER_GROUP(0x020),
    /** Includes keyword-0 events even when MatchAnyKeyword would not. */
    ENABLE_KEYWORD_0(0x040),
    /** Adds the process start key (extended item PROCESS_START_KEY). */
    PROCESS_START_KEY(0x080),
    /** Adds an event key (extended item EVENT_KEY). */
    EVENT_KEY(0x100),
    /** Excludes events from InPrivate processes. */
    EXCLUDE_INPRIVATE(0x200);

    private final int bit;

    EnableProperty(int bit) {
        this.bit = bit;
    }

    /** The flag value. */
    public int bit() {
        return bit;
    }

    /** OR of the flags of {@code properties}. */
    public static int mask(Iterable<EnableProperty> properties) {
        int m = 0;
        for (EnableProperty p : properties) {
            m |= p.bit;
        }
        return m;
    }
}
