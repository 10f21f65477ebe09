package org.etw4j.consumer.internal.decode;

import static org.etw4j.format.PrimitiveReader.ANSI;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.StructValue;
import org.etw4j.format.PrimitiveReader;

/**
 * Walks a field template over an event's user data with TDH's rules and returns typed fields.
 * Stateless; thread-safe; allocation per call (the result). Rules (etw-formats.md section 4.3): fields are
 * packed without alignment, in template order; fixed types have their wire size; strings are NUL-terminated
 * unless a length (in characters) is given, fixed-length strings drop their trailing NULs; binaries take their
 * length in bytes (the rest of the data when none is given); counted types carry a u16 byte count; pointer-sized
 * types follow the logging context's pointer size; SIDs are {@code 8 + 4 x SubAuthorityCount} bytes; a
 * {@code count} makes an array and repeats a struct's member sequence. A length or count naming a field looks
 * the name up among the fields decoded so far, innermost struct first.
 *
 * <p>A field marked {@link DataSpec#optional()} that starts exactly at the end of the data is left out.
 *
 * <p>The bytes of each primitive (integers, floats, times, SIDs, text) are read by etw-api's
 * {@link PrimitiveReader}, shared with the TraceLogging decoder: TDH's in-types 1-15, 17-23 and 25 are
 * TraceLogging's with the same wire forms (etw-formats.md section 4.2).
 *
 * <p>Robustness: a field that does not fit in the remaining bytes, or whose length or count cannot be
 * resolved, is returned with an error and its raw bytes; decoding continues with the next field whenever the
 * failed field's size is known, otherwise the remaining fields are reported as not decoded. Nothing throws
 * for bad data.
 */
final class PayloadDecoder {
    /**
     * How many elements of zero bytes an array may have before decoding stops with a field problem: a hostile count
     * (up to 2^32) of elements that consume nothing must not fill the heap (found by etw-fuzz).
     */
    static final int MAX_EMPTY_ELEMENTS = 65536;


    private PayloadDecoder() {
    }

    /**
     * The result of a walk.
     *
     * <p>Immutable value; thread-safe.
     *
     * @param fields   the fields, in template order
     * @param consumed bytes of user data the template used
     */
    public record Result(List<EventField> fields, int consumed) {
        public Result {
            fields = List.copyOf(fields);
        }

        /** Whether any field failed. */
        public boolean hasErrors() {
            return fields.stream().anyMatch(EventField::hasError);
        }
    }

    /**
     * Decodes {@code data} (from its position to its limit; the buffer's position is not changed) with
     * {@code template}.
     *
     * @param template    the fields
     * @param maps        value/bit maps by name (fields naming a missing map get no label)
     * @param data        the user data; byte order is ignored (always little-endian)
     * @param pointerSize 4 or 8, the logging context's pointer size
     */
    public static Result decode(List<FieldSpec> template, Map<String, ValueMap> maps, ByteBuffer data,
                                int pointerSize) {
        Walked w = walk(template, maps, data, pointerSize);
        return new Result(w.fields(), w.consumed());
    }

    /**
     * The result of {@link #walk}: the decoder's own list, not copied (the caller owns it from then on).
     *
     * @param fields   the fields, in template order (a mutable list nobody else holds)
     * @param consumed bytes of user data the template used
     */
    record Walked(List<EventField> fields, int consumed) {
    }

    /** {@link #decode} without copying the field list into an immutable one (for {@link EventDecoder}). */
    static Walked walk(List<FieldSpec> template, Map<String, ValueMap> maps, ByteBuffer data, int pointerSize) {
        if (pointerSize != 4 && pointerSize != 8) {
            throw new IllegalArgumentException("pointer size must be 4 or 8: " + pointerSize);
        }
        ByteBuffer le = data.position() == 0 && data.order() == ByteOrder.LITTLE_ENDIAN ? data
                : data.slice().order(ByteOrder.LITTLE_ENDIAN); // the walker reads absolute indexes from 0
        Walker w = new Walker(le, maps == null ? Map.of() : maps, pointerSize);
        List<EventField> out = new ArrayList<>(template.size());
        w.walk(template, out, null);
        return new Walked(out, w.pos);
    }

    /** Signals that a field could not be decoded; {@code size} is its byte size when known, else -1. */
    private static final class FieldProblem extends Exception {
        private static final long serialVersionUID = 1L;
        final int size;
        final transient Object partial;

        FieldProblem(String message, int size, Object partial) {
            super(message, null, false, false);
            this.size = size;
            this.partial = partial;
        }
    }

    /** A decoded scope (top level or one struct element) for resolving length/count references. */
    private record Scope(List<EventField> fields, Scope outer) {
        Long lookup(String name) {
            for (Scope s = this; s != null; s = s.outer) {
                for (int i = s.fields.size() - 1; i >= 0; i--) {
                    EventField f = s.fields.get(i);
                    if (f.name().equals(name)) {
                        return f.error() == null ? f.asLong() : null;
                    }
                }
            }
            return null;
        }
    }

    private static final class Walker {
        final ByteBuffer b;
        final Map<String, ValueMap> maps;
        final int pointerSize;
        final int limit;
        int pos;
        /** Set once a field's size could not be determined: later offsets are unknown. */
        String lostAt;

        Walker(ByteBuffer b, Map<String, ValueMap> maps, int pointerSize) {
            this.b = b;
            this.maps = maps;
            this.pointerSize = pointerSize;
            this.limit = b.limit();
        }

        void walk(List<FieldSpec> specs, List<EventField> out, Scope outer) {
            Scope scope = new Scope(out, outer);
            for (int i = 0, n = specs.size(); i < n; i++) { // indexed: no iterator per template walk
                FieldSpec spec = specs.get(i);
                if (spec instanceof DataSpec d && d.optional() && pos >= limit && lostAt == null) {
                    continue;
                }
                out.add(field(spec, scope));
            }
        }

        EventField field(FieldSpec spec, Scope scope) {
            if (lostAt != null) {
                InType t = spec instanceof DataSpec d ? d.inType() : InType.STRUCT;
                OutType o = spec instanceof DataSpec d ? d.outType() : OutType.NULL;
                return EventField.failed(spec.name(), t, o, null,
                        "not decoded: the size of field '" + lostAt + "' is unknown", new byte[0]);
            }
            if (spec instanceof StructSpec s) {
                return struct(s, scope);
            }
            DataSpec d = (DataSpec) spec;
            if (!d.count().present()) {
                return scalar(d, scope);
            }
            int start = pos;
            long count;
            try {
                count = resolve(d.count(), scope, "count");
            } catch (FieldProblem p) {
                lostAt = d.name();
                return EventField.failed(d.name(), d.inType(), d.outType(), null, p.getMessage(), new byte[0]);
            }
            List<Object> values = new ArrayList<>();
            boolean toEnd = d.count().isToEnd();
            for (long i = 0; toEnd ? pos < limit : i < count; i++) {
                int before = pos;
                try {
                    values.add(value(d, scope));
                } catch (FieldProblem p) {
                    int end = p.size >= 0 ? Math.min(limit, before + p.size) : limit;
                    byte[] raw = bytes(start, end - start);
                    pos = end;
                    if (p.size < 0) {
                        lostAt = d.name();
                    }
                    return EventField.failed(d.name(), d.inType(), d.outType(), List.copyOf(values),
                            "element " + i + " of " + count + ": " + p.getMessage(), raw);
                }
                if (pos == before && (toEnd || (pos >= limit && i + 1 < count))) {
                    // Zero-size elements at the end of the data: a corrupt count must not spin for billions of rounds.
                    break;
                }
                // Elements of no bytes before the end (a NULL type, an empty counted string) repeat forever too.
                if (pos == before && i + 1 < count && values.size() >= MAX_EMPTY_ELEMENTS) {
                    // the elements may be null (type NULL): List.copyOf would refuse them
                    return EventField.failed(d.name(), d.inType(), d.outType(),
                            java.util.Collections.unmodifiableList(values), count + " elements of 0 bytes: stopped after " + values.size(), bytes(start, pos - start));
                }
            }
            return EventField.of(d.name(), d.inType(), d.outType(),
                    applyOutType(java.util.Collections.unmodifiableList(values), d.outType()), null);
        }

        EventField struct(StructSpec s, Scope scope) {
            int start = pos;
            if (!s.count().present()) {
                List<EventField> members = new ArrayList<>(s.members().size());
                walk(s.members(), members, scope);
                return EventField.of(s.name(), InType.STRUCT, OutType.NULL, new StructValue(members), null);
            }
            long count;
            try {
                count = resolve(s.count(), scope, "count");
            } catch (FieldProblem p) {
                lostAt = s.name();
                return EventField.failed(s.name(), InType.STRUCT, OutType.NULL, null, p.getMessage(), new byte[0]);
            }
            List<StructValue> elements = new ArrayList<>();
            for (long i = 0; i < count && lostAt == null; i++) {
                int before = pos;
                List<EventField> members = new ArrayList<>(s.members().size());
                walk(s.members(), members, scope);
                elements.add(new StructValue(members));
                if (pos == before && pos >= limit && i + 1 < count) {
                    return EventField.failed(s.name(), InType.STRUCT, OutType.NULL, List.copyOf(elements),
                            "data ended after " + (i + 1) + " of " + count + " elements", bytes(start, pos - start));
                }
                // Elements of no bytes repeat forever: a hostile count (up to 2^32) must not fill the heap.
                if (pos == before && i + 1 < count && elements.size() >= MAX_EMPTY_ELEMENTS) {
                    return EventField.failed(s.name(), InType.STRUCT, OutType.NULL, List.copyOf(elements),
                            count + " elements of 0 bytes: stopped after " + elements.size(), bytes(start, pos - start));
                }
            }
            return EventField.of(s.name(), InType.STRUCT, OutType.NULL,
                    java.util.Collections.unmodifiableList(elements), null);
        }

        EventField scalar(DataSpec d, Scope scope) {
            int start = pos;
            try {
                Object v = applyOutType(value(d, scope), d.outType());
                String label = label(d, v);
                return EventField.of(d.name(), d.inType(), d.outType(), v, label, label == null
                        ? EventField.LabelKind.NONE : isBitMap(d) ? EventField.LabelKind.FLAGS
                        : EventField.LabelKind.NAME);
            } catch (FieldProblem p) {
                int end = p.size >= 0 ? Math.min(limit, start + p.size) : limit;
                byte[] raw = bytes(start, end - start);
                pos = end;
                if (p.size < 0) {
                    lostAt = d.name();
                }
                return EventField.failed(d.name(), d.inType(), d.outType(), p.partial, p.getMessage(), raw);
            }
        }

        boolean isBitMap(DataSpec d) {
            ValueMap m = maps.get(d.mapName());
            return m != null && m.bitMap();
        }

        String label(DataSpec d, Object v) {
            if (d.mapName() == null) {
                return null;
            }
            ValueMap m = maps.get(d.mapName());
            if (m == null) {
                return null;
            }
            if (v instanceof Integer i) {
                return m.label(i.longValue());
            }
            if (v instanceof Long l) {
                return m.label(l);
            }
            if (v instanceof Boolean bo) {
                return m.label(bo ? 1 : 0);
            }
            return null;
        }

        long resolve(SizeRule rule, Scope scope, String what) throws FieldProblem {
            if (rule.isToEnd()) {
                return Long.MAX_VALUE;
            }
            if (!rule.isReference()) {
                if (rule.literal() < 0) {
                    throw new FieldProblem(what + " " + rule.literal() + " is negative", -1, null);
                }
                return rule.literal();
            }
            Long v = scope.lookup(rule.fieldName());
            if (v == null) {
                throw new FieldProblem(what + " field '" + rule.fieldName() + "' is missing or not an integer", -1,
                        null);
            }
            if (v < 0) {
                throw new FieldProblem(what + " field '" + rule.fieldName() + "' is negative: " + v, -1, null);
            }
            return v;
        }

        int remaining() {
            return limit - pos;
        }

        void need(int size, String type) throws FieldProblem {
            if (size > remaining()) {
                throw new FieldProblem(type + " needs " + size + " bytes, " + remaining() + " left", remaining(),
                        null);
            }
        }

        Object value(DataSpec d, Scope scope) throws FieldProblem {
            InType t = d.inType();
            int fixed = t.fixedSize(pointerSize);
            if (fixed > 0) {
                need(fixed, t.manifestName());
                Object v = fixedValue(t, pos);
                if (v == null) {
                    pos += fixed;
                    throw new FieldProblem("invalid " + t.manifestName() + " value", fixed, null);
                }
                pos += fixed;
                return v;
            }
            return switch (t) {
                case UNICODE_STRING -> d.length().present()
                        ? fixedString(checkedLength(d, scope) * 2L, true)
                        : terminatedString(true);
                case ANSI_STRING -> d.length().present()
                        ? fixedString(checkedLength(d, scope), false, d.outType())
                        : terminatedString(false, d.outType());
                case BINARY -> {
                    long n = d.length().present() ? checkedLength(d, scope) : remaining();
                    yield binary(n);
                }
                case COUNTED_STRING, WBEM_COUNTED_STRING -> counted(true, false);
                case COUNTED_ANSI_STRING, WBEM_COUNTED_ANSI_STRING -> counted(false, false);
                case REVERSED_COUNTED_STRING -> counted(true, true);
                case REVERSED_COUNTED_ANSI_STRING -> counted(false, true);
                case COUNTED_BINARY -> {
                    need(2, t.manifestName());
                    int n = PrimitiveReader.u16(b, pos);
                    pos += 2;
                    try {
                        yield binary(n);
                    } catch (FieldProblem p) {
                        pos -= 2;
                        throw new FieldProblem(p.getMessage(), p.size + 2, null);
                    }
                }
                case NON_NUL_TERMINATED_STRING -> fixedString(remaining() & ~1, true);
                case NON_NUL_TERMINATED_ANSI_STRING -> fixedString(remaining(), false);
                case HEXDUMP -> {
                    need(4, t.manifestName());
                    long n = PrimitiveReader.u32(b, pos);
                    pos += 4;
                    try {
                        yield binary(n);
                    } catch (FieldProblem p) {
                        pos -= 4;
                        throw new FieldProblem(p.getMessage(), p.size + 4, null);
                    }
                }
                case SID -> sid(pos);
                case WBEM_SID -> wbemSid();
                case NULL -> null;
                default -> throw new FieldProblem("type " + t.manifestName() + " cannot be decoded here", -1, null);
            };
        }

        long checkedLength(DataSpec d, Scope scope) throws FieldProblem {
            return resolve(d.length(), scope, "length");
        }

        Object fixedValue(InType t, int at) {
            return switch (t) {
                case INT8 -> (int) b.get(at);
                case UINT8 -> PrimitiveReader.u8(b, at);
                case INT16 -> (int) PrimitiveReader.i16(b, at);
                case UINT16 -> PrimitiveReader.u16(b, at);
                case INT32 -> PrimitiveReader.i32(b, at);
                case UINT32, HEXINT32 -> PrimitiveReader.u32(b, at);
                case INT64, UINT64, HEXINT64 -> PrimitiveReader.i64(b, at);
                case POINTER, SIZET -> PrimitiveReader.pointer(b, at, pointerSize);
                case FLOAT -> (double) PrimitiveReader.f32(b, at);
                case DOUBLE -> PrimitiveReader.f64(b, at);
                case BOOLEAN -> PrimitiveReader.i32(b, at) != 0;
                case GUID -> Guid.readFrom(b, at);
                case FILETIME -> PrimitiveReader.fileTime(PrimitiveReader.i64(b, at));
                case SYSTEMTIME -> PrimitiveReader.systemTime(b, at); // null: invalid date
                case UNICODE_CHAR -> String.valueOf((char) PrimitiveReader.u16(b, at));
                case ANSI_CHAR -> PrimitiveReader.string(b, at, 1, ANSI);
                default -> throw new IllegalStateException("not a fixed type: " + t);
            };
        }

        Object binary(long n) throws FieldProblem {
            if (n < 0 || n > remaining()) {
                throw new FieldProblem("binary of " + n + " bytes, " + remaining() + " left", remaining(), null);
            }
            byte[] v = bytes(pos, (int) n);
            pos += (int) n;
            return v;
        }

        String fixedString(long byteCount, boolean utf16) throws FieldProblem {
            return fixedString(byteCount, utf16, OutType.NULL);
        }

        String fixedString(long byteCount, boolean utf16, OutType out) throws FieldProblem {
            // Negative: a length that overflowed on the way here (a hostile TDH or manifest length, times 2).
            if (byteCount < 0 || byteCount > remaining()) {
                throw new FieldProblem("string of " + byteCount + " bytes, " + remaining() + " left", remaining(),
                        null);
            }
            int n = (int) byteCount;
            String s = text(pos, n, utf16, out);
            pos += n;
            // Fixed-length strings are padded and include their terminator: cut at the first NUL.
            int nul = s.indexOf('\0');
            return nul >= 0 ? s.substring(0, nul) : s;
        }

        String terminatedString(boolean utf16) throws FieldProblem {
            return terminatedString(utf16, OutType.NULL);
        }

        String terminatedString(boolean utf16, OutType out) throws FieldProblem {
            int unit = utf16 ? 2 : 1;
            int nul = PrimitiveReader.nulIndex(b, pos, limit, unit);
            if (nul >= 0) {
                String s = text(pos, nul - pos, utf16, out);
                pos = nul + unit;
                return s;
            }
            if (remaining() == 0) {
                throw new FieldProblem("string missing: no bytes left", 0, null);
            }
            // The whole units before the end, as far as they go.
            String partial = text(pos, remaining() / unit * unit, utf16, out);
            throw new FieldProblem("string not NUL-terminated before the end of the data", remaining(), partial);
        }

        String counted(boolean utf16, boolean bigEndianCount) throws FieldProblem {
            need(2, utf16 ? "counted string" : "counted ANSI string");
            int n = PrimitiveReader.u16(b, pos);
            if (bigEndianCount) {
                n = ((n & 0xFF) << 8) | (n >>> 8);
            }
            if (n > remaining() - 2) {
                throw new FieldProblem("counted string of " + n + " bytes, " + (remaining() - 2) + " left",
                        remaining(), null);
            }
            String s = text(pos + 2, n, utf16, OutType.NULL);
            pos += 2 + n;
            return s;
        }

        String sid(int at) throws FieldProblem {
            if (limit - at < 8) {
                throw new FieldProblem("SID needs 8 bytes, " + (limit - at) + " left", limit - at, null);
            }
            int size = PrimitiveReader.sidLength(b, at);
            if (limit - at < size) {
                throw new FieldProblem("SID needs " + size + " bytes, " + (limit - at) + " left", limit - at, null);
            }
            String sid = PrimitiveReader.sid(b, at);
            pos = at + size;
            return sid;
        }

        /**
         * WBEM SID: a TOKEN_USER (two pointers) then the SID; a zero first pointer-sized word... is reduced by the
         * kernel to a 4-byte zero meaning "no SID" (TraceEvent {@code SkipSID}; etw-formats.md section 3.6).
         */
        String wbemSid() throws FieldProblem {
            need(4, "wbem:Sid");
            if (PrimitiveReader.i32(b, pos) == 0) {
                pos += 4;
                return "";
            }
            int token = 2 * pointerSize;
            need(token + 8, "wbem:Sid");
            int start = pos;
            try {
                return sid(pos + token);
            } catch (FieldProblem p) {
                pos = start;
                throw new FieldProblem(p.getMessage(), p.size < 0 ? -1 : p.size + token, null);
            }
        }

        String text(int at, int byteCount, boolean utf16, OutType out) {
            if (utf16) {
                return PrimitiveReader.string(b, at, byteCount & ~1, StandardCharsets.UTF_16LE);
            }
            return PrimitiveReader.string(b, at, byteCount, out == OutType.UTF8 ? StandardCharsets.UTF_8 : ANSI);
        }

        byte[] bytes(int at, int n) {
            return PrimitiveReader.bytes(b, at, Math.max(0, n));
        }
    }

    /**
     * Out types that change what the bytes mean (TDH and TraceLogging agree on these): an integer declared
     * {@link OutType#BOOLEAN} is a boolean (non-zero is true); a u16 declared {@link OutType#PORT} is in network
     * byte order and becomes the port number; a u32 declared {@link OutType#IPV4} holds the address bytes in
     * network order and becomes dotted text; 16 bytes declared {@link OutType#IPV6} become RFC 5952 text; a
     * {@link OutType#SOCKET_ADDRESS} SOCKADDR becomes {@code a.b.c.d:port} or {@code [v6]:port}. The out type of an
     * array applies to each element, as it does to a scalar.
     */
    static Object applyOutType(Object v, OutType out) {
        if (v == null) {
            return null;
        }
        if (v instanceof List<?> elements) {
            return switch (out) {
                case BOOLEAN, PORT, IPV4, IPV6, SOCKET_ADDRESS -> {
                    List<Object> converted = new ArrayList<>(elements.size());
                    for (Object e : elements) {
                        converted.add(applyOutType(e, out));
                    }
                    yield java.util.Collections.unmodifiableList(converted);
                }
                default -> v;
            };
        }
        switch (out) {
            case BOOLEAN:
                if (v instanceof Integer || v instanceof Long) {
                    return ((Number) v).longValue() != 0;
                }
                return v;
            case PORT:
                if (v instanceof Integer i && (i & ~0xFFFF) == 0) {
                    return ((i & 0xFF) << 8) | (i >>> 8);
                }
                return v;
            case IPV4:
                if (v instanceof Long l && (l & ~0xFFFF_FFFFL) == 0) {
                    return (l & 0xFF) + "." + ((l >>> 8) & 0xFF) + "." + ((l >>> 16) & 0xFF) + "." + ((l >>> 24) & 0xFF);
                }
                return v;
            case IPV6:
                if (v instanceof byte[] b && b.length == 16) {
                    return ipv6(b);
                }
                return v;
            case SOCKET_ADDRESS:
                return v instanceof byte[] b ? socketAddress(b) : v;
            default:
                return v;
        }
    }

    /**
     * Text of a SOCKADDR (ws2def.h): {@code u16 family} (little-endian), {@code u16 port} (network order), then
     * for AF_INET (2) 4 address bytes -> {@code a.b.c.d:port}, for AF_INET6 (23) {@code u32 flowinfo}, 16 address
     * bytes -> {@code [addr]:port}; other families keep the bytes.
     */
    static Object socketAddress(byte[] b) {
        if (b.length < 8) {
            return b;
        }
        int family = (b[0] & 0xFF) | (b[1] & 0xFF) << 8;
        int port = (b[2] & 0xFF) << 8 | (b[3] & 0xFF);
        if (family == 2) {
            return (b[4] & 0xFF) + "." + (b[5] & 0xFF) + "." + (b[6] & 0xFF) + "." + (b[7] & 0xFF) + ":" + port;
        }
        if (family == 23 && b.length >= 24) {
            return "[" + ipv6(java.util.Arrays.copyOfRange(b, 8, 24)) + "]:" + port;
        }
        return b;
    }

    /** RFC 5952 text of an IPv6 address: lower-case hex, no leading zeros, the longest run (>= 2) of zero groups as "::". */
    static String ipv6(byte[] b) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = ((b[2 * i] & 0xFF) << 8) | (b[2 * i + 1] & 0xFF);
        }
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen && j - i >= 2) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }
}
