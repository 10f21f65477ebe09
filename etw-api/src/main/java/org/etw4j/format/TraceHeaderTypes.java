package org.etw4j.format;

/**
 * The record "marker" that starts every record in an ETW buffer: header-type bytes and marker flags.
 *
 * <p>Constants and tiny pure helpers only; no state; safe from any thread. The first u32 of a record,
 * read little-endian, is the marker: byte 3 holds the flags ({@link #MARKER_STRUCTURED} for every
 * structured header, {@link #MARKER_MESSAGE} for WPP/TraceMessage records), byte 2 the header type.
 * Source: ntwmi.h ( {@code TRACE_HEADER_TYPE_*},
 * dissect.etl {@code headers.py Marker}; verified against real files).
 */
public final class TraceHeaderTypes {
    private TraceHeaderTypes() {
    }

    /** SYSTEM_TRACE_HEADER logged by a 32-bit kernel/context (0x20 bytes). */
    public static final int SYSTEM32 = 0x01;
    /** SYSTEM_TRACE_HEADER logged by a 64-bit kernel/context (0x20 bytes). */
    public static final int SYSTEM64 = 0x02;
    /** Compact SYSTEM_TRACE_HEADER, 32-bit (0x18 bytes: no kernel/user time). */
    public static final int COMPACT32 = 0x03;
    /** Compact SYSTEM_TRACE_HEADER, 64-bit (0x18 bytes). */
    public static final int COMPACT64 = 0x04;
    /** Classic EVENT_TRACE_HEADER, 32-bit (0x30 bytes). */
    public static final int FULL_HEADER32 = 0x0A;
    /** EVENT_INSTANCE_GUID_HEADER, 32-bit (0x48 bytes). */
    public static final int INSTANCE32 = 0x0B;
    /** "Not used" (ntwmi.h). */
    public static final int TIMED = 0x0C;
    /** "Error while logging event" (ntwmi.h); layout undocumented. */
    public static final int ERROR = 0x0D;
    /** "Not used" (ntwmi.h). */
    public static final int WNODE_HEADER = 0x0E;
    /** MESSAGE_TRACE_HEADER (WPP / TraceMessage); in files its type byte is 0 and the flags byte says message. */
    public static final int MESSAGE = 0x0F;
    /** PERFINFO_TRACE_HEADER, 32-bit (0x10 bytes). */
    public static final int PERFINFO32 = 0x10;
    /** PERFINFO_TRACE_HEADER, 64-bit (0x10 bytes). */
    public static final int PERFINFO64 = 0x11;
    /** EVENT_HEADER, 32-bit (0x50 bytes). */
    public static final int EVENT_HEADER32 = 0x12;
    /** EVENT_HEADER, 64-bit (0x50 bytes). */
    public static final int EVENT_HEADER64 = 0x13;
    /** Classic EVENT_TRACE_HEADER, 64-bit (0x30 bytes). */
    public static final int FULL_HEADER64 = 0x14;
    /** EVENT_INSTANCE_GUID_HEADER, 64-bit (0x48 bytes). */
    public static final int INSTANCE64 = 0x15;

    /** Marker flags byte of structured headers: TRACE_HEADER_FLAG 0x80 | TRACE_HEADER_EVENT_TRACE 0x40. */
    public static final int MARKER_STRUCTURED = 0xC0;
    /** Marker flags byte of WPP/TraceMessage records: TRACE_HEADER_FLAG 0x80 | TRACE_MESSAGE 0x10. */
    public static final int MARKER_MESSAGE = 0x90;
    /** A marker of all ones means "no more records in this buffer" (the 0xFF padding). */
    public static final int END_OF_BUFFER_MARKER = 0xFFFF_FFFF;

    /** The marker flags byte (bits 24..31) of a marker. */
    public static int markerFlags(int marker) {
        return marker >>> 24;
    }

    /** The header-type byte (bits 16..23) of a marker. */
    public static int headerType(int marker) {
        return (marker >>> 16) & 0xFF;
    }

    /** A marker for a structured header of the given type; the low 16 bits are left to the caller. */
    public static int structuredMarker(int headerType) {
        return (MARKER_STRUCTURED << 24) | ((headerType & 0xFF) << 16);
    }

    /**
     * Whether a header type says the logging context was 64-bit (governs pointer-sized payload fields).
     * Unknown types answer {@code false}.
     */
    public static boolean is64Bit(int headerType) {
        switch (headerType) {
            case SYSTEM64:
            case COMPACT64:
            case FULL_HEADER64:
            case INSTANCE64:
            case PERFINFO64:
            case EVENT_HEADER64:
                return true;
            default:
                return false;
        }
    }
}
