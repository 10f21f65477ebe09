package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.List;
import org.etw4j.controller.ClassicEventId;
import org.etw4j.controller.KernelTracing;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.generated._CLASSIC_EVENT_ID;
import org.etw4j.nativebindings.generated._TRACE_PROFILE_INTERVAL;

/**
 * The {@code TraceSetInformation} calls that complete a kernel session after {@code StartTraceW}: the CPU sampling
 * interval and the kernel events that carry stacks.
 *
 * <p>Stateless; thread-safe; every buffer lives in a confined arena of the call. Sources (MS Learn):
 * "TraceSetInformation function" ("Call this function after calling StartTrace"; TraceStackTracingInfo "enables stack
 * tracing of the specified kernel events", a later call replaces the list, an empty one turns it off);
 * "TRACE_QUERY_INFO_CLASS enumeration" (TraceStackTracingInfo 3: an array of CLASSIC_EVENT_ID;
 * TraceSampledProfileIntervalInfo 5: a TRACE_PROFILE_INTERVAL); "Notes on WPA Sampling" (the interval in 100 ns
 * units, 1 ms by default). The layouts are jextract's, which {@code WindowsAbiTest} checks against the mingw-w64
 * headers (CLASSIC_EVENT_ID: 24 bytes, Type at 16; TRACE_PROFILE_INTERVAL: Source at 0, Interval at 4).
 */
final class KernelSetup {
    private KernelSetup() {
    }

    /**
     * Applies {@code k} to the session {@code handle}: returns ERROR_SUCCESS or the status of the first call that
     * failed, with {@code failed[0]} naming what it set.
     */
    static int apply(long handle, KernelTracing k, String[] failed) {
        try (Arena call = Arena.ofConfined()) {
            if (k.samplingInterval100ns() != 0) {
                MemorySegment interval = profileInterval(call, k.samplingInterval100ns());
                int status = EtwNative.TraceSetInformation(handle, EtwNative.TraceSampledProfileIntervalInfo(), interval,
                        (int) interval.byteSize());
                if (status != Win32Errors.ERROR_SUCCESS) {
                    failed[0] = "TraceSampledProfileIntervalInfo (" + k.samplingInterval100ns() + " x 100 ns)";
                    return status;
                }
            }
            if (!k.stackEvents().isEmpty()) {
                MemorySegment ids = classicEventIds(call, k.stackEvents());
                int status = EtwNative.TraceSetInformation(handle, EtwNative.TraceStackTracingInfo(), ids,
                        (int) ids.byteSize());
                if (status != Win32Errors.ERROR_SUCCESS) {
                    failed[0] = "TraceStackTracingInfo (" + k.stackEvents().size() + " kernel events)";
                    return status;
                }
            }
        }
        return Win32Errors.ERROR_SUCCESS;
    }

    /** {@code TRACE_PROFILE_INTERVAL}: Source 0 (ProfileTime, the timer), Interval in 100 ns units. */
    static MemorySegment profileInterval(SegmentAllocator allocator, int interval100ns) {
        MemorySegment s = _TRACE_PROFILE_INTERVAL.allocate(allocator);
        _TRACE_PROFILE_INTERVAL.Source(s, 0);
        _TRACE_PROFILE_INTERVAL.Interval(s, interval100ns);
        return s;
    }

    /** An array of {@code CLASSIC_EVENT_ID}: EventGuid, Type, Reserved zeroed. */
    static MemorySegment classicEventIds(SegmentAllocator allocator, List<ClassicEventId> events) {
        MemorySegment array = _CLASSIC_EVENT_ID.allocateArray(events.size(), allocator);
        array.fill((byte) 0);
        for (int i = 0; i < events.size(); i++) {
            MemorySegment e = _CLASSIC_EVENT_ID.asSlice(array, i);
            NativeGuids.write(e, _CLASSIC_EVENT_ID.EventGuid$offset(), events.get(i).eventGuid());
            _CLASSIC_EVENT_ID.Type(e, (byte) events.get(i).type());
        }
        return array;
    }
}
