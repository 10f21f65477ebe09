package org.etw4j.format;

/**
 * Byte layouts of the kernel record headers: SYSTEM_TRACE_HEADER (full and compact) and
 * PERFINFO_TRACE_HEADER, plus the kernel "hook id" and event-trace group constants.
 *
 * <p>Constants and tiny pure helpers only; no state; safe from any thread. Offsets are from the start of
 * the record, little-endian. Source: ntwmi.h (
 * {@code SYSTEM_TRACE_HEADER}, {@code PERFINFO_TRACE_HEADER}, {@code EVENT_TRACE_GROUP_*}; dissect.etl
 * {@code headers/system.py}; verified against real files).
 */
public final class SystemTraceHeaderLayout {
    private SystemTraceHeaderLayout() {
    }

    /** Size of a full SYSTEM_TRACE_HEADER (types 0x01/0x02). */
    public static final int SYSTEM_HEADER_SIZE = 0x20;
    /** Size of a compact SYSTEM_TRACE_HEADER (types 0x03/0x04): no kernel/user time. */
    public static final int COMPACT_HEADER_SIZE = 0x18;
    /** Size of a PERFINFO_TRACE_HEADER (types 0x10/0x11). */
    public static final int PERFINFO_HEADER_SIZE = 0x10;

    /** u16 Version; carries {@link #VERSION_PEBS_INDEX_FLAG} and {@link #VERSION_PMC_COUNTERS_MASK}. */
    public static final int VERSION = 0x00;
    public static final int HEADER_TYPE = 0x02;
    public static final int MARKER_FLAGS = 0x03;
    /** u16: whole record incl. header, excluding alignment padding. */
    public static final int SIZE = 0x04;
    /** u16 HookId = {u8 Type (opcode) @6, u8 Group @7}. */
    public static final int HOOK_ID = 0x06;
    public static final int HOOK_TYPE = 0x06;
    public static final int HOOK_GROUP = 0x07;
    // SYSTEM_TRACE_HEADER (full and compact)
    public static final int THREAD_ID = 0x08;
    public static final int PROCESS_ID = 0x0C;
    /** i64 SystemTime: the raw trace-clock timestamp. */
    public static final int SYSTEM_TIME = 0x10;
    /** u32, full header only. */
    public static final int KERNEL_TIME = 0x18;
    /** u32, full header only. */
    public static final int USER_TIME = 0x1C;
    // PERFINFO_TRACE_HEADER
    /** u64 raw timestamp of a PERFINFO_TRACE_HEADER. */
    public static final int PERFINFO_TIMESTAMP = 0x08;

    /** Version bit: an 8-byte PEBS index follows the header (TRACE_HEADER_PEBS_INDEX_FLAG). */
    public static final int VERSION_PEBS_INDEX_FLAG = 0x8000;
    /** Version bits: number of extra u64 PMC counters after the header, {@code (v & mask) >> 8}. */
    public static final int VERSION_PMC_COUNTERS_MASK = 0x0700;

    /** Group of the trace's own records (logfile header, rundown markers): EVENT_TRACE_GROUP_HEADER. */
    public static final int GROUP_HEADER = 0x00;
    /** Hook of the logfile-header record, first record of buffer 0 (WMI_LOG_TYPE_HEADER). */
    public static final int HOOK_LOGFILE_HEADER = 0x0000;
    /** Hook of the header extension record (WMI_LOG_TYPE_HEADER_EXTENSION). */
    public static final int HOOK_HEADER_EXTENSION = 0x0005;

    /** Bytes of header extensions (PEBS index, PMC counters) announced by a Version word. */
    public static int extensionBytes(int version) {
        int extra = (version & VERSION_PEBS_INDEX_FLAG) != 0 ? 8 : 0;
        return extra + 8 * ((version & VERSION_PMC_COUNTERS_MASK) >>> 8);
    }

    /** A hook id from its group and type bytes. */
    public static int hookId(int group, int type) {
        return ((group & 0xFF) << 8) | (type & 0xFF);
    }
}
