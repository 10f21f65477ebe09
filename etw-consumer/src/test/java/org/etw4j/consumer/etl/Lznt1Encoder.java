package org.etw4j.consumer.etl;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * A small LZNT1 encoder for tests, written from [MS-XCA] section 2.5 ("LZNT1 Algorithm Details"), so that
 * the decoder can be checked on multi-chunk data, uncompressed chunks and matches at every displacement
 * width, and so LZNT1-compressed .etl buffers can be built. It computes the displacement width with its
 * own loop over the spec's rule rather than the decoder's formula, so the two do not share a mistake there.
 *
 * <p>Stateless; thread-safe. Greedy matching over hash chains of 3-byte prefixes inside each chunk.
 */
final class Lznt1Encoder {
    /** How the encoder stores each chunk. */
    enum Mode {
        /** Compressed, unless that is not smaller than the data (as RtlCompressBuffer does). */
        BEST,
        /** Compressed whenever the compressed form fits a chunk header (at most 4096 bytes), even if larger. */
        COMPRESSED,
        /** Every chunk stored uncompressed. */
        UNCOMPRESSED
    }

    private static final int CHUNK = 4096;
    private static final int CHAIN_DEPTH = 16;

    private Lznt1Encoder() {
    }

    /** Encodes {@code in} with {@link Mode#BEST} and a terminating zero header. */
    static byte[] encode(byte[] in) {
        return encode(in, Mode.BEST, true);
    }

    static byte[] encode(byte[] in, Mode mode, boolean terminator) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int start = 0; start < in.length; start += CHUNK) {
            int n = Math.min(CHUNK, in.length - start);
            byte[] packed = compressChunk(in, start, n);
            boolean compressed = switch (mode) {
                case BEST -> packed.length < n;
                case COMPRESSED -> packed.length <= CHUNK;
                case UNCOMPRESSED -> false;
            };
            if (compressed) {
                writeHeader(out, 0xB000 | (packed.length - 1));
                out.writeBytes(packed);
            } else {
                writeHeader(out, uncompressedHeader(n));
                out.write(in, start, n);
            }
        }
        if (terminator) {
            writeHeader(out, 0);
        }
        return out.toByteArray();
    }

    /** The header of an uncompressed chunk of {@code n} bytes (1..4096). */
    static int uncompressedHeader(int n) {
        return 0x3000 | (n - 1);
    }

    /** The header of a compressed chunk whose elements and flag bytes take {@code n} bytes (1..4096). */
    static int compressedHeader(int n) {
        return 0xB000 | (n - 1);
    }

    static void writeHeader(ByteArrayOutputStream out, int header) {
        out.write(header & 0xFF);
        out.write(header >>> 8);
    }

    /**
     * Displacement bits at chunk position {@code u}, straight from the [MS-XCA] 2.5.1.4 / 3.3 wording: the
     * largest M with M >= 4 and 2^(M-1) < U, or 4 when there is no such M (capped at 12).
     */
    static int displacementBits(int u) {
        int bits = 4;
        for (int m = 4; m <= 12; m++) {
            if ((1 << (m - 1)) < u) {
                bits = m;
            }
        }
        return bits;
    }

    private static byte[] compressChunk(byte[] in, int start, int n) {
        Chunk chunk = new Chunk();
        int[] head = new int[1 << 12];
        int[] prev = new int[n];
        Arrays.fill(head, -1);
        int u = 0;
        while (u < n) {
            int bits = displacementBits(u);
            int maxDisplacement = Math.min(u, 1 << bits);
            int maxLength = Math.min(n - u, (1 << (16 - bits)) + 2);
            int bestLength = 0;
            int bestDisplacement = 0;
            if (u + 3 <= n) {
                int candidate = head[hash(in, start + u)];
                for (int depth = 0; candidate >= 0 && depth < CHAIN_DEPTH; depth++, candidate = prev[candidate]) {
                    int displacement = u - candidate;
                    if (displacement > maxDisplacement) {
                        break;
                    }
                    int length = 0;
                    while (length < maxLength && in[start + candidate + length] == in[start + u + length]) {
                        length++;
                    }
                    if (length > bestLength) {
                        bestLength = length;
                        bestDisplacement = displacement;
                    }
                }
            }
            int step;
            if (bestLength >= 3) {
                chunk.match(bestDisplacement, bestLength);
                step = bestLength;
            } else {
                chunk.literal(in[start + u]);
                step = 1;
            }
            for (int k = 0; k < step; k++, u++) {
                if (u + 3 <= n) {
                    int h = hash(in, start + u);
                    prev[u] = head[h];
                    head[h] = u;
                }
            }
        }
        return chunk.body();
    }

    private static int hash(byte[] b, int i) {
        int v = (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16;
        return (v * 0x9E3779B1) >>> 20;
    }

    /**
     * The body of one compressed chunk, element by element: flag bytes are placed as the spec lays them
     * out (one before every group of eight elements, bit 0 for the first). Tracks the chunk position U to
     * encode compressed words; no range checks beyond the spec's field widths, so tests can also write
     * words the decoder must refuse.
     */
    static final class Chunk {
        private byte[] bytes = new byte[64];
        private int size;
        private int flagAt = -1;
        private int elements;
        private int u;

        Chunk literal(int b) {
            flagBit(false);
            put(b);
            u++;
            return this;
        }

        /** A compressed word for {@code displacement} (1..2^D) and {@code length} (3..2^(16-D)+2) at the current U. */
        Chunk match(int displacement, int length) {
            int lengthBits = 16 - displacementBits(u);
            if (displacement < 1 || displacement > 1 << (16 - lengthBits) || length < 3
                    || length > (1 << lengthBits) + 2) {
                throw new IllegalArgumentException("displacement " + displacement + " / length " + length
                        + " do not fit the word at U=" + u);
            }
            return word((displacement - 1) << lengthBits | (length - 3), length);
        }

        /** A raw compressed word; {@code produces} is the length it stands for (to keep U right). */
        Chunk word(int word, int produces) {
            flagBit(true);
            put(word & 0xFF);
            put(word >>> 8);
            u += produces;
            return this;
        }

        int position() {
            return u;
        }

        private void flagBit(boolean set) {
            if (elements % 8 == 0) {
                flagAt = size;
                put(0);
            }
            if (set) {
                bytes[flagAt] |= (byte) (1 << (elements % 8));
            }
            elements++;
        }

        private void put(int b) {
            if (size == bytes.length) {
                bytes = Arrays.copyOf(bytes, size * 2);
            }
            bytes[size++] = (byte) b;
        }

        /** The flag bytes and elements, without a header. */
        byte[] body() {
            return Arrays.copyOf(bytes, size);
        }

        /** The chunk with its compressed-chunk header. */
        byte[] withHeader() {
            byte[] body = body();
            if (body.length > CHUNK) {
                throw new IllegalStateException(body.length + " bytes do not fit a chunk header's 12-bit size");
            }
            byte[] all = new byte[2 + body.length];
            int header = compressedHeader(body.length);
            all[0] = (byte) header;
            all[1] = (byte) (header >>> 8);
            System.arraycopy(body, 0, all, 2, body.length);
            return all;
        }
    }
}
