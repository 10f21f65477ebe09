package org.etw4j.tracelogging;

import static org.etw4j.format.PrimitiveReader.ANSI;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.format.PrimitiveReader;

/**
 * Walks one payload for {@link TraceLoggingSchema#decode}: a bounds-checked cursor over position..limit of a
 * buffer, reading with absolute indexes (the buffer's own position is left to the caller). The bytes of each
 * primitive are read by {@code org.etw4j.format.PrimitiveReader}, shared with the manifest decoder of etw-consumer.
 *
 * <p>Single use, not thread-safe; one instance per decode call.
 */
final class TraceLoggingPayloadDecoder {

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
            case POINTER: {
                need(f, pointerSize, pointerSize + "-byte POINTER");
                long v = PrimitiveReader.pointer(buf, pos, pointerSize);
                pos += pointerSize;
                return v;
            }
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
            case FILETIME:
                need(f, 8, "FILETIME");
                return PrimitiveReader.fileTime(i64Advance());
            case SYSTEMTIME:
                need(f, 16, "SYSTEMTIME");
                return systemTime();
            case SID:
                return sid(f);
            case UNICODE_STRING: {
                int end = PrimitiveReader.nulIndex(buf, pos, limit, 2);
                if (end < 0) {
                    throw fail(f, "UTF-16 string has no NUL terminator before the end of the payload");
                }
                String s = string(end - pos, StandardCharsets.UTF_16LE);
                pos += 2;
                return s;
            }
            case ANSI_STRING: {
                int end = PrimitiveReader.nulIndex(buf, pos, limit, 1);
                if (end < 0) {
                    throw fail(f, "8-bit string has no NUL terminator before the end of the payload");
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

    /** A SYSTEMTIME as an instant, or its 16 raw bytes when they do not form a valid date. */
    private Object systemTime() {
        Instant t = PrimitiveReader.systemTime(buf, pos);
        if (t == null) {
            return bytes(16);
        }
        pos += 16;
        return t;
    }

    private String sid(TraceLoggingField f) {
        need(f, 8, "SID header");
        int size = PrimitiveReader.sidLength(buf, pos);
        need(f, size, "SID with " + (size - 8) / 4 + " sub-authorities");
        String s = PrimitiveReader.sid(buf, pos);
        pos += size;
        return s;
    }

    private int counted(TraceLoggingField f, String what) {
        need(f, 2, what + " length");
        int n = PrimitiveReader.u16(buf, pos);
        if (pos + 2L + n > limit) {
            throw fail(f, what + " of " + n + " bytes runs past the end of the payload (" + (limit - pos - 2)
                    + " bytes left)");
        }
        pos += 2;
        return n;
    }

    private String string(int byteCount, Charset cs) {
        String s = PrimitiveReader.string(buf, pos, byteCount, cs);
        pos += byteCount;
        return s;
    }

    private byte[] bytes(int n) {
        byte[] b = PrimitiveReader.bytes(buf, pos, n);
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

    private int u16Advance() {
        int v = PrimitiveReader.u16(buf, pos);
        pos += 2;
        return v;
    }

    private int i32Advance() {
        int v = PrimitiveReader.i32(buf, pos);
        pos += 4;
        return v;
    }

    private long i64Advance() {
        long v = PrimitiveReader.i64(buf, pos);
        pos += 8;
        return v;
    }
}
