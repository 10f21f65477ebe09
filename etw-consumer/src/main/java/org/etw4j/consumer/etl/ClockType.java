package org.etw4j.consumer.etl;

/**
 * The clock a trace's raw record timestamps were taken with ({@code TRACE_LOGFILE_HEADER.ReservedFlags}).
 *
 * <p>Enum constants: immutable and thread-safe. Sources:
 * ntwmi.h {@code EVENT_TRACE_CLOCK_*}; TraceEvent {@code ETWTraceEventSource.cs}).
 */
public enum ClockType {
    /** 0: raw timestamps; converted like {@link #PERFORMANCE_COUNTER} when PerfFreq is known. */
    RAW(0),
    /** 1: QueryPerformanceCounter ticks at {@code PerfFreq} per second (the default). */
    PERFORMANCE_COUNTER(1),
    /** 2: system time, 100 ns ticks. */
    SYSTEM_TIME(2),
    /** 3: CPU cycle counter at {@code CpuSpeedInMHz}. */
    CPU_CYCLE(3),
    /** Any other value found in the header; converted like {@link #PERFORMANCE_COUNTER}. */
    UNKNOWN(-1);

    private final int code;

    ClockType(int code) {
        this.code = code;
    }

    /** The ReservedFlags value, -1 for {@link #UNKNOWN}. */
    public int code() {
        return code;
    }

    /** The constant for a ReservedFlags value; {@link #UNKNOWN} when it is none of 0..3. */
    public static ClockType of(int code) {
        return switch (code) {
            case 0 -> RAW;
            case 1 -> PERFORMANCE_COUNTER;
            case 2 -> SYSTEM_TIME;
            case 3 -> CPU_CYCLE;
            default -> UNKNOWN;
        };
    }
}
