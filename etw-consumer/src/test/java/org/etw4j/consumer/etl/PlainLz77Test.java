package org.etw4j.consumer.etl;

import static org.etw4j.consumer.etl.EtlBuilder.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The Plain LZ77 decoder on the [MS-XCA] section 3.1 examples, encoder round trips and malformed input. */
class PlainLz77Test {

    private static byte[] decode(byte[] src, int wanted) {
        byte[] dst = new byte[wanted];
        int n = PlainLz77.decode(src, 0, src.length, dst, 0, wanted);
        assertEquals(wanted, n, "decoded length");
        return dst;
    }

    @Test
    void specExampleOfLiteralsOnly() {
        // [MS-XCA] 3.1.1: "abcdefghijklmnopqrstuvwxyz" -> 3f 00 00 00 61 62 ... 7a
        byte[] text = "abcdefghijklmnopqrstuvwxyz".getBytes(StandardCharsets.US_ASCII);
        byte[] src = new byte[4 + text.length];
        src[0] = 0x3f;
        System.arraycopy(text, 0, src, 4, text.length);
        assertArrayEquals(text, decode(src, text.length));
    }

    @Test
    void specExampleOfOneLongOverlappingMatch() {
        // [MS-XCA] 3.1.2: "abc" x 100 -> ff ff ff 1f 61 62 63 17 00 0f ff 26 01
        byte[] src = bytes(0xff, 0xff, 0xff, 0x1f, 0x61, 0x62, 0x63, 0x17, 0x00, 0x0f, 0xff, 0x26, 0x01);
        assertArrayEquals("abc".repeat(100).getBytes(StandardCharsets.US_ASCII), decode(src, 300));
    }

    @Test
    void roundTripsThroughTheTestEncoder() {
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            int length = random.nextInt(round < 100 ? 300 : 70_000);
            byte[] data = CompressibleData.generate(random, length, 400, 8192);
            byte[] packed = Lz77Encoder.encode(data);
            assertArrayEquals(data, decode(packed, data.length), "round " + round);
        }
    }

    @Test
    void stopsAtTheWantedLengthAndReportsShortInput() {
        byte[] data = "hello hello hello hello".getBytes(StandardCharsets.US_ASCII);
        byte[] packed = Lz77Encoder.encode(data);
        byte[] dst = new byte[10];
        assertEquals(10, PlainLz77.decode(packed, 0, packed.length, dst, 0, 10));
        assertArrayEquals(Arrays.copyOf(data, 10), dst);
        byte[] big = new byte[100];
        int n = PlainLz77.decode(packed, 0, packed.length, big, 0, 100);
        assertEquals(data.length, n, "input ends before the wanted length");
    }

    @Test
    void malformedInputNeverThrows() {
        // A match reaching before the start of the output.
        assertEquals(-1, PlainLz77.decode(bytes(0, 0, 0, 0x80, 0x08, 0x00), 0, 6, new byte[16], 0, 16));
        // A length nibble announced but the input ends.
        assertEquals(-1, PlainLz77.decode(bytes(0, 0, 0, 0x40, 0x61, 0x07, 0x00), 0, 7, new byte[64], 0, 64));
        Random random = new Random(7);
        byte[] dst = new byte[4096];
        for (int i = 0; i < 5000; i++) {
            byte[] src = new byte[random.nextInt(200)];
            random.nextBytes(src);
            int n = PlainLz77.decode(src, 0, src.length, dst, 0, dst.length);
            assertTrue(n >= -1 && n <= dst.length);
        }
    }
}
