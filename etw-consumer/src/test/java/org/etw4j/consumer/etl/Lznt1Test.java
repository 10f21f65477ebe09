package org.etw4j.consumer.etl;

import static org.etw4j.consumer.etl.EtlBuilder.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The LZNT1 decoder on the [MS-XCA] section 3.3 example, on hand-written compressed words at every
 * displacement width, on round trips through the test encoder, and on malformed input; and the per-buffer
 * choice between LZNT1 and Plain LZ77.
 */
class Lznt1Test {

    /** [MS-XCA] 3.3 "LZNT1": the input string (141 characters plus its terminating NUL = 142 bytes). */
    private static final String SPEC_TEXT = "F# F# G A A G F# E D D E F# F# E E F# F# G A A G F# E D D E F# E D D E E"
            + " F# D E F# G F# D E F# G F# E D E A F# F# G A A G F# E D D E F# E D D";

    /** [MS-XCA] 3.3: its 59-byte output "using the standard compression engine", as printed there. */
    private static final byte[] SPEC_COMPRESSED = bytes(
            0x38, 0xb0, 0x88, 0x46, 0x23, 0x20, 0x00, 0x20,
            0x47, 0x20, 0x41, 0x00, 0x10, 0xa2, 0x47, 0x01,
            0xa0, 0x45, 0x20, 0x44, 0x00, 0x08, 0x45, 0x01,
            0x50, 0x79, 0x00, 0xc0, 0x45, 0x20, 0x05, 0x24,
            0x13, 0x88, 0x05, 0xb4, 0x02, 0x4a, 0x44, 0xef,
            0x03, 0x58, 0x02, 0x8c, 0x09, 0x16, 0x01, 0x48,
            0x45, 0x00, 0xbe, 0x00, 0x9e, 0x00, 0x04, 0x01,
            0x18, 0x90, 0x00);

    private static byte[] specText() {
        byte[] text = SPEC_TEXT.getBytes(StandardCharsets.US_ASCII);
        return Arrays.copyOf(text, text.length + 1);
    }

    /** Decodes with guard bytes around both ranges, checking that nothing outside the output range changes. */
    private static int decodeGuarded(byte[] src, byte[] out, int capacity) {
        byte[] in = new byte[src.length + 10];
        Arrays.fill(in, (byte) 0x5A);
        System.arraycopy(src, 0, in, 5, src.length);
        byte[] dst = new byte[capacity + 14];
        Arrays.fill(dst, (byte) 0xA5);
        int n = Lznt1.decode(in, 5, 5 + src.length, dst, 7, capacity);
        for (int i = 0; i < 7; i++) {
            assertEquals((byte) 0xA5, dst[i], "byte before the output range written");
            assertEquals((byte) 0xA5, dst[dst.length - 1 - i], "byte after the output range written");
        }
        System.arraycopy(dst, 7, out, 0, Math.min(out.length, capacity));
        return n;
    }

    private static byte[] decode(byte[] src, int wanted) {
        byte[] out = new byte[wanted];
        int n = decodeGuarded(src, out, wanted);
        assertEquals(wanted, n, () -> n < 0 ? Lznt1.failure(n) : "decoded length");
        return out;
    }

    private static Lznt1.Failure failureOf(byte[] src, int capacity) {
        int n = decodeGuarded(src, new byte[capacity], capacity);
        assertTrue(n < 0, "expected a failure, decoded " + n + " bytes");
        return Lznt1.failureReason(n);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] uncompressedChunk(byte[] data) {
        int header = Lznt1Encoder.uncompressedHeader(data.length);
        return concat(bytes(header & 0xFF, header >>> 8), data);
    }

    private static byte[] random(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    // ------------------------------------------------------------------------------- the spec

    @Test
    void decodesTheSpecExample() {
        assertEquals(142, specText().length, "the spec gives the input as 142 bytes with its NUL");
        assertEquals(59, SPEC_COMPRESSED.length);
        assertArrayEquals(specText(), decode(SPEC_COMPRESSED, 142));
    }

    @Test
    void specExampleStopsAtItsEndWhateverTheCapacity() {
        // A single chunk and no terminator: the end of the input ends the data.
        byte[] out = new byte[4096];
        assertEquals(142, decodeGuarded(SPEC_COMPRESSED, out, 4096));
        assertArrayEquals(specText(), Arrays.copyOf(out, 142));
    }

    @Test
    void testEncoderReadsTheSpecExampleTheSameWay() {
        // Our encoder need not produce the same bytes as Windows' engine, but must round-trip the same text.
        byte[] packed = Lznt1Encoder.encode(specText());
        assertTrue(packed.length < 142, "compressed");
        assertArrayEquals(specText(), decode(packed, 142));
    }

    @Test
    void displacementWidthFollowsTheSpecRule() {
        // [MS-XCA] 3.3: "U, is 3 bytes; there is no value M such that M >= 4 and 2^(M-1) < U, so the compressed
        // word has 4 bits of displacement and 12 bits of length".
        assertEquals(4, Lznt1.displacementBits(3));
        for (int u = 0; u <= 4096; u++) {
            assertEquals(Lznt1Encoder.displacementBits(u), Lznt1.displacementBits(u), "U=" + u);
        }
        int[][] edges = {{16, 4}, {17, 5}, {32, 5}, {33, 6}, {64, 6}, {65, 7}, {128, 7}, {129, 8}, {256, 8}, {257, 9},
            {512, 9}, {513, 10}, {1024, 10}, {1025, 11}, {2048, 11}, {2049, 12}, {4096, 12}};
        for (int[] e : edges) {
            assertEquals(e[1], Lznt1.displacementBits(e[0]), "U=" + e[0]);
        }
    }

    @Test
    void theSameWordMeansDifferentMatchesEitherSideOfAWidthChange() {
        // Word 0x1000 after 16 literals: D = 4, so displacement (0x1000 >> 12) + 1 = 2, length 3.
        // After 17 literals: D = 5, so displacement (0x1000 >> 11) + 1 = 3, length 3.
        for (int literals : new int[] {16, 17}) {
            Lznt1Encoder.Chunk c = new Lznt1Encoder.Chunk();
            byte[] expected = new byte[literals + 3];
            for (int i = 0; i < literals; i++) {
                c.literal('a' + i);
                expected[i] = (byte) ('a' + i);
            }
            c.word(0x1000, 3);
            int displacement = literals == 16 ? 2 : 3;
            for (int i = literals; i < literals + 3; i++) {
                expected[i] = expected[i - displacement];
            }
            assertArrayEquals(expected, decode(c.withHeader(), expected.length), literals + " literals");
        }
    }

    /** Appends a match to both the chunk and the expected output (copying forward, as the spec says). */
    private static byte[] match(Lznt1Encoder.Chunk c, byte[] expected, int displacement, int length) {
        int u = c.position();
        c.match(displacement, length);
        byte[] grown = Arrays.copyOf(expected, u + length);
        for (int i = u; i < grown.length; i++) {
            grown[i] = grown[i - displacement];
        }
        return grown;
    }

    @Test
    void longestAndFarthestMatchesAtEveryWidth() {
        int[] positions = {1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 128, 129, 256, 257, 512, 513, 1024, 1025,
            2048, 2049, 3000, 4093};
        for (int u : positions) {
            int bits = Lznt1Encoder.displacementBits(u);
            int displacement = Math.min(u, 1 << bits);
            int length = Math.min(4096 - u, (1 << (16 - bits)) + 2);
            for (int[] m : new int[][] {{displacement, length}, {1, length}, {displacement, 3}}) {
                // Reach U with up to 40 random literals, then matches of varying displacement (a chunk of
                // literals only would not fit the 4096 bytes a chunk header can announce).
                Lznt1Encoder.Chunk c = new Lznt1Encoder.Chunk();
                byte[] expected = random(u, Math.min(u, 40));
                for (byte b : expected) {
                    c.literal(b);
                }
                Random random = new Random(u);
                while (c.position() < u) {
                    int at = c.position();
                    int b = Lznt1Encoder.displacementBits(at);
                    int d = 1 + random.nextInt(Math.min(at, 1 << b));
                    int n = Math.min(u - at, (1 << (16 - b)) + 2);
                    if (n < 3) {
                        c.literal(0x33);
                        expected = Arrays.copyOf(expected, at + 1);
                        expected[at] = 0x33;
                    } else {
                        expected = match(c, expected, d, 3 + random.nextInt(n - 2));
                    }
                }
                expected = match(c, expected, m[0], m[1]);
                assertArrayEquals(expected, decode(c.withHeader(), expected.length),
                        "U=" + u + " displacement " + m[0] + " length " + m[1]);
            }
        }
    }

    @Test
    void theLongestWordAtTheStartFillsAWholeChunk() {
        // At U = 1, D = 4 and L = 12: up to 4098 bytes could be written, but a chunk holds 4096.
        Lznt1Encoder.Chunk c = new Lznt1Encoder.Chunk().literal('z').match(1, 4095);
        byte[] expected = new byte[4096];
        Arrays.fill(expected, (byte) 'z');
        assertArrayEquals(expected, decode(c.withHeader(), 4096));
        Lznt1Encoder.Chunk over = new Lznt1Encoder.Chunk().literal('z').match(1, 4096);
        assertEquals(Lznt1.Failure.CHUNK_TOO_LONG, failureOf(over.withHeader(), 8192));
    }

    // ---------------------------------------------------------------------------- round trips

    /** Every chunk gets literals and matches of all sizes. */
    private static byte[] structured(Random random, int length) {
        return CompressibleData.generate(random, length, 600, 5000);
    }

    @Test
    void roundTripsThroughTheTestEncoder() {
        Random random = new Random(7);
        for (int round = 0; round < 300; round++) {
            int length = round < 100 ? random.nextInt(300) : random.nextInt(70_000);
            byte[] data = structured(random, length);
            Lznt1Encoder.Mode mode = Lznt1Encoder.Mode.values()[round % 3];
            byte[] packed = Lznt1Encoder.encode(data, mode, round % 2 == 0);
            assertArrayEquals(data, decode(packed, data.length), "round " + round + " " + mode);
        }
    }

    @Test
    void incompressibleDataGoesInUncompressedChunks() {
        byte[] noise = random(11, 3 * 4096 + 100);
        byte[] packed = Lznt1Encoder.encode(noise);
        // Four chunks, each stored raw: header 0x3FFF (4096 bytes) three times, then 0x3063 (100 bytes), then 0.
        assertEquals(4 * 2 + noise.length + 2, packed.length);
        assertEquals(0x3FFF, (packed[0] & 0xFF) | (packed[1] & 0xFF) << 8);
        assertEquals(0x3063, (packed[3 * 4098] & 0xFF) | (packed[3 * 4098 + 1] & 0xFF) << 8);
        assertArrayEquals(noise, decode(packed, noise.length));
    }

    @Test
    void mixedChunksEachStartAFreshHistory() {
        // A raw chunk, a compressed one that repeats it (but may only refer to itself), a raw tail.
        byte[] first = random(3, 4096);
        byte[] second = new byte[4096];
        for (int i = 0; i < 4096; i++) {
            second[i] = (byte) "abcabcabd".charAt(i % 9);
        }
        byte[] third = random(4, 77);
        byte[] data = concat(first, second, third);
        byte[] middle = Lznt1Encoder.encode(second, Lznt1Encoder.Mode.COMPRESSED, false);
        assertEquals(0xB0, middle[1] & 0xF0, "the middle chunk is stored compressed");
        byte[] packed = concat(uncompressedChunk(first), middle, uncompressedChunk(third), bytes(0, 0), random(5, 30));
        assertArrayEquals(data, decode(packed, data.length), "the zero header ends the data; what follows is not read");
    }

    @Test
    void stopsOnceTheCapacityIsReachedAtAChunkBoundary() {
        byte[] data = structured(new Random(9), 3 * 4096);
        byte[] packed = Lznt1Encoder.encode(data, Lznt1Encoder.Mode.COMPRESSED, false);
        byte[] out = new byte[8192];
        assertEquals(8192, decodeGuarded(packed, out, 8192));
        assertArrayEquals(Arrays.copyOf(data, 8192), out);
    }

    @Test
    void endOfInputBeforeTheCapacityIsAShortResult() {
        byte[] data = structured(new Random(10), 5000);
        byte[] packed = Lznt1Encoder.encode(data, Lznt1Encoder.Mode.BEST, true);
        assertEquals(5000, decodeGuarded(packed, new byte[9000], 9000));
        byte[] withLoneByte = concat(Lznt1Encoder.encode(data, Lznt1Encoder.Mode.BEST, false), bytes(0x42));
        assertEquals(5000, decodeGuarded(withLoneByte, new byte[9000], 9000));
        assertEquals(0, decodeGuarded(new byte[0], new byte[10], 10));
        assertEquals(0, decodeGuarded(bytes(0, 0, 0x3F, 0xB0), new byte[10], 10));
    }

    // ------------------------------------------------------------------------------ malformed

    @Test
    void everyTruncationOfTheSpecExampleFailsCleanly() {
        for (int cut = 0; cut < SPEC_COMPRESSED.length; cut++) {
            byte[] part = Arrays.copyOf(SPEC_COMPRESSED, cut);
            int n = decodeGuarded(part, new byte[142], 142);
            if (cut < 2) {
                assertEquals(0, n, "no chunk header: no data");
            } else {
                assertTrue(n < 0, "cut at " + cut);
                assertEquals(Lznt1.Failure.TRUNCATED_CHUNK, Lznt1.failureReason(n));
                assertEquals(0, Lznt1.failureOffset(n), "the chunk header's offset");
            }
        }
    }

    @Test
    void aMatchBeforeTheChunkStartIsRefused() {
        // First element a match: nothing to copy from.
        assertEquals(Lznt1.Failure.MATCH_BEFORE_CHUNK, failureOf(new Lznt1Encoder.Chunk().word(0x0000, 3).withHeader(), 100));
        // One literal, then displacement 2.
        assertEquals(Lznt1.Failure.MATCH_BEFORE_CHUNK,
                failureOf(new Lznt1Encoder.Chunk().literal('a').word(0x1000, 3).withHeader(), 100));
        // The previous chunk's bytes are out of reach: each chunk decompresses on its own.
        byte[] packed = concat(uncompressedChunk(random(1, 4096)), new Lznt1Encoder.Chunk().word(0x0000, 3).withHeader());
        int n = decodeGuarded(packed, new byte[8192], 8192);
        assertEquals(Lznt1.Failure.MATCH_BEFORE_CHUNK, Lznt1.failureReason(n));
        assertEquals(4098 + 3, Lznt1.failureOffset(n), "offset of the word (after header and flag byte)");
        assertTrue(Lznt1.failure(n).contains("before the start of its chunk") && Lznt1.failure(n).contains("4101"),
                Lznt1.failure(n));
    }

    @Test
    void aBadSignatureIsRefused() {
        byte[] good = SPEC_COMPRESSED.clone();
        for (int signature = 0; signature < 8; signature++) {
            if (signature == 3) {
                continue;
            }
            good[1] = (byte) (0x80 | signature << 4);
            assertEquals(Lznt1.Failure.BAD_SIGNATURE, failureOf(good, 142), "signature " + signature);
        }
        byte[] second = concat(uncompressedChunk(random(2, 4096)), bytes(0x10, 0x20, 1, 2, 3));
        int n = decodeGuarded(second, new byte[8192], 8192);
        assertEquals(Lznt1.Failure.BAD_SIGNATURE, Lznt1.failureReason(n));
        assertEquals(4098, Lznt1.failureOffset(n));
    }

    @Test
    void aWordCutByTheChunkEndIsRefused() {
        byte[] body = new Lznt1Encoder.Chunk().literal('a').literal('b').word(0x0000, 3).body();
        byte[] cut = Arrays.copyOf(body, body.length - 1);
        int header = Lznt1Encoder.compressedHeader(cut.length);
        assertEquals(Lznt1.Failure.TRUNCATED_WORD, failureOf(concat(bytes(header & 0xFF, header >>> 8), cut), 100));
    }

    @Test
    void onlyTheLastChunkMayBeShort() {
        byte[] packed = concat(uncompressedChunk(random(1, 100)), uncompressedChunk(random(2, 100)));
        assertEquals(Lznt1.Failure.SHORT_CHUNK, failureOf(packed, 8192));
        assertEquals(100, decodeGuarded(uncompressedChunk(random(1, 100)), new byte[8192], 8192));
    }

    @Test
    void moreDataThanTheCapacityIsAFailureNotATruncation() {
        assertEquals(Lznt1.Failure.TOO_LONG, failureOf(SPEC_COMPRESSED, 141));
        assertEquals(Lznt1.Failure.TOO_LONG, failureOf(uncompressedChunk(random(1, 100)), 99));
    }

    @Test
    void randomAndMutatedInputNeverEscapesItsBounds() {
        Random random = new Random(1234);
        byte[] valid = Lznt1Encoder.encode(structured(random, 20_000));
        for (int round = 0; round < 3000; round++) {
            byte[] src;
            if (round % 2 == 0) {
                src = random(round, random.nextInt(600));
                if (src.length >= 2 && round % 4 == 0) {
                    src[1] = (byte) (src[1] & 0x8F | 0x30);   // a valid signature, so the chunk body gets read
                }
            } else {
                src = valid.clone();
                for (int k = 0; k < 1 + random.nextInt(8); k++) {
                    src[random.nextInt(src.length)] = (byte) random.nextInt();
                }
            }
            int capacity = random.nextInt(25_000);
            int n = decodeGuarded(src, new byte[capacity], capacity);
            assertTrue(n <= capacity, "round " + round);
            if (n < 0) {
                assertTrue(Lznt1.failure(n).contains("compressed data"));
            }
        }
    }

    // ------------------------------------------------------------------- choosing the algorithm

    @Test
    void lznt1DataIsRecognisedAndDecoded() {
        byte[] data = structured(new Random(21), 20_000);
        byte[] packed = Lznt1Encoder.encode(data);
        byte[] out = new byte[data.length];
        assertEquals(BufferCompression.LZNT1, BufferCompression.format(BufferCompression.inflate(packed, 0, packed.length, out, 0, out.length, data.length)));
        assertArrayEquals(data, out);
    }

    @Test
    void plainLz77DataThatStartsLikeLznt1StaysPlainLz77() {
        // A Plain LZ77 stream starts with a 32-bit flag word; its low u16 (elements 17-32) carries the LZNT1
        // signature by chance. Encode many buffers and check every such one still decodes as Plain LZ77.
        Random random = new Random(77);
        int lookalikes = 0;
        for (int round = 0; round < 4000; round++) {
            byte[] data = structured(random, 100 + random.nextInt(5000));
            byte[] packed = Lz77Encoder.encode(data);
            byte[] out = new byte[data.length];
            BufferCompression c = BufferCompression.format(BufferCompression.inflate(packed, 0, packed.length, out, 0, out.length, data.length));
            assertEquals(BufferCompression.PLAIN_LZ77, c, "round " + round);
            assertArrayEquals(data, out, "round " + round);
            if (BufferCompression.startsLikeLznt1(packed, 0, packed.length)) {
                lookalikes++;
            }
        }
        assertTrue(lookalikes >= 10, "the test must exercise the look-alike case; found " + lookalikes);
    }

    @Test
    void handMadePlainLz77LookalikeFallsBack() {
        // Flag word 0x00003000: elements 1-18 literals, 19 and 20 matches, the rest literals. Its first u16,
        // 0x3000, reads as an uncompressed LZNT1 chunk of 1 byte, followed by bytes that are no chunk header.
        byte[] literals = "abcdefghijklmnopqr".getBytes(StandardCharsets.US_ASCII);
        byte[] src = concat(bytes(0x00, 0x30, 0x00, 0x00), literals,
                bytes((18 - 1) << 3, 0),    // match: offset 18, length 3 -> "abc"
                bytes((3 - 1) << 3 | 1, 0)); // match: offset 3, length 4 -> "abca"
        byte[] expected = "abcdefghijklmnopqrabcabca".getBytes(StandardCharsets.US_ASCII);
        assertTrue(BufferCompression.startsLikeLznt1(src, 0, src.length));
        byte[] out = new byte[expected.length];
        assertEquals(BufferCompression.PLAIN_LZ77, BufferCompression.format(BufferCompression.inflate(src, 0, src.length, out, 0, out.length, expected.length)));
        assertArrayEquals(expected, out);
    }

    @Test
    void undecodableDataNamesBothAttempts() {
        byte[] src = bytes(0x40, 0xB0, 0xFF, 0xFF, 0xFF, 0xFF);
        byte[] out = new byte[100];
        assertNull(BufferCompression.format(BufferCompression.inflate(src, 0, src.length, out, 0, out.length, 100)));
        String why = BufferCompression.whyNotDecodable(src, 0, src.length, out, 0, out.length, 100);
        assertTrue(why.contains("Plain LZ77") && why.contains("LZNT1") && why.contains("runs past the end"), why);
        byte[] notLznt1 = bytes(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF);
        assertNull(BufferCompression.format(BufferCompression.inflate(notLznt1, 0, notLznt1.length, out, 0, out.length, 100)));
        assertTrue(BufferCompression.whyNotDecodable(notLznt1, 0, notLznt1.length, out, 0, out.length, 100)
                .contains("does not start like LZNT1"));
    }
}
