package org.etw4j.consumer.etl;

import org.etw4j.format.TraceHeaderTypes;

/**
 * The kind of header a record in an .etl buffer starts with (the six structured layouts ETW writes).
 *
 * <p>Enum constants: immutable and thread-safe. The 32- and 64-bit header types of a kind share one
 * constant ({@link EtlRecordView#headerType()} keeps the raw byte); the compact SYSTEM_TRACE_HEADER
 * (types 0x03/0x04) counts as {@link #SYSTEM_TRACE_HEADER}, as the corpus' expected facts do.
 * Source: ntwmi.h ({@code TRACE_HEADER_TYPE_*}, the header markers).
 */
public enum HeaderKind {
    /** Kernel SYSTEM_TRACE_HEADER, full (0x01/0x02) or compact (0x03/0x04). */
    SYSTEM_TRACE_HEADER,
    /** Kernel PERFINFO_TRACE_HEADER (0x10/0x11): no process or thread id. */
    PERFINFO_TRACE_HEADER,
    /** Classic (MOF) EVENT_TRACE_HEADER (0x0A/0x14). */
    EVENT_TRACE_HEADER,
    /** Classic EVENT_INSTANCE_GUID_HEADER (0x0B/0x15). */
    EVENT_INSTANCE_GUID_HEADER,
    /** Crimson EVENT_HEADER (0x12/0x13): manifest and TraceLogging events. */
    EVENT_HEADER,
    /** WPP / TraceMessage MESSAGE_TRACE_HEADER (marker flags 0x90). */
    MESSAGE_TRACE_HEADER;

    private static final HeaderKind[] VALUES = values();

    /** The constants in declaration order, without the defensive copy {@link #values()} makes. */
    static HeaderKind byOrdinal(int ordinal) {
        return VALUES[ordinal];
    }

    /** Number of constants. */
    static int count() {
        return VALUES.length;
    }

    /**
     * The kind of a raw header type byte ({@link TraceHeaderTypes}), or {@code null} for types ETW does not
     * write structured records with (0x0C TIMED, 0x0D ERROR, 0x0E WNODE and unknown values).
     */
    public static HeaderKind ofHeaderType(int headerType) {
        return switch (headerType) {
            case TraceHeaderTypes.SYSTEM32, TraceHeaderTypes.SYSTEM64,
                 TraceHeaderTypes.COMPACT32, TraceHeaderTypes.COMPACT64 -> SYSTEM_TRACE_HEADER;
            case TraceHeaderTypes.PERFINFO32, TraceHeaderTypes.PERFINFO64 -> PERFINFO_TRACE_HEADER;
            case TraceHeaderTypes.FULL_HEADER32, TraceHeaderTypes.FULL_HEADER64 -> EVENT_TRACE_HEADER;
            case TraceHeaderTypes.INSTANCE32, TraceHeaderTypes.INSTANCE64 -> EVENT_INSTANCE_GUID_HEADER;
            case TraceHeaderTypes.EVENT_HEADER32, TraceHeaderTypes.EVENT_HEADER64 -> EVENT_HEADER;
            case TraceHeaderTypes.MESSAGE -> MESSAGE_TRACE_HEADER;
            default -> null;
        };
    }
}
