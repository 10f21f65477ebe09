package org.etw4j.format;

import org.etw4j.TimestampConverter;
import org.etw4j.provider.PayloadBuffer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PrimitiveReaderTest {

    private static ByteBuffer bytes(PayloadBuffer p, ByteOrder order) {
        return ByteBuffer.wrap(p.toByteArray()).order(order);
    }

    @Test
    void integersAndFloatsAreLittleEndianWhateverTheBufferOrder() {
        PayloadBuffer p = new PayloadBuffer().putUInt8(0xFE).putInt16((short) -2).putUInt16(0xBEEF)
                .putInt32(-5).putUInt32(0xFFFF_FFFEL).putInt64(0x0102030405060708L).putFloat(1.5f).putDouble(-0.25);
        for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            ByteBuffer b = bytes(p, order);
            assertEquals(0xFE, PrimitiveReader.u8(b, 0));
            assertEquals(-2, PrimitiveReader.i16(b, 1));
            assertEquals(0xFFFE, PrimitiveReader.u16(b, 1));
            assertEquals(0xBEEF, PrimitiveReader.u16(b, 3));
            assertEquals(-5, PrimitiveReader.i32(b, 5));
            assertEquals(0xFFFF_FFFBL, PrimitiveReader.u32(b, 5));
            assertEquals(0xFFFF_FFFEL, PrimitiveReader.u32(b, 9));
            assertEquals(0x0102030405060708L, PrimitiveReader.i64(b, 13));
            assertEquals(1.5f, PrimitiveReader.f32(b, 21));
            assertEquals(-0.25, PrimitiveReader.f64(b, 25));
            assertEquals(0x05060708L, PrimitiveReader.pointer(b, 13, 4), "4-byte pointer: the low half, zero-extended");
            assertEquals(0x0102030405060708L, PrimitiveReader.pointer(b, 13, 8));
            assertEquals(0, b.position(), "absolute reads leave the position alone");
        }
    }

    @Test
    void fileTimesBecomeInstants() {
        assertEquals(Instant.parse("1601-01-01T00:00:00Z"), PrimitiveReader.fileTime(0));
        assertEquals(Instant.parse("1970-01-01T00:00:00.0000001Z"), PrimitiveReader.fileTime(116_444_736_000_000_001L));
        assertEquals(Instant.parse("1600-12-31T23:59:59.9999999Z"), PrimitiveReader.fileTime(-1));
        // The extremes do not wrap around: floorDiv/floorMod of the ticks, then the epoch shift in seconds.
        assertEquals(Instant.ofEpochSecond(-933_981_677_286L, 522_419_200), PrimitiveReader.fileTime(Long.MIN_VALUE));
        assertEquals(Instant.ofEpochSecond(910_692_730_085L, 477_580_700), PrimitiveReader.fileTime(Long.MAX_VALUE));
        assertEquals(PrimitiveReader.fileTime(123_456_789_012_345_678L), TimestampConverter.toInstant(123_456_789_012_345_678L));
    }

    @Test
    void systemTimesAreUtcInstantsOrNullWhenInvalid() {
        Instant t = Instant.parse("2021-09-09T14:59:35.799Z");
        ByteBuffer b = bytes(new PayloadBuffer().putSystemTime(t).putSystemTime(2021, 2, 0, 30, 0, 0, 0, 0),
                ByteOrder.LITTLE_ENDIAN);
        assertEquals(t, PrimitiveReader.systemTime(b, 0));
        assertNull(PrimitiveReader.systemTime(b, 16), "February 30th");
        assertNull(PrimitiveReader.systemTime(ByteBuffer.allocate(16), 0), "all zero");
    }

    @Test
    void sidsPrintAsConvertSidToStringSidDoes() {
        // S-1-5-21-1-2-3: revision 1, 3 sub-authorities, authority 5 (big-endian 48-bit)
        byte[] sid = {1, 3, 0, 0, 0, 0, 0, 5, 21, 0, 0, 0, 1, 0, 0, 0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
        ByteBuffer b = ByteBuffer.wrap(sid);
        assertEquals(20, PrimitiveReader.sidLength(b, 0));
        assertEquals("S-1-5-21-1-4294967295", PrimitiveReader.sid(b, 0));
        // an authority of 2^32 and more is printed in hexadecimal
        byte[] big = {1, 0, 0, 1, 0, 0, 0, 0};
        assertEquals("S-1-0x000100000000", PrimitiveReader.sid(ByteBuffer.wrap(big), 0));
        assertEquals(8, PrimitiveReader.sidLength(ByteBuffer.wrap(big), 0));
    }

    @Test
    void textAndBytes() {
        ByteBuffer b = bytes(new PayloadBuffer().putUtf16z("hé").putAnsiz("€x"), ByteOrder.LITTLE_ENDIAN);
        assertEquals(4, PrimitiveReader.nulIndex(b, 0, b.limit(), 2));
        assertEquals("hé", PrimitiveReader.string(b, 0, 4, StandardCharsets.UTF_16LE));
        assertEquals(8, PrimitiveReader.nulIndex(b, 6, b.limit(), 1));
        assertEquals("€x", PrimitiveReader.string(b, 6, 2, PrimitiveReader.ANSI));
        assertEquals(-1, PrimitiveReader.nulIndex(b, 6, 8, 1), "no NUL before the limit");
        assertEquals(-1, PrimitiveReader.nulIndex(b, 0, 3, 2), "only whole units count");
        assertArrayEquals(new byte[] {(byte) 0x80, 'x'}, PrimitiveReader.bytes(b, 6, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> PrimitiveReader.i32(b, b.limit() - 2));
    }
}
