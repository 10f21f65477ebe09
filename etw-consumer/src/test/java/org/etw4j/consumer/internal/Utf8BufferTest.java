package org.etw4j.consumer.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.etw4j.Guid;
import org.etw4j.consumer.output.JsonWriter;
import org.junit.jupiter.api.Test;

/**
 * {@link Utf8Buffer} writes the bytes the character path wrote before it: an {@link OutputStreamWriter} in UTF-8
 * over {@link JsonWriter}'s characters (unpaired surrogates as {@code ?}), {@code Long.toString},
 * {@code Long.toUnsignedString}, {@code Long.toHexString}, {@link Guid#toString()}.
 */
class Utf8BufferTest {
    private static final char[] ALPHABET = {'a', 'Z', '0', ' ', '"', '\\', '\n', '\r', '\t', '\b', '\f', '\u0000',
        '\u001f', '\u007f', '\u00e9', '\u0800', '\u2028', '\u2029', '\uffff', '\ud83d', '\ude00', '/', '<'};

    @Test
    void textAndJsonStringsAreTheEncodersBytes() throws Exception {
        SplittableRandom random = new SplittableRandom(19);
        Utf8Buffer buf = new Utf8Buffer(16);
        for (int round = 0; round < 20_000; round++) {
            char[] cs = new char[random.nextInt(12)];
            for (int i = 0; i < cs.length; i++) {
                cs[i] = ALPHABET[random.nextInt(ALPHABET.length)];
            }
            String s = new String(cs);
            assertArrayEquals(viaWriter(s), bytes(buf.clear().append(s)), () -> "text " + escape(s));
            StringBuilder json = new StringBuilder();
            new JsonWriter(json).value(s);
            assertArrayEquals(viaWriter(json.toString()), bytes(buf.clear().jsonString(s)), () -> "json " + escape(s));
            new JsonWriter(buf.clear()).value(s);
            assertArrayEquals(viaWriter(json.toString()), bytes(buf), () -> "JsonWriter bytes " + escape(s));
            if (s.chars().noneMatch(c -> Character.isSurrogate((char) c))) {
                buf.clear().ascii('"');
                s.chars().forEach(c -> buf.jsonChar((char) c));
                assertEquals(json.toString(), buf.ascii('"').toString(), () -> "jsonChar " + escape(s));
            }
        }
    }

    /**
     * The run-based writers of in-place texts ({@code asciiText}, {@code utf16Text}) give what
     * {@code jsonChar}/{@code lineChar} give one character at a time, and stop at a surrogate.
     */
    @Test
    void textRunsAreTheCharacterWritersBytes() {
        SplittableRandom random = new SplittableRandom(23);
        Utf8Buffer runs = new Utf8Buffer(16);
        Utf8Buffer chars = new Utf8Buffer(16);
        for (int round = 0; round < 20_000; round++) {
            char[] cs = new char[random.nextInt(40)];
            for (int i = 0; i < cs.length; i++) {
                cs[i] = random.nextInt(3) == 0 ? ALPHABET[random.nextInt(ALPHABET.length)]
                        : (char) random.nextInt(0x20, 0x80);
            }
            boolean json = random.nextBoolean();
            boolean cut = random.nextBoolean();
            byte[] utf16 = new byte[2 * cs.length]; // by hand: the charset would replace unpaired surrogates
            for (int i = 0; i < cs.length; i++) {
                utf16[2 * i] = (byte) cs[i];
                utf16[2 * i + 1] = (byte) (cs[i] >> 8);
            }
            chars.clear();
            boolean surrogate = false;
            for (char c : cs) {
                if (c == 0 && cut) {
                    break;
                }
                if (Character.isSurrogate(c)) {
                    surrogate = true;
                    break;
                }
                if (json) {
                    chars.jsonChar(c);
                } else {
                    chars.lineChar(c);
                }
            }
            String what = (json ? "json " : "line ") + (cut ? "cut " : "") + escape(new String(cs));
            assertEquals(!surrogate, runs.clear().utf16Text(utf16, 0, utf16.length, cut, json), what);
            if (!surrogate) {
                assertArrayEquals(bytes(chars), bytes(runs), what);
            }
            byte[] ascii = new byte[cs.length];
            for (int i = 0; i < cs.length; i++) {
                ascii[i] = (byte) (cs[i] & 0x7F);
            }
            chars.clear();
            for (byte b : ascii) {
                if (json) {
                    chars.jsonChar((char) b);
                } else {
                    chars.lineChar((char) b);
                }
            }
            assertArrayEquals(bytes(chars), bytes(runs.clear().asciiText(ascii, 0, ascii.length, json)), what);
        }
    }

    @Test
    void fixedWidthDecimals() {
        Utf8Buffer buf = new Utf8Buffer(4);
        for (int v : new int[] {0, 1, 7, 10, 99, 100, 999, 123_456, 999_999, 100_000_000, 999_999_999}) {
            for (int width : new int[] {3, 6, 9}) {
                String all = String.format("%09d", v);
                assertEquals(all.substring(9 - width), buf.clear().fixedDecimal(v, width).toString(), v + "/" + width);
            }
        }
    }

    @Test
    void numbersGuidsAndHex() {
        SplittableRandom random = new SplittableRandom(5);
        Utf8Buffer buf = new Utf8Buffer(16);
        long[] edge = {0, 1, -1, 9, 10, 99, 100, Long.MAX_VALUE, Long.MIN_VALUE, 999_999_999_999_999_999L,
            1_000_000_000_000_000_000L, -1_000_000_000_000_000_000L, 0x8000_0000_0000_0000L + 5,
            Integer.MAX_VALUE - 1L, Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, 0xFFFF_FFFFL, 0x1_0000_0000L,
            100_000_000_000L};
        for (int i = 0; i < 100_000; i++) {
            long v = i < edge.length ? edge[i] : i % 3 == 0 ? random.nextLong() : random.nextLong() >> random.nextInt(64);
            assertEquals(Long.toString(v), buf.clear().decimal(v).toString());
            assertEquals(Long.toUnsignedString(v), buf.clear().unsignedDecimal(v).toString());
            assertEquals(Long.toHexString(v), buf.clear().hex(v).toString());
            Guid g = new Guid(v, random.nextLong());
            assertEquals(g.toString(), buf.clear().guid(g.mostSignificantBits(), g.leastSignificantBits()).toString());
        }
    }

    private static byte[] viaWriter(String s) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
            w.write(s);
        }
        return out.toByteArray();
    }

    private static byte[] bytes(Utf8Buffer b) {
        return Arrays.copyOf(b.array(), b.size());
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        s.chars().forEach(c -> sb.append(String.format("\\u%04x", c)));
        return sb.toString();
    }
}
