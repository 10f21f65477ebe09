package org.etw4j.controller;

/**
 * The clock a session timestamps events with ({@code WNODE_HEADER.ClientContext}; MS Learn, PEVENT_RECORD_CALLBACK callback function).
 *
 * <p>Enum constants: immutable, thread-safe. QPC is the default and the only one that keeps events in order
 * when the system clock is adjusted backwards (MS Learn, PEVENT_RECORD_CALLBACK callback function).
 */
public enum ClockType {
    /** 1: query performance counter (default). */
    QPC(1),
    /** 2: system time (FILETIME, 100 ns ticks since 1601). */
    SYSTEM_TIME(2),
    /** 3: CPU cycle counter. */
    CPU_CYCLE(3);

    private final int value;

    ClockType(int value) {
        this.value = value;
    }

    /** The {@code ClientContext} value. */
    public int value() {
        return value;
    }

    /** The clock type for a {@code ClientContext} value. */
    public static ClockType of(int value) {
        for (ClockType c : values()) {
            if (c.value == value) {
                return c;
            }
        }
        throw new IllegalArgumentException("clock type must be 1 (QPC), 2 (system time) or 3 (CPU cycles), got " + value);
    }
}
