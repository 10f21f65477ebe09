package org.etw4j.nativebindings.windows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.Win32Error;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.EventFilter;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.generated._ENABLE_TRACE_PARAMETERS;
import org.etw4j.nativebindings.generated._EVENT_FILTER_DESCRIPTOR;
import org.etw4j.nativebindings.layout.EventFilterEventId;

/**
 * {@link EnableParameters} as the {@code ENABLE_TRACE_PARAMETERS} (version 2) that EnableTraceEx2 takes, with
 * one {@code EVENT_FILTER_DESCRIPTOR} per filter.
 *
 * <p>Stateless; thread-safe; everything is allocated from the caller's allocator and must live until
 * EnableTraceEx2 returns. Filter data per Microsoft Learn, "EVENT_FILTER_DESCRIPTOR structure (evntprov.h)":
 * <ul>
 *   <li>{@link EventFilter.EventIds}: an {@code EVENT_FILTER_EVENT_ID} (FilterIn, Count, Events[]);</li>
 *   <li>{@link EventFilter.ProcessIds}: an array of ULONG process ids;</li>
 *   <li>{@link EventFilter.ExecutableNames}: one NUL-terminated UTF-16 string, names separated by ';';</li>
 *   <li>{@link EventFilter.Payload}: see {@link RawPayloadFilter} (refused against the system's ETW);</li>
 *   <li>{@link EventFilter.Custom}: the bytes as given, with their type (ETW hands them to the provider).</li>
 * </ul>
 * The SourceId is the parameters' own, else the session GUID, so a provider sees the same source id whichever
 * ETW runs it (MS Learn, PENABLECALLBACK callback function: without one, the session's GUID).
 */
final class EnableTraceParameters {
    private static final long FILTER_DESCRIPTOR_BYTES = _EVENT_FILTER_DESCRIPTOR.layout().byteSize();

    private EnableTraceParameters() {
    }

    /**
     * Builds the structure.
     *
     * @param systemEtw true when the library is the system's (payload filters then fail with ERROR_NOT_SUPPORTED)
     */
    static MemorySegment build(SegmentAllocator allocator, EnableParameters p, Guid sessionId, boolean systemEtw) {
        MemorySegment params = allocator.allocate(_ENABLE_TRACE_PARAMETERS.layout());
        params.fill((byte) 0);
        _ENABLE_TRACE_PARAMETERS.Version(params, EtwNative.ENABLE_TRACE_PARAMETERS_VERSION_2());
        _ENABLE_TRACE_PARAMETERS.EnableProperty(params, p.propertyMask());
        _ENABLE_TRACE_PARAMETERS.ControlFlags(params, 0);
        NativeGuids.write(params, _ENABLE_TRACE_PARAMETERS.SourceId$offset(), p.sourceId() != null ? p.sourceId() : sessionId);
        List<EventFilter> filters = p.filters();
        if (!filters.isEmpty()) {
            MemorySegment descriptors = allocator.allocate(FILTER_DESCRIPTOR_BYTES * filters.size(), 8);
            for (int i = 0; i < filters.size(); i++) {
                MemorySegment d = descriptors.asSlice(FILTER_DESCRIPTOR_BYTES * i, FILTER_DESCRIPTOR_BYTES);
                MemorySegment data = filterData(allocator, filters.get(i), systemEtw);
                _EVENT_FILTER_DESCRIPTOR.Ptr(d, data.address());
                _EVENT_FILTER_DESCRIPTOR.Size(d, (int) data.byteSize());
                _EVENT_FILTER_DESCRIPTOR.Type(d, filters.get(i).type());
            }
            _ENABLE_TRACE_PARAMETERS.EnableFilterDesc(params, descriptors);
            _ENABLE_TRACE_PARAMETERS.FilterDescCount(params, filters.size());
        }
        return params;
    }

    private static MemorySegment filterData(SegmentAllocator allocator, EventFilter f, boolean systemEtw) {
        if (f instanceof EventFilter.EventIds ids) {
            int[] list = ids.ids().stream().mapToInt(Integer::intValue).sorted().toArray();
            return EventFilterEventId.allocate(allocator, ids.enable(), list);
        }
        if (f instanceof EventFilter.ProcessIds pids) {
            return allocator.allocateFrom(ValueLayout.JAVA_INT, pids.pids().stream().mapToInt(Integer::intValue).toArray());
        }
        if (f instanceof EventFilter.ExecutableNames names) {
            return allocator.allocateFrom(String.join(";", names.names()), StandardCharsets.UTF_16LE);
        }
        if (f instanceof EventFilter.Payload payload) {
            if (systemEtw) {
                throw Win32Errors.failure("EnableTraceEx2", Win32Error.ERROR_NOT_SUPPORTED.code(),
                        "payload filters need TdhCreatePayloadFilter/TdhAggregatePayloadFilters, which the etw4j"
                                + " bindings do not declare yet; filter on the consumer side instead");
            }
            return allocator.allocateFrom(ValueLayout.JAVA_BYTE, RawPayloadFilter.encode(payload));
        }
        EventFilter.Custom custom = (EventFilter.Custom) f;
        byte[] bytes = custom.data();
        return bytes.length == 0 ? allocator.allocate(1).asSlice(0, 0) : allocator.allocateFrom(ValueLayout.JAVA_BYTE, bytes);
    }
}
