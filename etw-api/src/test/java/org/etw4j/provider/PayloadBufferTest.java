package org.etw4j.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Random;
import org.etw4j.Guid;
import org.junit.jupiter.api.Test;

class PayloadBufferTest {

    private static byte[] hex(String s) {
        String h = s.replace(" ", "");
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    @Test
    void integersAreLittleEndianWithoutPadding() {
        PayloadBuffer b = new PayloadBuffer(0);
        b.putInt8((byte) -2).putUInt8(0xFE).putInt16((short) -2).putUInt16(0xBEEF)
                .putInt32(0x01020304).putUInt32(0xFFFF_FFFEL).putInt64(0x0102030405060708L).putUInt64(-1L);
        assertArrayEquals(hex("fe fe feff efbe 04030201 feffffff 0807060504030201 ffffffffffffffff"),
                b.toByteArray());
    }

    @Test
    void floatsBoolAndCount() {
        PayloadBuffer b = new PayloadBuffer();
        b.putFloat(1.0f).putDouble(-2.0).putBool32(true).putBool32(false).putCount(350);
        // 1.0f = 0x3F800000, -2.0 = 0xC000000000000000; count 350 = 5e 01 (AMSI vector, etw-formats.md 1.9c)
        assertArrayEquals(hex("0000803f 00000000000000c0 01000000 00000000 5e01"), b.toByteArray());
    }

    @Test
    void guidUsesWindowsLayout() {
        // Group GUID of the lxcore provider traits (etw-formats.md 1.2, verified against lxcore_kernel.etl).
        PayloadBuffer b = new PayloadBuffer();
        b.putGuid(Guid.parse("4f50731a-89cf-4782-b3e0-dce8c90476ba"));
        assertArrayEquals(hex("1a73504fcf898247b3e0dce8c90476ba"), b.toByteArray());
    }

    @Test
    void fileTimeFromInstant() {
        PayloadBuffer b = new PayloadBuffer();
        // 1970-01-01 is 11644473600 s after 1601-01-01: 116444736000000000 ticks = 0x019DB1DED53E8000.
        b.putFileTime(Instant.EPOCH);
        b.putFileTime(Instant.parse("1601-01-01T00:00:00Z"));
        b.putFileTime(Instant.ofEpochSecond(0, 199)); // truncated to one tick
        assertArrayEquals(hex("00803ed5deb19d01 0000000000000000 01803ed5deb19d01"), b.toByteArray());
        assertEquals(116_444_736_000_000_000L, PayloadBuffer.fileTimeTicks(Instant.EPOCH));
        assertThrows(IllegalArgumentException.class, () -> b.putFileTime(Instant.parse("1600-12-31T23:59:59Z")));
        assertEquals(24, b.length(), "a rejected value leaves the buffer unchanged");
    }

    @Test
    void systemTimeFromInstantMatchesJavaTime() {
        Random r = new Random(1601);
        PayloadBuffer b = new PayloadBuffer();
        long min = Instant.parse("1601-01-01T00:00:00Z").getEpochSecond();
        long max = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        for (int i = 0; i < 5000; i++) {
            long sec = min + (long) (r.nextDouble() * (max - min));
            Instant t = Instant.ofEpochSecond(sec, r.nextInt(1_000_000_000));
            LocalDateTime d = LocalDateTime.ofInstant(t, ZoneOffset.UTC);
            b.reset().putSystemTime(t);
            byte[] a = b.toByteArray();
            int[] f = new int[8];
            for (int k = 0; k < 8; k++) {
                f[k] = (a[2 * k] & 0xFF) | (a[2 * k + 1] & 0xFF) << 8;
            }
            assertEquals(d.getYear(), f[0], t::toString);
            assertEquals(d.getMonthValue(), f[1], t::toString);
            assertEquals(d.getDayOfWeek().getValue() % 7, f[2], t::toString); // SYSTEMTIME: Sunday = 0
            assertEquals(d.getDayOfMonth(), f[3], t::toString);
            assertEquals(d.getHour(), f[4], t::toString);
            assertEquals(d.getMinute(), f[5], t::toString);
            assertEquals(d.getSecond(), f[6], t::toString);
            assertEquals(d.getNano() / 1_000_000, f[7], t::toString);
        }
        assertThrows(IllegalArgumentException.class, () -> b.putSystemTime(Instant.parse("1600-12-31T23:59:59Z")));
        assertThrows(IllegalArgumentException.class, () -> b.putSystemTime(2020, 1, 3, 1, 0, 0, 0, 70000));
    }

    @Test
    void systemTimeRawFieldsInOrder() {
        PayloadBuffer b = new PayloadBuffer();
        b.putSystemTime(2024, 2, 4, 29, 13, 14, 15, 999);
        assertArrayEquals(hex("e807 0200 0400 1d00 0d00 0e00 0f00 e703"), b.toByteArray());
    }

    @Test
    void utf16zStopsAtNulAndTreatsNullAsEmpty() {
        PayloadBuffer b = new PayloadBuffer();
        b.putUtf16z("Ab").putUtf16z(null).putUtf16z("x\0y");
        assertArrayEquals(hex("41006200 0000 0000 78000000"), b.toByteArray());
    }

    @Test
    void utf16zOfTheDissectVectorValue() {
        // etw-formats.md 1.9(a): ServiceHostName payload "C:\Windows\system32\sppsvc.exe" in UTF-16 + NUL.
        String v = "C:\\Windows\\system32\\sppsvc.exe";
        PayloadBuffer b = new PayloadBuffer();
        b.putUtf16z(v);
        byte[] expected = new byte[2 * v.length() + 2];
        byte[] le = v.getBytes(StandardCharsets.UTF_16LE);
        System.arraycopy(le, 0, expected, 0, le.length);
        assertArrayEquals(expected, b.toByteArray());
    }

    @Test
    void utf8zMatchesJdkEncoderIncludingSurrogates() {
        String[] samples = {"", "abc", "é", "€ euro", "日本語", "\uD83D\uDE00 smile", "lone \uD800 high", "lone \uDC00 low",
                "end high \uD83D", "ß\u07FF\u0800\uFFFF"};
        PayloadBuffer b = new PayloadBuffer(0);
        for (String s : samples) {
            b.reset().putUtf8z(s);
            byte[] jdk = s.getBytes(StandardCharsets.UTF_8);
            byte[] expected = new byte[jdk.length + 1];
            System.arraycopy(jdk, 0, expected, 0, jdk.length);
            assertArrayEquals(expected, b.toByteArray(), s);

            b.reset().putCountedUtf8(s);
            byte[] counted = b.toByteArray();
            assertEquals(jdk.length, (counted[0] & 0xFF) | (counted[1] & 0xFF) << 8, s);
            assertArrayEquals(jdk, java.util.Arrays.copyOfRange(counted, 2, counted.length), s);
        }
    }

    @Test
    void utf8zRandomStringsMatchJdk() {
        Random r = new Random(8);
        PayloadBuffer b = new PayloadBuffer();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            sb.setLength(0);
            int n = r.nextInt(20);
            for (int k = 0; k < n; k++) {
                sb.append((char) (1 + r.nextInt(0xFFFF)));
            }
            String s = sb.toString();
            b.reset().putUtf8z(s);
            byte[] jdk = s.getBytes(StandardCharsets.UTF_8);
            assertEquals(jdk.length + 1, b.length());
            assertArrayEquals(jdk, java.util.Arrays.copyOf(b.toByteArray(), jdk.length));
        }
    }

    @Test
    void ansiUsesWindows1252() {
        PayloadBuffer b = new PayloadBuffer();
        b.putAnsiz("a\u00e9\u20ac\u0153\u0080\u4e00");
        // a, é (E9), € (80 in windows-1252), œ (9C), C1 control U+0080 -> '?', CJK -> '?', NUL
        assertArrayEquals(hex("61 e9 80 9c 3f 3f 00"), b.toByteArray());
        b.reset().putCountedAnsi("A\0B");
        assertArrayEquals(hex("0300 41 00 42"), b.toByteArray());
        // Whatever we encode as a non-'?' byte decodes back to the same character with the JDK charset.
        Charset cp1252 = Charset.forName("windows-1252");
        for (char c = 1; c < 0x3000; c++) {
            b.reset().putAnsiz(String.valueOf(c));
            byte v = b.array()[0];
            if (v != '?') {
                assertEquals(String.valueOf(c), new String(new byte[] {v}, cp1252), "U+" + Integer.toHexString(c));
            }
        }
    }

    @Test
    void countedForms() {
        PayloadBuffer b = new PayloadBuffer();
        b.putCountedUtf16("A\0").putCountedBinary(new byte[] {9, 1, 2, 3}, 1, 2).putBytes(new byte[] {7}, 0, 1);
        assertArrayEquals(hex("0400 4100 0000 0200 0102 07"), b.toByteArray());
    }

    @Test
    void rangeErrorsNameWhatOverflowedAndLeaveBufferIntact() {
        PayloadBuffer b = new PayloadBuffer();
        b.putInt32(5);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.putCount(65536));
        assertTrue(e.getMessage().contains("array element count"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.putCountedBinary(new byte[70000], 0, 70000));
        assertTrue(e.getMessage().contains("counted binary length 70000"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.putCountedUtf16("x".repeat(32768)));
        assertTrue(e.getMessage().contains("counted UTF-16"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.putCountedUtf8("\u00e9".repeat(40000)));
        assertTrue(e.getMessage().contains("counted UTF-8 string byte count 80000"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.putCountedAnsi("x".repeat(65536)));
        assertTrue(e.getMessage().contains("counted ANSI"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.putUInt8(256));
        assertThrows(IllegalArgumentException.class, () -> b.putUInt8(-1));
        assertThrows(IllegalArgumentException.class, () -> b.putUInt16(65536));
        assertThrows(IllegalArgumentException.class, () -> b.putUInt32(-1));
        assertThrows(IllegalArgumentException.class, () -> b.putUInt32(1L << 32));
        assertThrows(IllegalArgumentException.class, () -> b.putBytes(new byte[2], 1, 2));
        assertThrows(IllegalArgumentException.class, () -> b.putGuid(null));
        assertThrows(IllegalArgumentException.class, () -> b.truncate(5));
        assertEquals(4, b.length());
        assertArrayEquals(hex("05000000"), b.toByteArray());
        // the largest counted values still fit
        b.reset().putCountedUtf16("x".repeat(32767)).putCountedUtf8("y".repeat(65535));
        assertEquals(2 + 65534 + 2 + 65535, b.length());
    }

    @Test
    void sidShapeIsChecked() {
        PayloadBuffer b = new PayloadBuffer();
        byte[] localSystem = hex("01 01 000000000005 12000000"); // S-1-5-18
        b.putSid(localSystem);
        assertArrayEquals(localSystem, b.toByteArray());
        assertThrows(IllegalArgumentException.class, () -> b.putSid(hex("01 02 000000000005 12000000")));
        assertThrows(IllegalArgumentException.class, () -> b.putSid(new byte[4]));
        assertThrows(IllegalArgumentException.class, () -> b.putSid(null));
    }

    @Test
    void truncateAndPatchCount() {
        PayloadBuffer b = new PayloadBuffer();
        b.putUInt8(1);
        int mark = b.length();
        b.putCount(0).putInt16((short) 7).putInt16((short) 8);
        b.setUInt16(mark, 2);
        assertArrayEquals(hex("01 0200 0700 0800"), b.toByteArray());
        b.truncate(mark);
        assertArrayEquals(hex("01"), b.toByteArray());
        assertThrows(IllegalArgumentException.class, () -> b.setUInt16(0, 1));
    }

    @Test
    void noReallocationOnceGrown() {
        PayloadBuffer b = new PayloadBuffer(1);
        Guid g = Guid.parse("b3864c38-4273-58c5-545b-8b3608343471");
        byte[] blob = new byte[100];
        Instant now = Instant.parse("2024-05-06T07:08:09.123456789Z");
        Runnable event = () -> b.reset().putInt32(1).putInt64(2).putUtf16z("a string value \u00e9").putUtf8z("utf8 \uD83D\uDE00")
                .putAnsiz("ansi").putCountedUtf16("counted").putCountedUtf8("counted8").putGuid(g)
                .putFileTime(now).putSystemTime(now).putCountedBinary(blob, 0, blob.length).putDouble(1.5);
        event.run(); // warm-up grows the array
        byte[] grown = b.array();
        int size = b.length();
        for (int i = 0; i < 1000; i++) {
            event.run();
            assertSame(grown, b.array(), "the backing array must stay the same once grown");
        }
        assertEquals(size, b.length());
    }
}
