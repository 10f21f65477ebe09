package org.etw4j.consumer.etl;

/**
 * Decoder for the MS-XCA "Plain LZ77" format (LZXPRESS), which ETW uses for compressed .etl buffers.
 *
 * <p>Stateless; thread-safe. Written from the algorithm in [MS-XCA] section 2.4 ("Plain LZ77
 * Decompression"); that dissect.etl decompresses .etl buffers this way is noted in
 * dissect.etl, and the corpus' compressed files
 * (perfview__net.4.5.2.x64.etl, perfview__smallEtlFile.etl) decode to exactly their SavedOffset.
 * Every read is bounds-checked: malformed input yields {@code -1}, never an exception or a loop.
 * {@link BufferCompression} chooses between this and {@link Lznt1} per buffer.
 */
final class PlainLz77 {
    private PlainLz77() {
    }

    /**
     * Decodes {@code src[srcFrom, srcTo)} into {@code dst[dstFrom, dstFrom + wanted)} and stops as soon as
     * {@code wanted} bytes are out.
     *
     * @return the number of bytes produced ({@code wanted} on success, less when the input ran out first),
     *     or -1 when the input is malformed (a match reaching before the output start, a truncated length)
     */
    static int decode(byte[] src, int srcFrom, int srcTo, byte[] dst, int dstFrom, int wanted) {
        int in = srcFrom;
        int out = dstFrom;
        int outEnd = dstFrom + wanted;
        int flags = 0;
        int flagCount = 0;
        int halfByteAt = -1;
        while (out < outEnd) {
            if (flagCount == 0) {
                if (in + 4 > srcTo) {
                    break;
                }
                flags = (src[in] & 0xFF) | (src[in + 1] & 0xFF) << 8 | (src[in + 2] & 0xFF) << 16 | src[in + 3] << 24;
                in += 4;
                flagCount = 32;
            }
            flagCount--;
            if ((flags & (1 << flagCount)) == 0) {
                if (in >= srcTo) {
                    break;
                }
                dst[out++] = src[in++];
                continue;
            }
            if (in + 2 > srcTo) {
                break;
            }
            int matchBytes = (src[in] & 0xFF) | (src[in + 1] & 0xFF) << 8;
            in += 2;
            int length = matchBytes & 7;
            int offset = (matchBytes >>> 3) + 1;
            if (length == 7) {
                if (halfByteAt < 0) {
                    if (in >= srcTo) {
                        return -1;
                    }
                    halfByteAt = in;
                    length = src[in++] & 0x0F;
                } else {
                    length = (src[halfByteAt] & 0xFF) >>> 4;
                    halfByteAt = -1;
                }
                if (length == 15) {
                    if (in >= srcTo) {
                        return -1;
                    }
                    length = src[in++] & 0xFF;
                    if (length == 255) {
                        if (in + 2 > srcTo) {
                            return -1;
                        }
                        length = (src[in] & 0xFF) | (src[in + 1] & 0xFF) << 8;
                        in += 2;
                        if (length == 0) {
                            if (in + 4 > srcTo) {
                                return -1;
                            }
                            long big = ((src[in] & 0xFF) | (src[in + 1] & 0xFF) << 8 | (src[in + 2] & 0xFF) << 16
                                    | (long) (src[in + 3] & 0xFF) << 24);
                            in += 4;
                            if (big > Integer.MAX_VALUE) {
                                return -1;
                            }
                            length = (int) big;
                        }
                        if (length < 15 + 7) {
                            return -1;
                        }
                        length -= 15 + 7;
                    }
                    length += 15;
                }
                length += 7;
            }
            length += 3;
            if (offset > out - dstFrom) {
                return -1;
            }
            // A match running past the wanted size is cut there: bytes beyond it are never read.
            length = Math.min(length, outEnd - out);
            out = Overlap.copyMatch(dst, out, offset, length);
        }
        return out - dstFrom;
    }
}
