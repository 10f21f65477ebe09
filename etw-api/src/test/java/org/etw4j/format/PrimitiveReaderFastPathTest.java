package org.etw4j.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The fast text paths of {@link PrimitiveReader} (word-at-a-time NUL scan, UTF-16LE and windows-1252 decoding
 * without a charset decoder) against the plain definitions: a unit-by-unit scan and the JDK's decoders, over
 * random data in every kind of buffer the readers get (heap, heap slice with an array offset, read-only,
 * direct, either byte order).
 */
class PrimitiveReaderFastPathTest {

    private static final SplittableRandom RANDOM = new SplittableRandom(20261122);

    /** The same bytes at {@code base} in each kind of buffer; index {@code base} of each is byte 0 of data. */
    private static List<ByteBuffer> buffers(byte[] data) {
        List<ByteBuffer> out = new ArrayList<>();
        for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            out.add(ByteBuffer.wrap(data).order(order));
            byte[] padded = new byte[data.length + 5];
            System.arraycopy(data, 0, padded, 3, data.length);
            out.add(ByteBuffer.wrap(padded).slice(3, data.length).order(order)); // array offset 3
            out.add(ByteBuffer.wrap(data).asReadOnlyBuffer().order(order));
            ByteBuffer direct = ByteBuffer.allocateDirect(data.length);
            direct.put(0, data);
            out.add(direct.order(order));
            out.add(direct.asReadOnlyBuffer().order(order));
        }
        return out;
    }

    private static int naiveNul(byte[] d, int from, int limit, int unit) {
        for (int at = from; at + unit <= limit; at += unit) {
            if (d[at] == 0 && (unit == 1 || d[at + 1] == 0)) {
                return at;
            }
        }
        return -1;
    }

    @Test
    void nulIndexFindsTheFirstWholeNulUnitLikeAScanByUnits() {
        for (int round = 0; round < 400; round++) {
            byte[] d = new byte[RANDOM.nextInt(0, 70)];
            for (int i = 0; i < d.length; i++) {
                // mostly non-zero, with zero bytes that make odd-aligned and partial NUL units
                d[i] = RANDOM.nextInt(8) == 0 ? 0 : (byte) RANDOM.nextInt(1, 256);
            }
            for (ByteBuffer b : buffers(d)) {
                for (int unit = 1; unit <= 2; unit++) {
                    int from = d.length == 0 ? 0 : RANDOM.nextInt(d.length + 1);
                    int limit = from + RANDOM.nextInt(d.length - from + 1);
                    assertEquals(naiveNul(d, from, limit, unit), PrimitiveReader.nulIndex(b, from, limit, unit),
                            "unit " + unit + " from " + from + " limit " + limit + " in " + b);
                }
            }
        }
    }

    @Test
    void nulIndexRejectsALimitBeyondAHeapBuffer() {
        ByteBuffer b = ByteBuffer.wrap(new byte[20]).slice(2, 10);
        assertThrows(IndexOutOfBoundsException.class, () -> PrimitiveReader.nulIndex(b, 0, 12, 1));
    }

    /** A random UTF-16 unit: ASCII, Latin-1, BMP, halves of valid pairs, or lone surrogates. */
    private static void randomUnits(char[] units) {
        int kind = RANDOM.nextInt(5);
        for (int i = 0; i < units.length; i++) {
            units[i] = switch (kind == 4 ? RANDOM.nextInt(4) : kind) {
                case 0 -> (char) RANDOM.nextInt(0x20, 0x7F);
                case 1 -> (char) RANDOM.nextInt(0x01, 0x100);
                case 2 -> (char) RANDOM.nextInt(0x100, 0xD800);
                default -> RANDOM.nextInt(3) == 0 ? (char) RANDOM.nextInt(0xD800, 0xE000) // may be unpaired
                        : (char) RANDOM.nextInt(0xE000, 0x10000);
            };
        }
        if (kind == 3 && units.length >= 2) {
            units[0] = '\uD83D'; // a valid pair as well
            units[1] = '\uDE00';
        }
    }

    @Test
    void utf16TextEqualsTheJdkDecoderIncludingSurrogates() {
        for (int round = 0; round < 600; round++) {
            char[] units = new char[RANDOM.nextInt(0, 60)];
            randomUnits(units);
            int lead = RANDOM.nextInt(4);
            byte[] d = new byte[lead + 2 * units.length + RANDOM.nextInt(3)];
            for (int i = 0; i < units.length; i++) {
                d[lead + 2 * i] = (byte) units[i];
                d[lead + 2 * i + 1] = (byte) (units[i] >>> 8);
            }
            String expected = new String(d, lead, 2 * units.length, StandardCharsets.UTF_16LE);
            for (ByteBuffer b : buffers(d)) {
                assertEquals(expected, PrimitiveReader.string(b, lead, 2 * units.length, StandardCharsets.UTF_16LE),
                        "units " + new String(units).chars().mapToObj(Integer::toHexString).toList() + " in " + b);
            }
            if (units.length > 0) { // an odd byte count: the decoder's replacement for the dangling byte
                String odd = new String(d, lead, 2 * units.length - 1, StandardCharsets.UTF_16LE);
                assertEquals(odd, PrimitiveReader.string(ByteBuffer.wrap(d), lead, 2 * units.length - 1,
                        StandardCharsets.UTF_16LE));
            }
        }
    }

    @Test
    void ansiAndOtherCharsetsEqualTheJdkDecoder() {
        for (Charset cs : new Charset[] {PrimitiveReader.ANSI, StandardCharsets.UTF_8, StandardCharsets.ISO_8859_1}) {
            for (int round = 0; round < 300; round++) {
                byte[] d = new byte[RANDOM.nextInt(0, 50)];
                boolean highOnly = RANDOM.nextBoolean();
                for (int i = 0; i < d.length; i++) {
                    d[i] = (byte) (highOnly ? RANDOM.nextInt(0x80, 0x100) : RANDOM.nextInt(0, 0x80));
                }
                int at = d.length == 0 ? 0 : RANDOM.nextInt(d.length + 1);
                int n = d.length - at;
                String expected = new String(d, at, n, cs);
                for (ByteBuffer b : buffers(d)) {
                    assertEquals(expected, PrimitiveReader.string(b, at, n, cs), cs + " in " + b);
                }
            }
        }
    }

    @Test
    void textOutsideTheBufferThrows() {
        ByteBuffer b = ByteBuffer.wrap(new byte[20]).slice(4, 8);
        assertThrows(IndexOutOfBoundsException.class,
                () -> PrimitiveReader.string(b, 4, 6, StandardCharsets.UTF_16LE));
        assertThrows(IndexOutOfBoundsException.class, () -> PrimitiveReader.string(b, 0, 9, PrimitiveReader.ANSI));
    }
}
