package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.StructValue;
import org.junit.jupiter.api.Test;

class PayloadDecoderTest {

    private static PayloadDecoder.Result decode(List<FieldSpec> t, byte[] data, int ptr) {
        return PayloadDecoder.decode(t, Map.of(), ByteBuffer.wrap(data), ptr);
    }

    private static DataSpec data(String name, InType in, String length, String count) {
        return new DataSpec(name, in, OutType.NULL, null, SizeRule.parse(length), SizeRule.parse(count));
    }

    @Test
    void outTypesApplyToEveryElementOfAnArrayAsToAScalar() {
        // An array of UINT8 declared BOOLEAN (TraceLogging's Bool8 array) is a list of booleans, as the scalar is a
        // boolean; found by etw-opentelemetry, whose boolean-array attributes came back as [1, 0].
        assertEquals(true, PayloadDecoder.applyOutType(1, OutType.BOOLEAN));
        assertEquals(List.of(true, false, true), PayloadDecoder.applyOutType(List.of(1, 0, 255), OutType.BOOLEAN));
        assertEquals(List.of(80, 443), PayloadDecoder.applyOutType(List.of(0x5000, 0xBB01), OutType.PORT));
        assertEquals(List.of("127.0.0.1"), PayloadDecoder.applyOutType(List.of(0x0100007FL), OutType.IPV4));
        assertEquals(List.of(1, 0), PayloadDecoder.applyOutType(List.of(1, 0), OutType.NULL));
    }

    @Test
    void fixedTypesDecodeLittleEndianWithTheirJavaTypes() {
        Guid g = Guid.parse("0ad614c4-0ef4-4225-8f6d-1c7a2e5f4b3a");
        byte[] b = new Bytes().u8(0xFF).u8(0xFF).u16(0xFFFE).u16(0xFFFE).u32(0xFFFFFFFFL).u32(0xFFFFFFFFL)
                .u64(-2).u64(-3).u32(Float.floatToIntBits(1.5f)).u64(Double.doubleToLongBits(-2.25)).u32(2)
                .guid(g).u64(116_444_736_000_000_000L + 10_000_000L).get();
        List<FieldSpec> t = List.of(DataSpec.of("i8", InType.INT8), DataSpec.of("u8", InType.UINT8),
                DataSpec.of("i16", InType.INT16), DataSpec.of("u16", InType.UINT16), DataSpec.of("i32", InType.INT32),
                DataSpec.of("u32", InType.UINT32), DataSpec.of("i64", InType.INT64), DataSpec.of("u64", InType.UINT64),
                DataSpec.of("f", InType.FLOAT), DataSpec.of("d", InType.DOUBLE), DataSpec.of("b", InType.BOOLEAN),
                DataSpec.of("g", InType.GUID), DataSpec.of("ft", InType.FILETIME));
        PayloadDecoder.Result r = decode(t, b, 8);
        assertFalse(r.hasErrors());
        assertEquals(b.length, r.consumed());
        List<EventField> f = r.fields();
        assertEquals(-1, f.get(0).value());
        assertEquals(255, f.get(1).value());
        assertEquals(-2, f.get(2).value());
        assertEquals(0xFFFE, f.get(3).value());
        assertEquals(-1, f.get(4).value());
        assertEquals(0xFFFFFFFFL, f.get(5).value());
        assertEquals(-2L, f.get(6).value());
        assertEquals(-3L, f.get(7).value());
        assertEquals(1.5, f.get(8).value());
        assertEquals(-2.25, f.get(9).value());
        assertEquals(Boolean.TRUE, f.get(10).value());
        assertEquals(g, f.get(11).value());
        assertEquals(Instant.ofEpochSecond(1), f.get(12).value());
    }

    @Test
    void pointerAndSizeTFollowThePointerSize() {
        byte[] b = new Bytes().u64(0x1122334455667788L).get();
        List<FieldSpec> t = List.of(DataSpec.of("p", InType.POINTER), DataSpec.of("s", InType.SIZET));
        PayloadDecoder.Result r32 = decode(t, b, 4);
        assertEquals(0x55667788L, r32.fields().get(0).value());
        assertEquals(0x11223344L, r32.fields().get(1).value());
        PayloadDecoder.Result r64 = decode(List.of(DataSpec.of("p", InType.POINTER)), b, 8);
        assertEquals(0x1122334455667788L, r64.fields().get(0).value());
    }

    @Test
    void stringsAreNulTerminatedUnlessALengthIsGiven() {
        byte[] b = new Bytes().utf16z("héllo").ansiz("abc").u16(3)
                .raw("xy\0\0z".getBytes(java.nio.charset.StandardCharsets.UTF_16LE)).raw(new byte[] {'q', 0}).get();
        List<FieldSpec> t = List.of(DataSpec.of("u", InType.UNICODE_STRING), DataSpec.of("a", InType.ANSI_STRING),
                DataSpec.of("len", InType.UINT16),
                // "xy\0" padded: 3 chars given by the preceding field; the NUL and what follows are dropped
                data("fixed", InType.UNICODE_STRING, "len", null),
                data("tail", InType.UNICODE_STRING, "2", null),
                data("last", InType.ANSI_STRING, "2", null));
        PayloadDecoder.Result r = decode(t, b, 8);
        assertEquals("héllo", r.fields().get(0).value());
        assertEquals("abc", r.fields().get(1).value());
        assertEquals("xy", r.fields().get(3).value());
        // 2 chars "\0z": cut at the first NUL
        assertEquals("", r.fields().get(4).value());
        assertEquals("q", r.fields().get(5).value());
        assertFalse(r.hasErrors(), r.fields().toString());
        assertEquals(b.length, r.consumed());
    }

    @Test
    void countedTypesSidAndSystemTime() {
        byte[] sid = {1, 5, 0, 0, 0, 0, 0, 5, 21, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, (byte) 0xe9, 3, 0, 0};
        byte[] b = new Bytes().u16(4).raw("hi".getBytes(java.nio.charset.StandardCharsets.UTF_16LE))
                .u16(2).raw(new byte[] {9, 8}).raw(sid)
                .u16(2021).u16(9).u16(4).u16(9).u16(14).u16(59).u16(35).u16(30).get();
        List<FieldSpec> t = List.of(DataSpec.of("cs", InType.COUNTED_STRING), DataSpec.of("cb", InType.COUNTED_BINARY),
                DataSpec.of("sid", InType.SID), DataSpec.of("st", InType.SYSTEMTIME));
        PayloadDecoder.Result r = decode(t, b, 8);
        assertFalse(r.hasErrors(), r.fields().toString());
        assertEquals("hi", r.fields().get(0).value());
        assertArrayEquals(new byte[] {9, 8}, (byte[]) r.fields().get(1).value());
        assertEquals("S-1-5-21-1-2-3-1001", r.fields().get(2).value());
        assertEquals(Instant.parse("2021-09-09T14:59:35.030Z"), r.fields().get(3).value());
    }

    @Test
    void wbemSidIsTokenUserThenSidOrAFourByteZero() {
        byte[] sid = {1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0};
        byte[] withSid = new Bytes().u64(0xffff_8000_0000_1000L).u64(0).raw(sid).u8(0x41).u8(0).get();
        List<FieldSpec> t = List.of(DataSpec.of("UserSID", InType.WBEM_SID), DataSpec.of("Name", InType.ANSI_STRING));
        PayloadDecoder.Result r = decode(t, withSid, 8);
        assertEquals("S-1-5-18", r.fields().get(0).value());
        assertEquals("A", r.fields().get(1).value());
        PayloadDecoder.Result none = decode(t, new Bytes().u32(0).ansiz("B").get(), 8);
        assertEquals("", none.fields().get(0).value());
        assertEquals("B", none.fields().get(1).value());
    }

    @Test
    void countsMakeArraysAndStructsRepeat() {
        byte[] b = new Bytes().u32(2).u64(10).u64(20).u16(2).u32(7).utf16z("a").u32(8).utf16z("bc").get();
        StructSpec s = new StructSpec("Values", List.of(DataSpec.of("Key", InType.UINT32),
                DataSpec.of("Name", InType.UNICODE_STRING)), SizeRule.ref("N"));
        List<FieldSpec> t = List.of(DataSpec.of("Count", InType.UINT32), data("Ids", InType.UINT64, null, "Count"),
                DataSpec.of("N", InType.UINT16), s);
        PayloadDecoder.Result r = decode(t, b, 8);
        assertFalse(r.hasErrors(), r.fields().toString());
        assertEquals(List.of(10L, 20L), r.fields().get(1).value());
        @SuppressWarnings("unchecked")
        List<StructValue> values = (List<StructValue>) r.fields().get(3).value();
        assertEquals(2, values.size());
        assertEquals(8L, values.get(1).field("Key").value());
        assertEquals("bc", values.get(1).field("Name").value());
        assertEquals(b.length, r.consumed());
    }

    @Test
    void literalCountAndToEndArrays() {
        byte[] b = new Bytes().u32(1).u32(2).u32(3).u32(4).u32(5).get();
        List<FieldSpec> t = List.of(data("Two", InType.UINT32, null, "2"),
                new DataSpec("Rest", InType.POINTER, OutType.NULL, null, SizeRule.none(), SizeRule.toEnd()));
        PayloadDecoder.Result r = decode(t, b, 4);
        assertEquals(List.of(1L, 2L), r.fields().get(0).value());
        assertEquals(List.of(3L, 4L, 5L), r.fields().get(1).value());
    }

    @Test
    void aTruncatedFieldIsReportedWithItsRawBytesAndTheRestMarkedMissing() {
        byte[] b = new Bytes().u32(7).u16(0xABCD).get();
        List<FieldSpec> t = List.of(DataSpec.of("A", InType.UINT32), DataSpec.of("B", InType.UINT64),
                DataSpec.of("C", InType.UINT16));
        PayloadDecoder.Result r = decode(t, b, 8);
        assertEquals(3, r.fields().size(), "no field is dropped");
        assertEquals(7L, r.fields().get(0).value());
        EventField bad = r.fields().get(1);
        assertNotNull(bad.error());
        assertNull(bad.value());
        assertArrayEquals(new byte[] {(byte) 0xCD, (byte) 0xAB}, bad.raw());
        assertNotNull(r.fields().get(2).error());
        assertEquals(b.length, r.consumed());
    }

    @Test
    void aBadLengthFieldFailsOnlyItsStringWhenTheSizeIsKnownOtherwiseLaterOffsetsAreUnknown() {
        // length 100 chars but only 4 bytes left: the string fails with its bytes, nothing after can be placed
        byte[] b = new Bytes().u16(100).u32(0x41424344).get();
        List<FieldSpec> t = List.of(DataSpec.of("Len", InType.UINT16), data("S", InType.UNICODE_STRING, "Len", null),
                DataSpec.of("After", InType.UINT32));
        PayloadDecoder.Result r = decode(t, b, 8);
        assertNotNull(r.fields().get(1).error());
        assertEquals(4, r.fields().get(1).raw().length);
        assertNotNull(r.fields().get(2).error());

        // a reference to a field that does not exist: the size is unknown
        List<FieldSpec> t2 = List.of(data("S", InType.BINARY, "Nope", null), DataSpec.of("After", InType.UINT32));
        PayloadDecoder.Result r2 = decode(t2, new Bytes().u32(1).get(), 8);
        assertTrue(r2.fields().get(0).error().contains("Nope"), r2.fields().get(0).error());
        assertTrue(r2.fields().get(1).error().contains("unknown"), r2.fields().get(1).error());
    }

    @Test
    void anUnterminatedStringKeepsWhatWasReadAndSaysSo() {
        byte[] b = "abc".getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
        PayloadDecoder.Result r = decode(List.of(DataSpec.of("S", InType.UNICODE_STRING)), b, 8);
        EventField f = r.fields().get(0);
        assertEquals("abc", f.value());
        assertTrue(f.error().contains("NUL"), f.error());
        assertArrayEquals(b, f.raw());
    }

    @Test
    void aHugeCountOverZeroSizeElementsTerminates() {
        byte[] b = new Bytes().u32(0xFFFFFFFFL).get();
        List<FieldSpec> t = List.of(DataSpec.of("N", InType.UINT32), data("Empty", InType.BINARY, "0", "N"));
        PayloadDecoder.Result r = decode(t, b, 8);
        assertEquals(4, r.consumed());
    }

    @Test
    void valueMapsAndBitMapsLabelIntegers() {
        TreeMap<Long, String> vm = new TreeMap<>(Map.of(0L, "Small", 1L, "Large"));
        TreeMap<Long, String> bm = new TreeMap<>(Map.of(1L, "A", 2L, "B", 8L, "D"));
        Map<String, ValueMap> maps = Map.of("V", new ValueMap("V", false, vm), "F", new ValueMap("F", true, bm));
        List<FieldSpec> t = List.of(new DataSpec("v", InType.UINT32, null, "V", null, null),
                new DataSpec("w", InType.UINT32, null, "V", null, null),
                new DataSpec("f", InType.UINT32, null, "F", null, null),
                new DataSpec("z", InType.UINT32, null, "F", null, null));
        byte[] b = new Bytes().u32(1).u32(5).u32(0x13).u32(0).get();
        PayloadDecoder.Result r = PayloadDecoder.decode(t, maps, ByteBuffer.wrap(b), 8);
        assertEquals("Large", r.fields().get(0).label());
        assertNull(r.fields().get(1).label(), "no entry: no label, the value stays");
        assertEquals(5L, r.fields().get(1).value());
        assertEquals("A|B|0x10", r.fields().get(2).label());
        assertEquals("0", r.fields().get(3).label());
    }
}
