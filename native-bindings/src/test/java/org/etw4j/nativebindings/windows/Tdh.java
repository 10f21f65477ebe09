package org.etw4j.nativebindings.windows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;

/**
 * Test helper (moved from main code, where nothing used it): the hook for TDH decoding: {@code TdhGetEventInformation} on the record a callback is handling, giving the
 * {@code TRACE_EVENT_INFO} (schema: names, property descriptions) a decoder reads with the generated layouts,
 * {@code TrailingArrays.TRACE_EVENT_INFO_PROPERTIES} and {@code TdhSdkFields}.
 *
 * <p>Stateless; thread-safe. Call it inside the event callback: TDH reads the EVENT_RECORD (and, for
 * TraceLogging events, its EVENT_SCHEMA_TL item), which is valid only then. The result belongs to the caller's
 * allocator and stays valid after the callback.
 *
 * <p>Decoders do not call this: they reach TDH through {@link EventRecordView#eventInformation()} (the SPI's
 * {@code RawEventRecord.eventInformation()}), which reuses one buffer per consumer and remembers ERROR_NOT_FOUND
 * ({@link TdhLookups}). This method is for callers that want an owned copy in memory of their choosing.
 */
final class Tdh {
    /** {@code DECODING_SOURCE} values (tdh.h). */
    public static final int DECODING_SOURCE_XML_FILE = 0;
    public static final int DECODING_SOURCE_WBEM = 1;
    public static final int DECODING_SOURCE_WPP = 2;
    public static final int DECODING_SOURCE_TLG = 3;

    private Tdh() {
    }

    /**
     * {@code TdhGetEventInformation} for {@code record}, through the view's own lookups ({@link TdhLookups}: the
     * size protocol and the remembered misses live there once), copied into {@code allocator}.
     *
     * @throws IllegalStateException if {@code record} is used after its callback
     * @throws org.etw4j.EtwException naming TdhGetEventInformation when TDH fails (e.g. ERROR_NOT_FOUND: no
     *                                schema for the event)
     */
    static MemorySegment eventInformation(EventRecordView record, SegmentAllocator allocator) {
        MemorySegment info = record.tdh().eventInformation(record, record.hasTraceLoggingSchema());
        if (info == null) {
            throw Win32Errors.failure("TdhGetEventInformation", Win32Errors.ERROR_NOT_FOUND,
                    "event " + record.id() + " of provider " + record.providerId());
        }
        return allocator.allocate(info.byteSize(), 8).copyFrom(info);
    }
}
