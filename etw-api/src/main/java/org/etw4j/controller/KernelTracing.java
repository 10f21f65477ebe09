package org.etw4j.controller;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.etw4j.Guid;

/**
 * The kernel part of a session: which SystemTraceProvider event groups it logs ({@link KernelFlag}), in which
 * kind of session ({@link KernelLogger}), the CPU sampling interval, and the kernel events that carry a call stack.
 *
 * <p>Immutable record; thread-safe. How a backend applies it (MS Learn): the flags go in
 * {@code EVENT_TRACE_PROPERTIES.EnableFlags} at {@code StartTrace}; after it, {@code TraceSetInformation} with
 * {@code TraceSampledProfileIntervalInfo} ({@code TRACE_PROFILE_INTERVAL}, Source 0 = the timer, Interval in units
 * of 100 ns; the interval is machine-wide, it changes every session's sampling) and with
 * {@code TraceStackTracingInfo} (an array of {@code CLASSIC_EVENT_ID}). The kernel logs the process, thread and
 * image rundown (DCStart at the start, DCEnd at the end) by itself when those groups are on, so a trace names what
 * was already running. Stacks of user-mode providers' events are asked per provider with
 * {@link EnableProperty#STACK_TRACE}.
 *
 * @param flags                   the event groups (at least one)
 * @param logger                  the NT Kernel Logger or a system logger session (Windows 8+)
 * @param samplingInterval100ns   the CPU sampling interval in 100 ns units, or 0 to leave Windows' (1 ms by
 *                                default); {@link #MIN_SAMPLING_INTERVAL_100NS} to {@link #MAX_SAMPLING_INTERVAL_100NS}
 * @param stackEvents             the kernel events to collect stacks for (at most {@link #MAX_STACK_EVENTS})
 */
public record KernelTracing(Set<KernelFlag> flags, KernelLogger logger, int samplingInterval100ns,
                            List<ClassicEventId> stackEvents) {

    /** {@code KERNEL_LOGGER_NAMEW} (evntrace.h): the NT Kernel Logger's session name. */
    public static final String KERNEL_LOGGER_NAME = "NT Kernel Logger";
    /** {@code SystemTraceControlGuid} (evntrace.h): the NT Kernel Logger's Wnode.Guid. */
    public static final Guid SYSTEM_TRACE_CONTROL_GUID = Guid.parse("9e814aad-3204-11d2-9a82-006008a86939");
    /**
     * The shortest interval accepted here: 1,221 units of 100 ns (0.1221 ms); the longest is 10,000,000 (1 s). MS Learn
     * documents only the unit (100 ns) and the 1 ms default ("Notes on WPA Sampling"). The longest is TraceEvent's
     * bound (microsoft/perfview, src/TraceEvent/TraceEventSession.cs at f3ec1b38, where it refuses a longer interval:
     * "The API seems to have an upper bound of 1 second"), an observation, not a documented limit. The shortest is
     * ours: xperf's usage text for {@code -SetProfInt} as remembered ("[1221 .. 10000000]"), found in no stored
     * source; TraceEvent says only "typically .125 Msec" (1,250). Both ends are checked on Windows by
     * RealEtwFidelityTest.theSamplingIntervalBoundsAreAcceptedAndReadBack (not run yet).
     */
    public static final int MIN_SAMPLING_INTERVAL_100NS = 1_221;
    /** The longest sampling interval, 1 s in 100 ns units. */
    public static final int MAX_SAMPLING_INTERVAL_100NS = 10_000_000;
    /** Windows' default sampling interval: 1 ms, 10,000 units of 100 ns (MS Learn, "Notes on WPA Sampling"). */
    public static final int DEFAULT_SAMPLING_INTERVAL_100NS = 10_000;
    /** Most entries a TraceStackTracingInfo list may hold (MS Learn, TraceSetInformation: 256). */
    public static final int MAX_STACK_EVENTS = 256;

    public KernelTracing {
        Objects.requireNonNull(flags, "flags");
        Objects.requireNonNull(logger, "logger");
        Objects.requireNonNull(stackEvents, "stackEvents");
        if (flags.isEmpty()) {
            throw new IllegalArgumentException("KernelTracing.flags: name at least one kernel event group");
        }
        flags = java.util.Collections.unmodifiableSet(EnumSet.copyOf(flags));
        if (samplingInterval100ns != 0 && (samplingInterval100ns < MIN_SAMPLING_INTERVAL_100NS
                || samplingInterval100ns > MAX_SAMPLING_INTERVAL_100NS)) {
            throw new IllegalArgumentException("KernelTracing.samplingInterval100ns must be 0 (Windows' default) or "
                    + MIN_SAMPLING_INTERVAL_100NS + "-" + MAX_SAMPLING_INTERVAL_100NS + " (100 ns units), got "
                    + samplingInterval100ns);
        }
        stackEvents = List.copyOf(stackEvents);
        if (stackEvents.size() > MAX_STACK_EVENTS) {
            throw new IllegalArgumentException("KernelTracing.stackEvents: at most " + MAX_STACK_EVENTS
                    + " kernel events, got " + stackEvents.size());
        }
    }

    /** The kernel groups {@code flags} in a system logger session, Windows' sampling interval, no stacks. */
    public static KernelTracing of(KernelFlag... flags) {
        return new KernelTracing(EnumSet.copyOf(List.of(flags)), KernelLogger.SYSTEM_LOGGER, 0, List.of());
    }

    /** The same with the CPU sampling interval {@code interval} (rounded down to 100 ns). */
    public KernelTracing withSamplingInterval(Duration interval) {
        long units = interval.toNanos() / 100;
        if (units < MIN_SAMPLING_INTERVAL_100NS || units > MAX_SAMPLING_INTERVAL_100NS) {
            throw new IllegalArgumentException("sampling interval must be 122.1 us to 1 s, got " + interval);
        }
        return new KernelTracing(flags, logger, (int) units, stackEvents);
    }

    /** The same with stacks collected for {@code events}. */
    public KernelTracing withStacks(ClassicEventId... events) {
        return new KernelTracing(flags, logger, samplingInterval100ns, List.of(events));
    }

    /** The same in {@code kind} of session. */
    public KernelTracing in(KernelLogger kind) {
        return new KernelTracing(flags, kind, samplingInterval100ns, stackEvents);
    }

    /** The sampling interval in effect: the one asked for, or Windows' default 1 ms. */
    public int effectiveSamplingInterval100ns() {
        return samplingInterval100ns == 0 ? DEFAULT_SAMPLING_INTERVAL_100NS : samplingInterval100ns;
    }

    /** {@code EVENT_TRACE_PROPERTIES.EnableFlags}. */
    public int enableFlags() {
        return KernelFlag.mask(flags);
    }
}
