package org.etw4j.consumer.etl;

import java.nio.ByteBuffer;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.format.TraceHeaderTypes;

/**
 * Where the size and the timestamp of a stored record are, by header kind: what a writer must know to carry a
 * record it did not encode itself.
 *
 * <p>Stateless; static; allocation-free; thread-safe. Source: ntwmi.h
 * (marker, size field and timestamp offset of every structured header; MESSAGE_TRACE_HEADER optional fields).
 */
final class RecordLayouts {
    private RecordLayouts() {
    }

    // MESSAGE_TRACE_HEADER option flags (ntwmi.h / evntrace.h TRACE_MESSAGE_*; etw-formats.md 3.3).
    private static final int MESSAGE_SEQUENCE = 0x01;
    private static final int MESSAGE_GUID = 0x02;
    private static final int MESSAGE_COMPONENT_ID = 0x04;
    private static final int MESSAGE_TIMESTAMP = 0x08;
    private static final int MESSAGE_HEADER_SIZE = 8;
    private static final int MESSAGE_OPTION_FLAGS = 6;

    /** The header type of the record at {@code p}, with MESSAGE for 0x90-flagged records; -1 if unknown. */
    static int headerType(ByteBuffer b, int p) {
        int marker = b.getInt(p);
        int flags = marker >>> 24;
        if ((flags & 0xC0) == 0xC0) {
            return (marker >>> 16) & 0xFF;
        }
        if ((flags & 0xD0) == 0x90) {
            return TraceHeaderTypes.MESSAGE;
        }
        return -1;
    }

    /** The record's size field (unaligned size), or -1 when the header type is not one ETW writes. */
    static int size(ByteBuffer b, int p) {
        int type = headerType(b, p);
        switch (type) {
            case TraceHeaderTypes.SYSTEM32:
            case TraceHeaderTypes.SYSTEM64:
            case TraceHeaderTypes.COMPACT32:
            case TraceHeaderTypes.COMPACT64:
            case TraceHeaderTypes.PERFINFO32:
            case TraceHeaderTypes.PERFINFO64:
                return Short.toUnsignedInt(b.getShort(p + SystemTraceHeaderLayout.SIZE));
            case TraceHeaderTypes.FULL_HEADER32:
            case TraceHeaderTypes.FULL_HEADER64:
            case TraceHeaderTypes.INSTANCE32:
            case TraceHeaderTypes.INSTANCE64:
            case TraceHeaderTypes.EVENT_HEADER32:
            case TraceHeaderTypes.EVENT_HEADER64:
            case TraceHeaderTypes.MESSAGE:
                return Short.toUnsignedInt(b.getShort(p));
            default:
                return -1;
        }
    }

    /**
     * Offset of the raw timestamp from the record start, or -1 when the record has none (a WPP message logged
     * without TRACE_MESSAGE_TIMESTAMP) or the header type is unknown.
     */
    static int timestampOffset(ByteBuffer b, int p) {
        int type = headerType(b, p);
        switch (type) {
            case TraceHeaderTypes.PERFINFO32:
            case TraceHeaderTypes.PERFINFO64:
                return SystemTraceHeaderLayout.PERFINFO_TIMESTAMP;
            case TraceHeaderTypes.MESSAGE: {
                int options = Short.toUnsignedInt(b.getShort(p + MESSAGE_OPTION_FLAGS));
                if ((options & MESSAGE_TIMESTAMP) == 0) {
                    return -1;
                }
                int q = MESSAGE_HEADER_SIZE;
                if ((options & MESSAGE_SEQUENCE) != 0) {
                    q += 4;
                }
                if ((options & MESSAGE_GUID) != 0) {
                    q += 16;
                } else if ((options & MESSAGE_COMPONENT_ID) != 0) {
                    q += 4;
                }
                return q;
            }
            case -1:
                return -1;
            default:
                // SYSTEM (full, compact), classic, instance and EVENT_HEADER all keep it at 0x10.
                return SystemTraceHeaderLayout.SYSTEM_TIME;
        }
    }

    /** Smallest valid size of a record of {@code headerType} (its fixed header). */
    static int minimumSize(int headerType) {
        switch (headerType) {
            case TraceHeaderTypes.SYSTEM32:
            case TraceHeaderTypes.SYSTEM64:
                return SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE;
            case TraceHeaderTypes.COMPACT32:
            case TraceHeaderTypes.COMPACT64:
                return SystemTraceHeaderLayout.COMPACT_HEADER_SIZE;
            case TraceHeaderTypes.PERFINFO32:
            case TraceHeaderTypes.PERFINFO64:
                return SystemTraceHeaderLayout.PERFINFO_HEADER_SIZE;
            case TraceHeaderTypes.FULL_HEADER32:
            case TraceHeaderTypes.FULL_HEADER64:
                return 0x30;
            case TraceHeaderTypes.INSTANCE32:
            case TraceHeaderTypes.INSTANCE64:
                return 0x48;
            case TraceHeaderTypes.EVENT_HEADER32:
            case TraceHeaderTypes.EVENT_HEADER64:
                return 0x50;
            case TraceHeaderTypes.MESSAGE:
                return MESSAGE_HEADER_SIZE;
            default:
                return Integer.MAX_VALUE;
        }
    }
}
