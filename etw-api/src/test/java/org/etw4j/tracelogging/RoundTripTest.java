package org.etw4j.tracelogging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.etw4j.Guid;
import org.etw4j.provider.PayloadBuffer;
import org.junit.jupiter.api.Test;

/**
 * Property test: random event definitions and random values, encoded with {@link TraceLoggingEvent} and
 * {@link PayloadBuffer}, decode back to the same values through the metadata alone. The expected values are
 * produced by the generator in the decoder's documented types, and the payload is written here field by field
 * (not by library code that knows the decoder).
 */
class RoundTripTest {

    private static final Charset CP1252 = Charset.forName("windows-1252");
    private static final long FILETIME_1970 = 116_444_736_000_000_000L;
    private static final InType[] WRITABLE = {
        InType.UNICODE_STRING, InType.ANSI_STRING, InType.INT8, InType.UINT8, InType.INT16, InType.UINT16,
        InType.INT32, InType.UINT32, InType.INT64, InType.UINT64, InType.FLOAT, InType.DOUBLE, InType.BOOL32,
        InType.BINARY, InType.GUID, InType.FILETIME, InType.SYSTEMTIME, InType.SID, InType.HEXINT32,
        InType.HEXINT64, InType.COUNTED_STRING, InType.COUNTED_ANSI_STRING, InType.COUNTED_BINARY,
    };

    /** A generated logical field: its declaration(s) and, per payload, its writer and expected value. */
    private interface Gen {
        void declare(TraceLoggingEvent.Builder b);

        /** Writes one random value of this field and returns the value the decoder must produce. */
        Object write(PayloadBuffer out, Random r);

        String name();
    }

    private record Scalar(String name, InType type, OutType out, int tags, Arity arity, int count) implements Gen {
        @Override
        public void declare(TraceLoggingEvent.Builder b) {
            switch (arity) {
                case SCALAR -> b.field(name, type, out, tags);
                case VARIABLE_ARRAY -> b.array(name, type, out, tags);
                default -> b.fixedArray(name, type, out, tags, count);
            }
        }

        @Override
        public Object write(PayloadBuffer p, Random r) {
            if (arity == Arity.SCALAR) {
                return element(p, r);
            }
            int n = arity == Arity.FIXED_ARRAY ? count : r.nextInt(4);
            if (arity == Arity.VARIABLE_ARRAY) {
                p.putCount(n);
            }
            boolean charArray = out == OutType.STRING && (type == InType.INT8 || type == InType.UINT8
                    || type == InType.INT16 || type == InType.UINT16);
            if (charArray) {
                boolean wide = type == InType.INT16 || type == InType.UINT16;
                String s = wide ? utf16Text(r, n, false) : cp1252Text(r, n, false);
                for (int i = 0; i < n; i++) {
                    if (wide) {
                        p.putUInt16(s.charAt(i));
                    } else {
                        p.putBytes(s.substring(i, i + 1).getBytes(CP1252), 0, 1);
                    }
                }
                return s;
            }
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                values.add(element(p, r));
            }
            return values;
        }

        private Object element(PayloadBuffer p, Random r) {
            switch (type) {
                case INT8: {
                    int v = (byte) r.nextInt();
                    p.putInt8((byte) v);
                    return v;
                }
                case UINT8: {
                    int v = r.nextInt(256);
                    p.putUInt8(v);
                    return v;
                }
                case INT16: {
                    int v = (short) r.nextInt();
                    p.putInt16((short) v);
                    return v;
                }
                case UINT16: {
                    int v = r.nextInt(65536);
                    p.putUInt16(v);
                    return v;
                }
                case INT32: {
                    int v = r.nextInt();
                    p.putInt32(v);
                    return v;
                }
                case UINT32:
                case HEXINT32: {
                    long v = r.nextInt() & 0xFFFF_FFFFL;
                    if (r.nextBoolean()) {
                        p.putUInt32(v);
                    } else {
                        p.putInt32((int) v);
                    }
                    return v;
                }
                case INT64:
                case UINT64:
                case HEXINT64: {
                    long v = r.nextLong();
                    p.putInt64(v);
                    return v;
                }
                case FLOAT: {
                    float v = Float.intBitsToFloat(r.nextInt());
                    p.putFloat(v);
                    return v;
                }
                case DOUBLE: {
                    double v = Double.longBitsToDouble(r.nextLong());
                    p.putDouble(v);
                    return v;
                }
                case BOOL32: {
                    boolean v = r.nextBoolean();
                    p.putBool32(v);
                    return v;
                }
                case GUID: {
                    Guid g = new Guid(r.nextLong(), r.nextLong());
                    p.putGuid(g);
                    return g;
                }
                case FILETIME: {
                    long ticks = r.nextLong() & Long.MAX_VALUE;
                    Instant expected = Instant.ofEpochSecond(0, 0)
                            .plusSeconds(Math.floorDiv(ticks - FILETIME_1970, 10_000_000L))
                            .plusNanos(Math.floorMod(ticks - FILETIME_1970, 10_000_000L) * 100);
                    if (r.nextBoolean()) {
                        p.putFileTime(ticks);
                    } else {
                        p.putFileTime(expected);
                    }
                    return expected;
                }
                case SYSTEMTIME: {
                    long min = Instant.parse("1601-01-01T00:00:00Z").toEpochMilli();
                    long max = Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli();
                    Instant t = Instant.ofEpochMilli(min + (long) (r.nextDouble() * (max - min)));
                    p.putSystemTime(t);
                    return t;
                }
                case SID: {
                    int n = r.nextInt(16);
                    byte[] sid = new byte[8 + 4 * n];
                    sid[0] = 1;
                    sid[1] = (byte) n;
                    long authority = r.nextBoolean() ? r.nextInt(33) : r.nextLong() & 0xFFFF_FFFF_FFFFL;
                    StringBuilder s = new StringBuilder("S-1-");
                    s.append(authority < (1L << 32) ? Long.toString(authority)
                            : String.format("0x%012X", authority));
                    for (int i = 0; i < 6; i++) {
                        sid[2 + i] = (byte) (authority >>> (8 * (5 - i)));
                    }
                    for (int i = 0; i < n; i++) {
                        long sub = r.nextInt() & 0xFFFF_FFFFL;
                        for (int k = 0; k < 4; k++) {
                            sid[8 + 4 * i + k] = (byte) (sub >>> (8 * k));
                        }
                        s.append('-').append(sub);
                    }
                    p.putSid(sid);
                    return s.toString();
                }
                case BINARY:
                case COUNTED_BINARY: {
                    byte[] b = new byte[r.nextInt(20)];
                    r.nextBytes(b);
                    p.putCountedBinary(b, 0, b.length);
                    return b;
                }
                case UNICODE_STRING: {
                    String s = utf16Text(r, r.nextInt(12), true);
                    p.putUtf16z(s);
                    return s;
                }
                case COUNTED_STRING: {
                    String s = utf16Text(r, r.nextInt(12), false);
                    p.putCountedUtf16(s);
                    return s;
                }
                case ANSI_STRING: {
                    boolean utf8 = out.impliesUtf8();
                    String s = utf8 ? utf16Text(r, r.nextInt(12), true) : cp1252Text(r, r.nextInt(12), true);
                    if (utf8) {
                        p.putUtf8z(s);
                    } else {
                        p.putAnsiz(s);
                    }
                    return s;
                }
                case COUNTED_ANSI_STRING: {
                    boolean utf8 = out.impliesUtf8();
                    String s = utf8 ? utf16Text(r, r.nextInt(12), false) : cp1252Text(r, r.nextInt(12), false);
                    if (utf8) {
                        p.putCountedUtf8(s);
                    } else {
                        p.putCountedAnsi(s);
                    }
                    return s;
                }
                default:
                    throw new AssertionError(type);
            }
        }
    }

    private record Struct(String name, int tags, Arity arity, int count, List<Gen> members) implements Gen {
        @Override
        public void declare(TraceLoggingEvent.Builder b) {
            switch (arity) {
                case SCALAR -> b.struct(name, members.size(), tags);
                case VARIABLE_ARRAY -> b.structArray(name, members.size());
                default -> b.structFixedArray(name, members.size(), count);
            }
            for (Gen m : members) {
                m.declare(b);
            }
        }

        @Override
        public Object write(PayloadBuffer p, Random r) {
            if (arity == Arity.SCALAR) {
                return one(p, r);
            }
            int n = arity == Arity.FIXED_ARRAY ? count : r.nextInt(3);
            if (arity == Arity.VARIABLE_ARRAY) {
                p.putCount(n);
            }
            List<Object> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                all.add(one(p, r));
            }
            return all;
        }

        private List<DecodedField> one(PayloadBuffer p, Random r) {
            List<DecodedField> fields = new ArrayList<>();
            for (Gen m : members) {
                fields.add(expectedField(m, m.write(p, r)));
            }
            return fields;
        }
    }

    private static DecodedField expectedField(Gen g, Object value) {
        if (g instanceof Scalar s) {
            return new DecodedField(s.name(), s.type(), s.out(), value);
        }
        return new DecodedField(g.name(), InType.STRUCT, OutType.DEFAULT, value);
    }

    /** UTF-16 text without unpaired surrogates (the decoder would replace them), optionally without NUL. */
    private static String utf16Text(Random r, int n, boolean noNul) {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < n) {
            int kind = r.nextInt(5);
            if (kind == 0 && sb.length() + 2 <= n) {
                sb.appendCodePoint(0x10000 + r.nextInt(0x100000));
            } else {
                char c = (char) (kind == 1 ? r.nextInt(0x80) : r.nextInt(0xD800));
                if (noNul && c == 0) {
                    c = 'x';
                }
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Characters windows-1252 can encode (so the decoder's windows-1252 view gives them back). */
    private static String cp1252Text(Random r, int n, boolean noNul) {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < n) {
            byte b = (byte) r.nextInt(256);
            String c = new String(new byte[] {b}, CP1252);
            if (c.charAt(0) == '\uFFFD' || (noNul && b == 0)) {
                continue;
            }
            sb.append(c);
        }
        return sb.toString();
    }

    private static OutType randomOut(Random r, InType t) {
        if (t == InType.ANSI_STRING || t == InType.COUNTED_ANSI_STRING) {
            OutType[] o = {OutType.DEFAULT, OutType.UTF8, OutType.XML, OutType.JSON, OutType.STRING};
            return o[r.nextInt(o.length)];
        }
        if (r.nextInt(3) == 0) {
            return OutType.DEFAULT;
        }
        OutType[] all = OutType.values();
        return all[r.nextInt(all.length)];
    }

    private static int randomTags(Random r) {
        return r.nextInt(4) == 0 ? r.nextInt(TraceLoggingTags.MAX + 1) >>> r.nextInt(28) : 0;
    }

    private static Gen randomGen(Random r, String name, int depth) {
        Arity[] arities = {Arity.SCALAR, Arity.SCALAR, Arity.VARIABLE_ARRAY, Arity.FIXED_ARRAY};
        Arity arity = arities[r.nextInt(arities.length)];
        int count = arity == Arity.FIXED_ARRAY ? 1 + r.nextInt(3) : 0;
        if (depth < 2 && r.nextInt(6) == 0) {
            List<Gen> members = new ArrayList<>();
            int n = 1 + r.nextInt(3);
            for (int i = 0; i < n; i++) {
                members.add(randomGen(r, name + "." + i, depth + 1));
            }
            return new Struct(name, arity == Arity.SCALAR ? randomTags(r) : 0, arity, count, members);
        }
        InType t = WRITABLE[r.nextInt(WRITABLE.length)];
        if (t == InType.BINARY) {
            arity = Arity.SCALAR;
            count = 0;
        }
        return new Scalar(name, t, randomOut(r, t), randomTags(r), arity, count);
    }

    @Test
    void randomDefinitionsAndValuesRoundTrip() {
        Random r = new Random(0x7A11_0661L);
        PayloadBuffer payload = new PayloadBuffer(); // reused across cases, as a writer thread would
        for (int c = 0; c < 3000; c++) {
            TraceLoggingEvent.Builder b = TraceLoggingEvent.builder("Event" + c).tags(randomTags(r));
            if (r.nextBoolean()) {
                b.sdkMacroEventTags();
            }
            List<Gen> gens = new ArrayList<>();
            int n = r.nextInt(8);
            for (int i = 0; i < n; i++) {
                Gen g = randomGen(r, "f" + i + (r.nextBoolean() ? "_\u00e9\u4e2d" : ""), 0);
                gens.add(g);
                g.declare(b);
            }
            TraceLoggingEvent event = b.build();
            TraceLoggingSchema schema = TraceLoggingSchema.parse(event.metadata());
            assertEquals(event.fields(), schema.fields(), "case " + c);
            assertEquals(event.name(), schema.name());
            assertEquals(event.tags(), schema.tags());

            for (int rep = 0; rep < 2; rep++) {
                payload.reset();
                List<DecodedField> expected = new ArrayList<>();
                for (Gen g : gens) {
                    expected.add(expectedField(g, g.write(payload, r)));
                }
                ByteBuffer bb = ByteBuffer.wrap(payload.array(), 0, payload.length());
                List<DecodedField> actual = schema.decode(bb, 8);
                assertEquals(0, bb.remaining(), "case " + c + ": all bytes consumed");
                assertDeepEquals(expected, actual, "case " + c);
            }
        }
    }

    /** Like assertEquals, but byte[] values compare by content. */
    private static void assertDeepEquals(Object expected, Object actual, String where) {
        if (expected instanceof byte[] e) {
            assertArrayEquals(e, (byte[]) actual, where);
        } else if (expected instanceof List<?> e) {
            List<?> a = (List<?>) actual;
            assertEquals(e.size(), a.size(), where + " size");
            for (int i = 0; i < e.size(); i++) {
                assertDeepEquals(e.get(i), a.get(i), where + "[" + i + "]");
            }
        } else if (expected instanceof DecodedField e) {
            DecodedField a = (DecodedField) actual;
            assertEquals(e.name(), a.name(), where);
            assertEquals(e.inType(), a.inType(), where + " " + e.name());
            assertEquals(e.outType(), a.outType(), where + " " + e.name());
            assertDeepEquals(e.value(), a.value(), where + " " + e.name());
        } else {
            assertEquals(expected, actual, where);
        }
    }

    @Test
    void utf8NamesSurviveTheRoundTrip() {
        TraceLoggingEvent e = TraceLoggingEvent.builder("\u00c9v\u00e9nement \uD83D\uDE00").int32Field("ch\u00e2ine").build();
        TraceLoggingSchema s = TraceLoggingSchema.parse(e.metadata());
        assertEquals("\u00c9v\u00e9nement \uD83D\uDE00", s.name());
        assertEquals("ch\u00e2ine", s.fields().get(0).name());
        assertEquals(StandardCharsets.UTF_8.encode("\u00c9v\u00e9nement \uD83D\uDE00").remaining() + 4 + 7 + 1,
                e.metadataLength() - 1, "Size = 2 + tag + name + NUL + field name + NUL + InMeta");
    }
}
