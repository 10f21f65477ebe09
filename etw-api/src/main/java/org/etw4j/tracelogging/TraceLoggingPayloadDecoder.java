package org.etw4j.tracelogging;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.etw4j.Guid;

/**
 * Walks one payload for {@link TraceLoggingSchema#decode}: a bounds-checked cursor over position..limit of a
 * buffer, reading with absolute indexes (the buffer's own position is left to the caller).
 *
 * <p>Single use, not thread-safe; one instance per decode call.
 */
final class TraceLoggingPayloadDecoder {

    /** windows-1252 when the JDK has it (java.base does), ISO-8859-1 otherwise. */
    static final Charset ANSI = Charset.isSupported("windows-1252") ? Charset.forName("windows-1252")
            : StandardCharsets.ISO_8859_1;

    private static final long FILETIME_EPOCH_OFFSET_SECONDS = 11_644_473_600L;

    private final ByteBuffer buf;
    private final int start;
    private final int limit;
    private final int pointerSize;
    /**
     * Values still allowed. Each value but NULL consumes at least one byte, so a real payload stays far below this;
     * the budget stops hostile metadata (fixed arrays of structs of NULL fields) from producing billions of values
     * out of a few bytes.
     */
    private long valueBudget;
    private int pos;

    TraceLoggingPayloadDecoder(ByteBuffer buf, int pointerSize) {
        this.buf = buf;
        this.start = buf.position();
        this.limit = buf.limit();
        this.pointerSize = pointerSize;
        this.pos = start;
        this.valueBudget = 65_536L + 4L * (limit - start);
    }

    int position() {
        return pos;
    }

    DecodedField field(TraceLoggingSchema.FieldNode node) {
        TraceLoggingField f = node.field();
        Object value;
        switch (f.arity()) {
            case SCALAR:
                value = value(node);
                break;
            case VARIABLE_ARRAY:
                need(f, 2, "array count");
                value = array(node, u16Advance());
                break;
            case FIXED_ARRAY:
                value = array(node, f.fixedCount());
                break;
            default:
                throw fail(f, "custom-schema fields cannot be decoded");
        }
        return new DecodedField(f.name(), f.inType(), f.outType(), value);
    }

    private Object array(TraceLoggingSchema.FieldNode node, int count) {
        TraceLoggingField f = node.field();
        if (f.inType() == InType.NULL) {
            throw fail(f, "arrays of NULL are illegal");
        }
        if (f.outType() == OutType.STRING) {
            switch (f.inType()) {
                case INT8:
                case UINT8:
                    need(f, count, count + " 8-bit characters");
                    return string(count, ANSI);
                case INT16:
                case UINT16:
                    need(f, 2L * count, count + " UTF-16 units");
                    return string(2 * count, StandardCharsets.UTF_16LE);
                default:
                    break;
            }
        }
        List<Object> values = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            values.add(value(node));
        }
        return Collections.unmodifiableList(values);
    }

    private Object value(TraceLoggingSchema.FieldNode node) {
        TraceLoggingField f = node.field();
        if (--valueBudget < 0) {
            throw fail(f, "more values than a payload of " + (limit - start) + " bytes can hold (malformed metadata)");
        }
        switch (f.inType()) {
            case NULL:
                return null;
            case STRUCT: {
                List<DecodedField> members = new ArrayList<>(node.members().size());
                for (TraceLoggingSchema.FieldNode m : node.members()) {
                    members.add(field(m));
                }
                return Collections.unmodifiableList(members);
            }
            case INT8:
                need(f, 1, "INT8");
                return (int) buf.get(pos++);
            case UINT8:
                need(f, 1, "UINT8");
                return buf.get(pos++) & 0xFF;
            case INT16:
                need(f, 2, "INT16");
                return (int) (short) u16Advance();
            case UINT16:
                need(f, 2, "UINT16");
                return u16Advance();
            case INT32:
                need(f, 4, "INT32");
                return i32Advance();
            case UINT32:
            case HEXINT32:
                need(f, 4, f.inType().name());
                return i32Advance() & 0xFFFF_FFFFL;
            case INT64:
            case UINT64:
            case HEXINT64:
                need(f, 8, f.inType().name());
                return i64Advance();
            case POINTER:
                need(f, pointerSize, pointerSize + "-byte POINTER");
                return pointerSize == 8 ? i64Advance() : i32Advance() & 0xFFFF_FFFFL;
            case FLOAT:
                need(f, 4, "FLOAT");
                return Float.intBitsToFloat(i32Advance());
            case DOUBLE:
                need(f, 8, "DOUBLE");
                return Double.longBitsToDouble(i64Advance());
            case BOOL32:
                need(f, 4, "BOOL32");
                return i32Advance() != 0;
            case GUID: {
                need(f, 16, "GUID");
                Guid g = Guid.readFrom(buf, pos);
                pos += 16;
                return g;
            }
            case FILETIME: {
                need(f, 8, "FILETIME");
                long ticks = i64Advance();
                return Instant.ofEpochSecond(Math.floorDiv(ticks, 10_000_000L) - FILETIME_EPOCH_OFFSET_SECONDS,
                        Math.floorMod(ticks, 10_000_000L) * 100);
            }
            case SYSTEMTIME:
                need(f, 16, "SYSTEMTIME");
                return systemTime();
            case SID:
                return sid(f);
            case UNICODE_STRING: {
                int end = pos;
                while (true) {
                    if (end + 2 > limit) {
                        throw fail(f, "UTF-16 string has no NUL terminator before the end of the payload");
                    }
                    if (buf.get(end) == 0 && buf.get(end + 1) == 0) {
                        break;
                    }
                    end += 2;
                }
                String s = string(end - pos, StandardCharsets.UTF_16LE);
                pos += 2;
                return s;
            }
            case ANSI_STRING: {
                int end = pos;
                while (true) {
                    if (end >= limit) {
                        throw fail(f, "8-bit string has no NUL terminator before the end of the payload");
                    }
                    if (buf.get(end) == 0) {
                        break;
                    }
                    end++;
                }
                String s = string(end - pos, f.outType().impliesUtf8() ? StandardCharsets.UTF_8 : ANSI);
                pos++;
                return s;
            }
            case COUNTED_STRING: {
                int n = counted(f, "counted UTF-16 string");
                if ((n & 1) != 0) {
                    throw fail(f, "counted UTF-16 string has an odd byte count " + n);
                }
                return string(n, StandardCharsets.UTF_16LE);
            }
            case COUNTED_ANSI_STRING: {
                int n = counted(f, "counted 8-bit string");
                return string(n, f.outType().impliesUtf8() ? StandardCharsets.UTF_8 : ANSI);
            }
            case BINARY:
            case COUNTED_BINARY: {
                int n = counted(f, "counted binary");
                return bytes(n);
            }
            default:
                throw fail(f, "InType " + f.inType() + " cannot be decoded");
        }
    }

    private Object systemTime() {
        int at = pos;
        int[] v = new int[8];
        for (int i = 0; i < 8; i++) {
            v[i] = u16Advance();
        }
        try {
            // v[2] (day of week) is redundant and ignored, as Windows' SystemTimeToFileTime does.
            return LocalDateTime.of(v[0], v[1], v[3], v[4], v[5], v[6], v[7] * 1_000_000).toInstant(ZoneOffset.UTC);
        } catch (DateTimeException e) {
            pos = at;
            return bytes(16);
        }
    }

    private String sid(TraceLoggingField f) {
        need(f, 8, "SID header");
        int revision = buf.get(pos) & 0xFF;
        int subCount = buf.get(pos + 1) & 0xFF;
        need(f, 8L + 4L * subCount, "SID with " + subCount + " sub-authorities");
        long authority = 0;
        for (int i = 2; i < 8; i++) {
            authority = (authority << 8) | (buf.get(pos + i) & 0xFF);
        }
        StringBuilder sb = new StringBuilder("S-").append(revision).append('-');
        // ConvertSidToStringSid prints authorities of 2^32 and more in hex.
        if (authority >= 1L << 32) {
            sb.append(String.format("0x%012X", authority));
        } else {
            sb.append(authority);
        }
        pos += 8;
        for (int i = 0; i < subCount; i++) {
            sb.append('-').append(i32Advance() & 0xFFFF_FFFFL);
        }
        return sb.toString();
    }

    private int counted(TraceLoggingField f, String what) {
        need(f, 2, what + " length");
        int n = u16(pos);
        if (pos + 2L + n > limit) {
            throw fail(f, what + " of " + n + " bytes runs past the end of the payload (" + (limit - pos - 2)
                    + " bytes left)");
        }
        pos += 2;
        return n;
    }

    private String string(int byteCount, Charset cs) {
        return new String(bytes(byteCount), cs);
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = buf.get(pos + i);
        }
        pos += n;
        return b;
    }

    private void need(TraceLoggingField f, long n, String what) {
        if (pos + n > limit) {
            throw fail(f, what + " needs " + n + " bytes but only " + (limit - pos) + " remain");
        }
    }

    private TraceLoggingDecodeException fail(TraceLoggingField f, String problem) {
        return new TraceLoggingDecodeException(f.name(), pos - start, problem);
    }

    private int u16(int at) {
        return (buf.get(at) & 0xFF) | (buf.get(at + 1) & 0xFF) << 8;
    }

    private int u16Advance() {
        int v = u16(pos);
        pos += 2;
        return v;
    }

    private int i32Advance() {
        int v = (buf.get(pos) & 0xFF) | (buf.get(pos + 1) & 0xFF) << 8 | (buf.get(pos + 2) & 0xFF) << 16
                | (buf.get(pos + 3) & 0xFF) << 24;
        pos += 4;
        return v;
    }

    private long i64Advance() {
        long lo = i32Advance() & 0xFFFF_FFFFL;
        long hi = i32Advance() & 0xFFFF_FFFFL;
        return lo | hi << 32;
    }
}
