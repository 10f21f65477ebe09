package org.etw4j.consumer.etl;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * A small MS-XCA Plain LZ77 encoder for tests (written from [MS-XCA] section 2.3), so that the decoder can
 * be checked on data with literals, short and long matches, overlapping matches and shared length
 * nibbles, and so synthetic compressed .etl buffers can be built.
 *
 * <p>Stateless; thread-safe. Greedy matching over a hash of 3-byte prefixes, window 8192 bytes.
 */
final class Lz77Encoder {
    private Lz77Encoder() {
    }

    static byte[] encode(byte[] in) {
        Out out = new Out();
        int[] last = new int[1 << 14];
        Arrays.fill(last, -1);
        int i = 0;
        while (i < in.length) {
            int bestLength = 0;
            int bestOffset = 0;
            if (i + 3 <= in.length) {
                int h = hash(in, i);
                int candidate = last[h];
                last[h] = i;
                if (candidate >= 0 && i - candidate <= 8192) {
                    int n = 0;
                    while (i + n < in.length && in[candidate + n] == in[i + n] && n < 70000) {
                        n++;
                    }
                    if (n >= 3) {
                        bestLength = n;
                        bestOffset = i - candidate;
                    }
                }
            }
            if (bestLength >= 3) {
                out.match(bestOffset, bestLength);
                for (int k = 1; k < bestLength && i + k + 3 <= in.length; k++) {
                    last[hash(in, i + k)] = i + k;
                }
                i += bestLength;
            } else {
                out.literal(in[i]);
                i++;
            }
        }
        return out.finish();
    }

    private static int hash(byte[] b, int i) {
        int v = (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16;
        return (v * 0x9E3779B1) >>> 18;
    }

    /** The bit-flag / token stream of MS-XCA 2.3. */
    private static final class Out {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private byte[] buf = new byte[64];
        private int size;
        private int flagsAt = -1;
        private int flags;
        private int flagCount;
        private int nibbleAt = -1;

        Out() {
            reserveFlags();
        }

        private void reserveFlags() {
            flagsAt = size;
            put(0);
            put(0);
            put(0);
            put(0);
            flags = 0;
            flagCount = 0;
        }

        private void flag(int bit) {
            if (flagCount == 32) {
                writeFlags();
                reserveFlags();
            }
            flags = (flags << 1) | bit;
            flagCount++;
        }

        private void writeFlags() {
            buf[flagsAt] = (byte) flags;
            buf[flagsAt + 1] = (byte) (flags >>> 8);
            buf[flagsAt + 2] = (byte) (flags >>> 16);
            buf[flagsAt + 3] = (byte) (flags >>> 24);
        }

        void literal(byte b) {
            flag(0);
            put(b & 0xFF);
        }

        void match(int offset, int length) {
            flag(1);
            int l = length - 3;
            int o = (offset - 1) << 3;
            if (l < 7) {
                put16(o | l);
                return;
            }
            put16(o | 7);
            l -= 7;
            int nibble = Math.min(l, 15);
            if (nibbleAt < 0) {
                nibbleAt = size;
                put(nibble);
            } else {
                buf[nibbleAt] |= (byte) (nibble << 4);
                nibbleAt = -1;
            }
            if (l >= 15) {
                l -= 15;
                if (l < 255) {
                    put(l);
                } else {
                    put(255);
                    int total = l + 15 + 7;
                    if (total < (1 << 16)) {
                        put16(total);
                    } else {
                        put16(0);
                        put16(total & 0xFFFF);
                        put16(total >>> 16);
                    }
                }
            }
        }

        byte[] finish() {
            int missing = 32 - flagCount;
            flags = missing == 32 ? -1 : (flags << missing) | ((1 << missing) - 1);
            writeFlags();
            bytes.write(buf, 0, size);
            return bytes.toByteArray();
        }

        private void put16(int v) {
            put(v & 0xFF);
            put((v >>> 8) & 0xFF);
        }

        private void put(int v) {
            if (size == buf.length) {
                buf = Arrays.copyOf(buf, size * 2);
            }
            buf[size++] = (byte) v;
        }
    }
}
