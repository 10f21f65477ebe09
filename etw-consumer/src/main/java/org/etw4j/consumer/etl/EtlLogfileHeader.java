package org.etw4j.consumer.etl;

import java.time.Instant;
import java.util.Optional;
import org.etw4j.controller.ClockType;

/**
 * The facts of an .etl file's {@code TRACE_LOGFILE_HEADER} (payload of the first record of buffer 0) and
 * of the record that carries it.
 *
 * <p>Immutable value; thread-safe. Integer fields hold the unsigned values as stored (u32 in a
 * {@code long} where they can exceed {@code int}); times are FILETIME (100 ns since 1601-01-01 UTC) with
 * {@link Instant} accessors. Layout: {@link org.etw4j.format.LogfileHeaderLayout}.
 *
 * @param bufferSize            size of every (uncompressed) buffer, bytes
 * @param majorVersion          OS major version
 * @param minorVersion          OS minor version
 * @param subVersion            log format major version
 * @param subMinorVersion       log format minor version
 * @param osBuild               ProviderVersion: the OS build number
 * @param numberOfProcessors    processors of the recording machine
 * @param endTime               FILETIME the session stopped
 * @param timerResolution       in 100 ns units
 * @param maximumFileSize       in MB, 0 when unlimited
 * @param logFileMode           EVENT_TRACE_* mode flags
 * @param buffersWritten        buffers in the file, header buffer included
 * @param startBuffers          StartBuffers (union with LogInstanceGuid)
 * @param pointerSize           PointerSize field (OS pointer size, 4 or 8)
 * @param eventsLost            events the session lost
 * @param cpuSpeedMhz           CpuSpeedInMHz
 * @param timeZoneBiasMinutes   TIME_ZONE_INFORMATION.Bias (UTC = local + bias)
 * @param bootTime              FILETIME of the boot of the recording machine
 * @param perfFreq              performance-counter frequency, ticks per second
 * @param startTime             FILETIME the session started; corresponds to {@code headerTimestamp}
 * @param clockTypeCode         ReservedFlags: the raw clock type code
 * @param buffersLost           BuffersLost
 * @param sessionName           LoggerName string ("" when empty)
 * @param logFileName           LogFileName string ("" when empty)
 * @param headerRecordType      header type of the carrying record: 0x02 (64-bit layout) or 0x01 (32-bit)
 * @param headerTimestamp       raw timestamp of the carrying record (T0 of the clock conversion)
 */
public record EtlLogfileHeader(
        long bufferSize,
        int majorVersion,
        int minorVersion,
        int subVersion,
        int subMinorVersion,
        long osBuild,
        long numberOfProcessors,
        long endTime,
        long timerResolution,
        long maximumFileSize,
        long logFileMode,
        long buffersWritten,
        long startBuffers,
        long pointerSize,
        long eventsLost,
        long cpuSpeedMhz,
        int timeZoneBiasMinutes,
        long bootTime,
        long perfFreq,
        long startTime,
        long clockTypeCode,
        long buffersLost,
        String sessionName,
        String logFileName,
        int headerRecordType,
        long headerTimestamp) {

    /**
     * The session clock {@link #clockTypeCode()} names (the session's {@code WNODE_HEADER.ClientContext}: 1 QPC,
     * 2 system time, 3 CPU cycles), or empty for 0 ({@code EVENT_TRACE_CLOCK_RAW}, ntwmi.h) and any other value,
     * whose timestamps {@link #clock()} converts as QPC ticks (TraceEvent's {@code ETWTraceEventSource.cs} does the
     * same).
     */
    public Optional<ClockType> clockType() {
        return clockTypeCode >= 1 && clockTypeCode <= 3 ? Optional.of(ClockType.of((int) clockTypeCode)) : Optional.empty();
    }

    /** Whether the logfile mode says buffers may be compressed (EVENT_TRACE_COMPRESSED_MODE). */
    public boolean compressedMode() {
        return (logFileMode & org.etw4j.format.LogfileHeaderLayout.MODE_COMPRESSED) != 0;
    }

    /** Pointer size of the header record's layout: 8 for type 0x02, 4 for type 0x01. */
    public int headerLayoutPointerSize() {
        return headerRecordType == org.etw4j.format.TraceHeaderTypes.SYSTEM64 ? 8 : 4;
    }

    public Instant startInstant() {
        return EtlClock.fileTimeToInstant(startTime);
    }

    public Instant endInstant() {
        return EtlClock.fileTimeToInstant(endTime);
    }

    public Instant bootInstant() {
        return EtlClock.fileTimeToInstant(bootTime);
    }

    /** The timestamp converter for this trace's clock. */
    public EtlClock clock() {
        return new EtlClock(clockTypeCode, startTime, headerTimestamp, perfFreq, cpuSpeedMhz);
    }
}
