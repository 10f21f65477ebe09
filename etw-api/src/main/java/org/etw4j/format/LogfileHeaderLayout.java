package org.etw4j.format;

/**
 * Byte layout of {@code TRACE_LOGFILE_HEADER}, the payload of the first record of buffer 0 of an .etl
 * file (a SYSTEM_TRACE_HEADER with hook 0x0000), followed by two NUL-terminated UTF-16LE strings: the
 * logger (session) name and the log file name.
 *
 * <p>Constants only; no state. Offsets are from the start of the TRACE_LOGFILE_HEADER (i.e. after the
 * 0x20-byte SYSTEM_TRACE_HEADER), little-endian. The two pointer-sized fields {@code LoggerName} and
 * {@code LogFileName} make everything after 0x38 shift by 8 bytes between the 64-bit layout (header
 * record type 0x02) and the 32-bit one (type 0x01): {@code *_64} and {@code *_32} constants.
 * Source: evntrace.h {@code TRACE_LOGFILE_HEADER} (dissect.etl
 * {@code headers/logfile.py}, TraceEvent; verified against real files).
 */
public final class LogfileHeaderLayout {
    private LogfileHeaderLayout() {
    }

    /** Size of the fixed part in the 64-bit layout; the strings follow. */
    public static final int SIZE_64 = 0x118;
    /** Size of the fixed part in the 32-bit layout; the strings follow. */
    public static final int SIZE_32 = 0x110;

    // Same offset in both layouts.
    public static final int BUFFER_SIZE = 0x00;
    /** u8 MajorVersion (OS), u8 MinorVersion (OS), u8 SubVersion, u8 SubMinorVersion (log format). */
    public static final int VERSION = 0x04;
    public static final int MAJOR_VERSION = 0x04;
    public static final int MINOR_VERSION = 0x05;
    public static final int SUB_VERSION = 0x06;
    public static final int SUB_MINOR_VERSION = 0x07;
    /** u32 ProviderVersion: the OS build number. */
    public static final int PROVIDER_VERSION = 0x08;
    public static final int NUMBER_OF_PROCESSORS = 0x0C;
    /** u64 FILETIME. */
    public static final int END_TIME = 0x10;
    /** u32, in 100 ns units. */
    public static final int TIMER_RESOLUTION = 0x18;
    /** u32, in MB. */
    public static final int MAXIMUM_FILE_SIZE = 0x1C;
    public static final int LOG_FILE_MODE = 0x20;
    /** u32, buffer 0 included. */
    public static final int BUFFERS_WRITTEN = 0x24;
    public static final int START_BUFFERS = 0x28;
    public static final int POINTER_SIZE = 0x2C;
    public static final int EVENTS_LOST = 0x30;
    public static final int CPU_SPEED_MHZ = 0x34;
    /** Pointer-sized; in files a small enumerated value, not a pointer. */
    public static final int LOGGER_NAME_PTR = 0x38;

    // 64-bit layout (header record type 0x02).
    public static final int LOG_FILE_NAME_PTR_64 = 0x40;
    public static final int TIME_ZONE_64 = 0x48;
    public static final int BOOT_TIME_64 = 0xF8;
    public static final int PERF_FREQ_64 = 0x100;
    public static final int START_TIME_64 = 0x108;
    /** u32 ReservedFlags: the clock type. */
    public static final int CLOCK_TYPE_64 = 0x110;
    public static final int BUFFERS_LOST_64 = 0x114;

    // 32-bit layout (header record type 0x01).
    public static final int LOG_FILE_NAME_PTR_32 = 0x3C;
    public static final int TIME_ZONE_32 = 0x40;
    public static final int BOOT_TIME_32 = 0xF0;
    public static final int PERF_FREQ_32 = 0xF8;
    public static final int START_TIME_32 = 0x100;
    public static final int CLOCK_TYPE_32 = 0x108;
    public static final int BUFFERS_LOST_32 = 0x10C;

    /** Size of TIME_ZONE_INFORMATION. */
    public static final int TIME_ZONE_SIZE = 0xAC;

    /** ReservedFlags values (ntwmi.h EVENT_TRACE_CLOCK_*). */
    public static final int CLOCK_RAW = 0;
    public static final int CLOCK_PERFCOUNTER = 1;
    public static final int CLOCK_SYSTEMTIME = 2;
    public static final int CLOCK_CPUCYCLE = 3;

    /** LogFileMode bit saying the buffers may be compressed (EVENT_TRACE_COMPRESSED_MODE, ntwmi.h). */
    public static final int MODE_COMPRESSED = 0x0400_0000;
    /** LogFileMode bit EVENT_TRACE_FILE_MODE_SEQUENTIAL. */
    public static final int MODE_SEQUENTIAL = 0x0000_0001;
}
