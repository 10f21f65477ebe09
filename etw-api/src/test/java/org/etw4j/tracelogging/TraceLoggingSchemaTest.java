package org.etw4j.tracelogging;

import static org.etw4j.tracelogging.Bytes.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import org.etw4j.Guid;
import org.junit.jupiter.api.Test;

class TraceLoggingSchemaTest {

    /** etw-formats.md 1.9(a) payload: ServiceHostName (UTF-16 + NUL) then PID = f4 01 00 00. */
    static final byte[] SERVICE_HOST_PAYLOAD = Bytes.of().z16("C:\\Windows\\system32\\sppsvc.exe").h("f4010000").bytes();

    /** etw-formats.md 1.9(b) payload (lxcore_kernel.etl record 0x2048, user data at 0x2148). */
    static final byte[] BREAK_POINT_PAYLOAD = Bytes.of().h("02").h("00000000000000000000000000000000")
            .h("ffffffff").h("ffffffff").h("00000000").h("0000").z("LxpInstanceStart").h("630a0000")
            .z("[0xc0000034] LxpInstanceInitialize\n").bytes();

    private static Object value(List<DecodedField> fields, String name) {
        for (DecodedField f : fields) {
            if (f.name().equals(name)) {
                return f.value();
            }
        }
        throw new AssertionError("no field " + name);
    }

    /** Metadata of {@code depth} structs, each the single member of the one before, around one INT8 field. */
    static byte[] nestedStructs(int depth) {
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        body.writeBytes(new byte[] {0, 'E', 0});                       // no tags, name "E"
        for (int i = 0; i < depth; i++) {
            body.writeBytes(new byte[] {'s', 0, (byte) (InType.STRUCT.code() | 0x80), 1});  // struct of 1 member
        }
        body.writeBytes(new byte[] {'x', 0, (byte) InType.INT8.code()});
        int size = body.size() + 2;
        byte[] meta = new byte[size];
        meta[0] = (byte) size;
        meta[1] = (byte) (size >>> 8);
        System.arraycopy(body.toByteArray(), 0, meta, 2, body.size());
        return meta;
    }

    /**
     * Hostile metadata (it comes from the trace file) nesting structs 16000 deep made the recursive tree builder
     * throw StackOverflowError (found by TraceLoggingMetadataFuzzTest); it is a decode error now, with nesting
     * bounded by MAX_STRUCT_DEPTH, which also bounds the payload decoder's recursion.
     */
    @Test
    void structNestingIsBoundedNotAStackOverflow() {
        TraceLoggingDecodeException e = assertThrows(TraceLoggingDecodeException.class,
                () -> TraceLoggingSchema.parse(nestedStructs(16_000)));
        assertTrue(e.getMessage().contains("nested deeper than " + TraceLoggingSchema.MAX_STRUCT_DEPTH), e.getMessage());
        assertThrows(TraceLoggingDecodeException.class,
                () -> TraceLoggingSchema.parse(nestedStructs(TraceLoggingSchema.MAX_STRUCT_DEPTH + 1)));
        TraceLoggingSchema deepest = TraceLoggingSchema.parse(nestedStructs(TraceLoggingSchema.MAX_STRUCT_DEPTH));
        List<DecodedField> fields = deepest.decode(new byte[] {42}, 8);
        Object v = fields.get(0).value();
        for (int i = 1; i < TraceLoggingSchema.MAX_STRUCT_DEPTH; i++) {
            v = ((DecodedField) ((List<?>) v).get(0)).value();
        }
        assertEquals(42, ((DecodedField) ((List<?>) v).get(0)).value());
    }

    @Test
    void parsesAndDecodesServiceHostStarted() {
        TraceLoggingSchema s = TraceLoggingSchema.parse(TraceLoggingEventTest.SERVICE_HOST_STARTED);
        assertEquals("ServiceHostStarted", s.name());
        assertEquals(0, s.tags());
        assertEquals(List.of(
                new TraceLoggingField("ServiceHostName", InType.UNICODE_STRING, OutType.DEFAULT, 0, Arity.SCALAR, 0, 0),
                new TraceLoggingField("PID", InType.UINT32, OutType.DEFAULT, 0, Arity.SCALAR, 0, 0)), s.fields());
        ByteBuffer payload = ByteBuffer.wrap(SERVICE_HOST_PAYLOAD);
        List<DecodedField> d = s.decode(payload, 8);
        assertEquals(List.of(
                new DecodedField("ServiceHostName", InType.UNICODE_STRING, OutType.DEFAULT,
                        "C:\\Windows\\system32\\sppsvc.exe"),
                new DecodedField("PID", InType.UINT32, OutType.DEFAULT, 500L)), d);
        assertEquals(0, payload.remaining(), "all bytes consumed");
    }

    @Test
    void parsesAndDecodesLxCoreBreakPoint() {
        TraceLoggingSchema s = TraceLoggingSchema.parse(TraceLoggingEventTest.BREAK_POINT);
        assertEquals("BreakPoint", s.name());
        assertEquals(0, s.tags(), "80 00 means no tags");
        assertEquals(9, s.fields().size());
        ByteBuffer payload = ByteBuffer.wrap(BREAK_POINT_PAYLOAD);
        List<DecodedField> d = s.decode(payload, 8);
        assertEquals(0, payload.remaining());
        assertEquals(2, value(d, "ErrorLevel"));
        assertEquals(Guid.NULL, value(d, "instanceId"));
        assertEquals(-1, value(d, "LxPid"));
        assertEquals(-1, value(d, "LxTid"));
        assertEquals(0, value(d, "LxNs"));
        assertEquals("", value(d, "ExecutablePath"));
        assertEquals("LxpInstanceStart", value(d, "Function"));
        assertEquals(2659L, value(d, "Line"));
        assertEquals("[0xc0000034] LxpInstanceInitialize\n", value(d, "Message"));
    }

    @Test
    void amsiRawScriptIsAUtf16StringArray() {
        TraceLoggingSchema s = TraceLoggingSchema.parse(TraceLoggingEventTest.AMSI_SCRIPT);
        TraceLoggingField raw = s.fields().get(2);
        assertEquals(new TraceLoggingField("Raw Script", InType.UINT16, OutType.STRING, 0, Arity.VARIABLE_ARRAY, 0, 0),
                raw);
        byte[] payload = Bytes.of().z16("PowerShell").z16("x").h("0300").h("41004200e900").bytes();
        List<DecodedField> d = s.decode(payload, 8);
        assertEquals("AB\u00e9", value(d, "Raw Script"));
        // Without OutType STRING the same data is a list of numbers.
        TraceLoggingSchema plain = TraceLoggingEvent.builder("P").array("a", InType.UINT16).build().schema();
        assertEquals(List.of(0x41, 0x42, 0xe9), plain.decode(hex("0300 4100 4200 e900"), 8).get(0).value());
    }

    @Test
    void truncatedPayloadsFailWithFieldAndOffsetAndNeverReadPastTheBuffer() {
        TraceLoggingSchema s = TraceLoggingSchema.parse(TraceLoggingEventTest.BREAK_POINT);
        for (int cut = 0; cut < BREAK_POINT_PAYLOAD.length; cut++) {
            // The cut payload sits in a larger array; bytes after the limit must never be read.
            byte[] big = new byte[BREAK_POINT_PAYLOAD.length + 8];
            System.arraycopy(BREAK_POINT_PAYLOAD, 0, big, 4, BREAK_POINT_PAYLOAD.length);
            java.util.Arrays.fill(big, 4 + cut, big.length, (byte) 0x41);
            ByteBuffer b = ByteBuffer.wrap(big, 4, cut).slice();
            TraceLoggingDecodeException e = assertThrows(TraceLoggingDecodeException.class, () -> s.decode(b, 8),
                    "cut at " + cut);
            assertTrue(e.fieldName() != null && e.offset() >= 0 && e.offset() <= cut, e.getMessage());
            assertTrue(e.getMessage().contains("field '" + e.fieldName() + "'"), e.getMessage());
            assertEquals(0, b.position(), "position unchanged on failure");
        }
        TraceLoggingDecodeException e = assertThrows(TraceLoggingDecodeException.class,
                () -> s.decode(java.util.Arrays.copyOf(BREAK_POINT_PAYLOAD, 16), 8));
        assertEquals("instanceId", e.fieldName());
        assertEquals(1, e.offset());
    }

    @Test
    void positionAdvancesAndLeftoverStays() {
        TraceLoggingSchema s = TraceLoggingSchema.parse(TraceLoggingEventTest.SERVICE_HOST_STARTED);
        byte[] withTail = Bytes.of().h("eeee").h(hexOf(SERVICE_HOST_PAYLOAD)).h("0102").bytes();
        ByteBuffer b = ByteBuffer.wrap(withTail);
        b.position(2);
        s.decode(b, 8);
        assertEquals(2 + SERVICE_HOST_PAYLOAD.length, b.position());
        assertEquals(2, b.remaining());
    }

    @Test
    void malformedMetadataIsRejected() {
        assertThrows(TraceLoggingDecodeException.class, () -> TraceLoggingSchema.parse(hex("05")));
        assertThrows(TraceLoggingDecodeException.class, () -> TraceLoggingSchema.parse(hex("0300 00")));
        assertThrows(TraceLoggingDecodeException.class, () -> TraceLoggingSchema.parse(hex("0900 00 41")));
        // tags never terminated within Size
        assertThrows(TraceLoggingDecodeException.class, () -> TraceLoggingSchema.parse(hex("0400 8080")));
        // event name without NUL
        assertThrows(TraceLoggingDecodeException.class, () -> TraceLoggingSchema.parse(hex("0500 00 4141")));
        // field name then no InMeta
        TraceLoggingDecodeException e = assertThrows(TraceLoggingDecodeException.class,
                () -> TraceLoggingSchema.parse(hex("0700 00 4500 6600")));
        assertEquals("f", e.fieldName());
        // undefined InType 26
        e = assertThrows(TraceLoggingDecodeException.class, () -> TraceLoggingSchema.parse(hex("0800 00 4500 6600 1a")));
        assertTrue(e.getMessage().contains("undefined InType 26"), e.getMessage());
        // struct with two members, only one present
        e = assertThrows(TraceLoggingDecodeException.class,
                () -> TraceLoggingSchema.parse(hex("0c00 00 4500 7300 9802 6100 03")));
        assertEquals("s", e.fieldName());
        // fixed array without its count
        assertThrows(TraceLoggingDecodeException.class, () -> TraceLoggingSchema.parse(hex("0900 00 4500 6600 23 01")));
        // field tags unterminated
        assertThrows(TraceLoggingDecodeException.class, () -> TraceLoggingSchema.parse(hex("0a00 00 4500 6600 87 80 80")));
    }

    @Test
    void sizeFieldDecidesTheLengthAndTrailingPaddingIsIgnored() {
        byte[] padded = Bytes.of().h(hexOf(TraceLoggingEventTest.AMSI_SCRIPT)).h("0000000000").bytes();
        TraceLoggingSchema s = TraceLoggingSchema.parse(padded);
        assertEquals(TraceLoggingEventTest.AMSI_SCRIPT.length, s.metadataLength());
        assertEquals(TraceLoggingSchema.parse(TraceLoggingEventTest.AMSI_SCRIPT), s);
        assertArrayEquals(TraceLoggingEventTest.AMSI_SCRIPT, s.metadata());
    }

    @Test
    void unknownOutTypeReadsAsDefaultAndCustomFieldsParseButDoNotDecode() {
        TraceLoggingSchema s = TraceLoggingSchema.parse(hex("0900 00 4500 6600 87 13"));
        assertEquals(OutType.DEFAULT, s.fields().get(0).outType());
        // custom arity (0x60): CbSchema 2 + 2 schema bytes
        TraceLoggingSchema c = TraceLoggingSchema.parse(hex("0c00 00 4500 6600 67 0200 abcd"));
        assertEquals(Arity.CUSTOM, c.fields().get(0).arity());
        TraceLoggingDecodeException e = assertThrows(TraceLoggingDecodeException.class,
                () -> c.decode(new byte[8], 8));
        assertTrue(e.getMessage().contains("custom-schema"), e.getMessage());
    }

    @Test
    void pointerNullAndSystemTimeEdgeCases() {
        byte[] meta = Bytes.of().h("0000").h("00").z("E").z("p").h("10").z("n").h("00").z("st").h("12").bytes();
        meta[0] = (byte) meta.length;
        TraceLoggingSchema schema = TraceLoggingSchema.parse(meta);
        byte[] p4 = Bytes.of().h("78563412").h("00000000000000000000000000000000").bytes();
        List<DecodedField> d = schema.decode(p4, 4);
        assertEquals(0x12345678L, d.get(0).value());
        assertNull(d.get(1).value());
        assertArrayEquals(new byte[16], (byte[]) d.get(2).value(), "an all-zero SYSTEMTIME stays raw");
        byte[] p8 = Bytes.of().h("7856341200000080").h("e807 0200 0400 1d00 0d00 0e00 0f00 e703").bytes();
        d = schema.decode(p8, 8);
        assertEquals(0x8000000012345678L, d.get(0).value());
        assertEquals(Instant.parse("2024-02-29T13:14:15.999Z"), d.get(2).value());
        assertThrows(IllegalArgumentException.class, () -> schema.decode(p8, 2));
    }

    @Test
    void hostileMetadataCannotExplodeTheValueCount() {
        // 65535 structs x 65535 structs x one NULL field: 4 billion values from an empty payload.
        byte[] meta = Bytes.of().h("0000").h("00").z("E").z("a").h("b801ffff").z("b").h("b801ffff").z("n").h("00").bytes();
        meta[0] = (byte) meta.length;
        TraceLoggingSchema s = TraceLoggingSchema.parse(meta);
        TraceLoggingDecodeException e = assertThrows(TraceLoggingDecodeException.class, () -> s.decode(new byte[0], 8));
        assertTrue(e.getMessage().contains("more values than a payload"), e.getMessage());
    }

    @Test
    void sidAndFileTimeAndBinaryValues() {
        TraceLoggingSchema s = TraceLoggingEvent.builder("V").sidField("sid").sidField("big").fileTimeField("ft")
                .field("b", InType.BINARY).binaryField("cb").field("bool", InType.BOOL32).build().schema();
        byte[] payload = Bytes.of().h("0105 000000000005 15000000 01000000 02000000 03000000 f4010000")
                .h("0101 010203040506 07000000")
                .h("00803ed5deb19d01").h("0200 aabb").h("0000").h("02000000").bytes();
        List<DecodedField> d = s.decode(payload, 8);
        assertEquals("S-1-5-21-1-2-3-500", d.get(0).value());
        assertEquals("S-1-0x010203040506-7", d.get(1).value());
        assertEquals(Instant.EPOCH, d.get(2).value());
        assertArrayEquals(hex("aabb"), (byte[]) d.get(3).value());
        assertArrayEquals(new byte[0], (byte[]) d.get(4).value());
        assertEquals(Boolean.TRUE, d.get(5).value());
    }

    @Test
    void equalityIsOverTheBytes() {
        TraceLoggingSchema a = TraceLoggingSchema.parse(TraceLoggingEventTest.SERVICE_HOST_STARTED);
        TraceLoggingSchema b = TraceLoggingSchema.parse(TraceLoggingEventTest.SERVICE_HOST_STARTED.clone());
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(java.util.Arrays.hashCode(TraceLoggingEventTest.SERVICE_HOST_STARTED), a.hashCode());
        assertNotEquals(a, TraceLoggingSchema.parse(TraceLoggingEventTest.BREAK_POINT));
    }

    @Test
    void cacheKeysOnMetadataBytesSoSameIdDifferentMetadataNeverCollide() {
        // Two definitions with the same descriptor (id 0, the TraceLogging default) and the same name whose field
        // names "Ab" and "BC" give byte arrays with EQUAL hash codes ('A'+1 = 'B', 'b'-31 = 'C').
        TraceLoggingEvent e1 = TraceLoggingEvent.builder("Same").int32Field("Ab").build();
        TraceLoggingEvent e2 = TraceLoggingEvent.builder("Same").utf8Field("BC").build();
        byte[] m2 = e2.metadata();
        // make the second blob differ only by the field name, keeping its InType so the test is about the key
        TraceLoggingEvent e3 = TraceLoggingEvent.builder("Same").int32Field("BC").build();
        assertEquals(e1.descriptor(), e3.descriptor());
        assertEquals(java.util.Arrays.hashCode(e1.metadata()), java.util.Arrays.hashCode(e3.metadata()),
                "constructed hash collision");
        TraceLoggingSchemaCache cache = new TraceLoggingSchemaCache();
        TraceLoggingSchema s1 = cache.get(ByteBuffer.wrap(e1.metadata()));
        TraceLoggingSchema s3 = cache.get(ByteBuffer.wrap(e3.metadata()));
        TraceLoggingSchema s2 = cache.get(m2, 0, m2.length);
        assertNotEquals(s1, s3);
        assertEquals("Ab", s1.fields().get(0).name());
        assertEquals("BC", s3.fields().get(0).name());
        assertEquals(OutType.UTF8, s2.fields().get(0).outType());
        assertEquals(3, cache.size());
        // hits return the cached instances, also from a blob inside a larger buffer with trailing padding
        assertSame(s1, cache.get(ByteBuffer.wrap(e1.metadata())));
        byte[] framed = Bytes.of().h("ffff").h(hexOf(e3.metadata())).h("000000").bytes();
        ByteBuffer framedBuf = ByteBuffer.wrap(framed);
        framedBuf.position(2);
        assertSame(s3, cache.get(framedBuf));
        assertEquals(2, framedBuf.position());
        assertEquals(3, cache.size());
    }

    @Test
    void boundedCacheStartsOver() {
        TraceLoggingSchemaCache cache = new TraceLoggingSchemaCache(2);
        for (int i = 0; i < 5; i++) {
            byte[] m = TraceLoggingEvent.builder("E" + i).build().metadata();
            assertEquals("E" + i, cache.get(m, 0, m.length).name());
            assertTrue(cache.size() <= 2);
        }
        assertThrows(TraceLoggingDecodeException.class, () -> cache.get(hex("0100"), 0, 2));
    }

    static String hexOf(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x));
        }
        return sb.toString();
    }
}
