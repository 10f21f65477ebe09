package org.etw4j;

import static org.etw4j.format.LogfileHeaderLayout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The values of a {@code TRACE_LOGFILE_HEADER}: what a trace says about itself (first record of an .etl file,
 * first synthetic event of a real-time session, MS Learn, PEVENT_RECORD_CALLBACK callback function).
 *
 * <p>Immutable record; thread-safe. {@link #encode64} writes the 64-bit layout ({@code org.etw4j.format.LogfileHeaderLayout}) with
 * the two UTF-16 names after it; {@link #decode} reads either layout. Used by the simulated backend for its
 * synthetic header event and by the .etl writer, so the format lives here once.
 *
 * @param bufferSize         buffer size in bytes
 * @param osMajor            OS major version
 * @param osMinor            OS minor version
 * @param formatMajor        log format SubVersion (1)
 * @param formatMinor        log format SubMinorVersion (5)
 * @param osBuild            ProviderVersion: the OS build number
 * @param numberOfProcessors processors
 * @param endTime            FILETIME
 * @param timerResolution    100 ns units
 * @param maximumFileSizeMb  MB, 0 for none
 * @param logFileMode        EVENT_TRACE_*_MODE flags
 * @param buffersWritten     buffers in the file, buffer 0 included
 * @param pointerSize        4 or 8
 * @param eventsLost         events lost
 * @param cpuSpeedMHz        CPU speed
 * @param bootTime           FILETIME
 * @param perfFreq           QPC frequency
 * @param startTime          FILETIME
 * @param clockType          ReservedFlags: 1 QPC, 2 system time, 3 CPU cycles
 * @param buffersLost        buffers lost
 * @param timeZoneBiasMinutes TIME_ZONE_INFORMATION.Bias (UTC = local + bias)
 * @param loggerName         session name
 * @param logFileName        log file path ("" for real-time)
 */
public record LogfileHeader(int bufferSize, int osMajor, int osMinor, int formatMajor, int formatMinor, int osBuild,
                            int numberOfProcessors, long endTime, int timerResolution, int maximumFileSizeMb,
                            int logFileMode, int buffersWritten, int pointerSize, int eventsLost, int cpuSpeedMHz,
                            long bootTime, long perfFreq, long startTime, int clockType, int buffersLost,
                            int timeZoneBiasMinutes, String loggerName, String logFileName) {

    /** Bytes {@link #encode64} writes: the fixed part and both NUL-terminated names. */
    public int encodedSize64() {
        return SIZE_64 + (loggerName.length() + 1) * 2 + (logFileName.length() + 1) * 2;
    }

    /** Writes the 64-bit layout at {@code offset}; returns the offset after the names. */
    public int encode64(ByteBuffer dst, int offset) {
        ByteBuffer b = dst.order() == ByteOrder.LITTLE_ENDIAN ? dst : dst.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < SIZE_64; i++) {
            b.put(offset + i, (byte) 0);
        }
        b.putInt(offset + BUFFER_SIZE, bufferSize);
        b.put(offset + MAJOR_VERSION, (byte) osMajor);
        b.put(offset + MINOR_VERSION, (byte) osMinor);
        b.put(offset + SUB_VERSION, (byte) formatMajor);
        b.put(offset + SUB_MINOR_VERSION, (byte) formatMinor);
        b.putInt(offset + PROVIDER_VERSION, osBuild);
        b.putInt(offset + NUMBER_OF_PROCESSORS, numberOfProcessors);
        b.putLong(offset + END_TIME, endTime);
        b.putInt(offset + TIMER_RESOLUTION, timerResolution);
        b.putInt(offset + MAXIMUM_FILE_SIZE, maximumFileSizeMb);
        b.putInt(offset + LOG_FILE_MODE, logFileMode);
        b.putInt(offset + BUFFERS_WRITTEN, buffersWritten);
        b.putInt(offset + START_BUFFERS, 1);
        b.putInt(offset + POINTER_SIZE, pointerSize);
        b.putInt(offset + EVENTS_LOST, eventsLost);
        b.putInt(offset + CPU_SPEED_MHZ, cpuSpeedMHz);
        // In files these "pointers" hold small enumerated values (etw-formats.md 3.5); real files show 0xA / 0x7.
        b.putLong(offset + LOGGER_NAME_PTR, 0xA);
        b.putLong(offset + LOG_FILE_NAME_PTR_64, 0x7);
        b.putInt(offset + TIME_ZONE_64, timeZoneBiasMinutes);
        b.putLong(offset + BOOT_TIME_64, bootTime);
        b.putLong(offset + PERF_FREQ_64, perfFreq);
        b.putLong(offset + START_TIME_64, startTime);
        b.putInt(offset + CLOCK_TYPE_64, clockType);
        b.putInt(offset + BUFFERS_LOST_64, buffersLost);
        int p = putUtf16z(b, offset + SIZE_64, loggerName);
        return putUtf16z(b, p, logFileName);
    }

    /**
     * Reads a header at {@code offset} in the layout of {@code pointerSize} (4 or 8), names included when
     * they fit before {@code limit}.
     */
    public static LogfileHeader decode(ByteBuffer src, int offset, int pointerSize, int limit) {
        ByteBuffer b = src.order() == ByteOrder.LITTLE_ENDIAN ? src : src.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        boolean p64 = pointerSize == 8;
        int fixed = p64 ? SIZE_64 : SIZE_32;
        if (offset + fixed > limit) {
            throw new IllegalArgumentException("TRACE_LOGFILE_HEADER at " + offset + " needs " + fixed + " bytes; only " + (limit - offset));
        }
        int namesAt = offset + fixed;
        String logger = readUtf16z(b, namesAt, limit);
        String file = readUtf16z(b, namesAt + (logger.length() + 1) * 2, limit);
        return new LogfileHeader(b.getInt(offset + BUFFER_SIZE),
                Byte.toUnsignedInt(b.get(offset + MAJOR_VERSION)), Byte.toUnsignedInt(b.get(offset + MINOR_VERSION)),
                Byte.toUnsignedInt(b.get(offset + SUB_VERSION)), Byte.toUnsignedInt(b.get(offset + SUB_MINOR_VERSION)),
                b.getInt(offset + PROVIDER_VERSION), b.getInt(offset + NUMBER_OF_PROCESSORS), b.getLong(offset + END_TIME),
                b.getInt(offset + TIMER_RESOLUTION), b.getInt(offset + MAXIMUM_FILE_SIZE), b.getInt(offset + LOG_FILE_MODE),
                b.getInt(offset + BUFFERS_WRITTEN), b.getInt(offset + POINTER_SIZE), b.getInt(offset + EVENTS_LOST),
                b.getInt(offset + CPU_SPEED_MHZ),
                b.getLong(offset + (p64 ? BOOT_TIME_64 : BOOT_TIME_32)),
                b.getLong(offset + (p64 ? PERF_FREQ_64 : PERF_FREQ_32)),
                b.getLong(offset + (p64 ? START_TIME_64 : START_TIME_32)),
                b.getInt(offset + (p64 ? CLOCK_TYPE_64 : CLOCK_TYPE_32)),
                b.getInt(offset + (p64 ? BUFFERS_LOST_64 : BUFFERS_LOST_32)),
                b.getInt(offset + (p64 ? TIME_ZONE_64 : TIME_ZONE_32)),
                logger, file);
    }

    /** This header with the values known only when a trace ends. */
    public LogfileHeader withEnd(long newEndTime, int newBuffersWritten, int newEventsLost, int newBuffersLost) {
        return new LogfileHeader(bufferSize, osMajor, osMinor, formatMajor, formatMinor, osBuild, numberOfProcessors,
                newEndTime, timerResolution, maximumFileSizeMb, logFileMode, newBuffersWritten, pointerSize, newEventsLost,
                cpuSpeedMHz, bootTime, perfFreq, startTime, clockType, newBuffersLost, timeZoneBiasMinutes, loggerName,
                logFileName);
    }

    /** This header naming another log file (each file of an EVENT_TRACE_FILE_MODE_NEWFILE session names itself). */
    public LogfileHeader withLogFileName(String newLogFileName) {
        return new LogfileHeader(bufferSize, osMajor, osMinor, formatMajor, formatMinor, osBuild, numberOfProcessors,
                endTime, timerResolution, maximumFileSizeMb, logFileMode, buffersWritten, pointerSize, eventsLost,
                cpuSpeedMHz, bootTime, perfFreq, startTime, clockType, buffersLost, timeZoneBiasMinutes, loggerName,
                newLogFileName);
    }

    /** The converter from this trace's raw timestamps to FILETIME, given T0 (the header record's timestamp). */
    public TimestampConverter timestampConverter(long startRaw) {
        switch (clockType) {
            case CLOCK_SYSTEMTIME:
                return TimestampConverter.systemTime(startTime, startRaw);
            case CLOCK_CPUCYCLE:
                return TimestampConverter.cpuCycles(startTime, startRaw, Math.max(1, cpuSpeedMHz));
            default:
                return TimestampConverter.qpc(startTime, startRaw, perfFreq > 0 ? perfFreq : 10_000_000L);
        }
    }

    private static int putUtf16z(ByteBuffer b, int p, String s) {
        for (int i = 0; i < s.length(); i++) {
            b.putChar(p, s.charAt(i));
            p += 2;
        }
        b.putChar(p, '\0');
        return p + 2;
    }

    private static String readUtf16z(ByteBuffer b, int p, int limit) {
        StringBuilder sb = new StringBuilder();
        while (p + 1 < limit) {
            char c = b.getChar(p);
            if (c == 0) {
                break;
            }
            sb.append(c);
            p += 2;
        }
        return sb.toString();
    }
}
