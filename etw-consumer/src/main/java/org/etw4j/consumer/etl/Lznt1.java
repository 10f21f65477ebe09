package org.etw4j.consumer.etl;

/**
 * Decoder for the MS-XCA LZNT1 format ({@code RtlCompressBuffer(COMPRESSION_FORMAT_LZNT1)}), which a 2017
 * blog reports xperf using for compressed .etl buffers.
 *
 * <p>Stateless; thread-safe; allocates nothing. Written from [MS-XCA] section 2.5 "LZNT1 Algorithm
 * Details" (2.5.1.4 "Data Elements", 2.5.3 "Processing Rules") and checked against its section 3.3 "LZNT1"
 * example. No LZNT1-compressed .etl file has been available to check the ETW side against (etw-formats.md
 * open question 1). Every read and write is bounds-checked: malformed input yields a negative result that
 * {@link #failure} explains, never an exception or a loop.
 *
 * <p>Format: a series of chunks, each a little-endian u16 header followed by {@code (header & 0xFFF) + 1}
 * bytes; bits 12-14 of the header are the signature 3 and bit 15 says whether the chunk is compressed. An
 * uncompressed chunk's bytes are its data. A compressed chunk is a sequence of flag bytes, each followed
 * by up to eight elements (bit 0 first): a clear bit is a literal byte, a set bit a little-endian u16 word
 * whose high D bits hold displacement - 1 and low 16 - D bits hold length - 3, where D is the largest M in
 * 4..12 with 2^(M-1) &lt; U, U being the number of bytes the chunk has produced so far (4 when none is).
 * Chunks cover 4096 bytes of data each, the last one possibly fewer; matches never reach before the start
 * of their chunk. A zero header, or the end of the input, ends the data.
 *
 * <p>Where the specification leaves a choice this decoder is strict, so that data which only looks like
 * LZNT1 is refused rather than half-read: a chunk decoding to more than 4096 bytes, and a chunk other than
 * the last decoding to fewer, are failures. (Wine's RtlDecompressBuffer instead zero-fills a short chunk up
 * to 4096 bytes; a compressor following [MS-XCA] 2.5.3 never writes one.)
 */
final class Lznt1 {
    /** Uncompressed bytes one chunk covers ([MS-XCA] 2.5.3: "compressed in units of 4096 bytes"). */
    static final int CHUNK = 4096;

    /**
     * Why data is not well-formed LZNT1.
     *
     * <p>Enum constants: immutable and thread-safe.
     */
    enum Failure {
        BAD_SIGNATURE("a chunk header lacks the LZNT1 signature (3 in bits 12-14)"),
        TRUNCATED_CHUNK("a chunk runs past the end of the data"),
        TRUNCATED_WORD("a compressed word is cut by the end of its chunk"),
        MATCH_BEFORE_CHUNK("a match reaches before the start of its chunk"),
        CHUNK_TOO_LONG("a chunk decodes to more than " + CHUNK + " bytes"),
        SHORT_CHUNK("a chunk other than the last decodes to fewer than " + CHUNK + " bytes"),
        TOO_LONG("the data decodes to more bytes than expected");

        private static final Failure[] ALL = values();
        final String description;

        Failure(String description) {
            this.description = description;
        }
    }

    private static final int REASON_BITS = 3;
    /** Input offsets recorded in a failure result are capped here (buffers are at most 64 MiB anyway). */
    private static final int MAX_REPORTED_OFFSET = (Integer.MAX_VALUE >> REASON_BITS) - 1;

    private Lznt1() {
    }

    /**
     * Decodes all of {@code src[srcFrom, srcTo)} into {@code dst[dstFrom, dstFrom + capacity)}.
     *
     * <p>Decoding stops at a zero chunk header, at the end of the input (a lone byte left over is ignored),
     * or once exactly {@code capacity} bytes are out at a chunk boundary (what follows is then not read).
     * A chunk that would take the output past {@code capacity} is a failure, not a truncation, so that a
     * caller asking for an exact size does not accept data that only starts like LZNT1.
     *
     * @return the number of bytes produced (at most {@code capacity}), or a negative failure result, for
     *     {@link #failure} and {@link #failureOffset}
     */
    static int decode(byte[] src, int srcFrom, int srcTo, byte[] dst, int dstFrom, int capacity) {
        int in = srcFrom;
        int out = dstFrom;
        final int outEnd = dstFrom + capacity;
        while (out < outEnd && in + 2 <= srcTo) {
            int header = (src[in] & 0xFF) | (src[in + 1] & 0xFF) << 8;
            if (header == 0) {
                break;
            }
            if ((header & 0x7000) != 0x3000) {
                return fail(Failure.BAD_SIGNATURE, in - srcFrom);
            }
            if ((out - dstFrom) % CHUNK != 0) {
                // Only the last chunk may be short; this one is followed by another ([MS-XCA] 2.5.3).
                return fail(Failure.SHORT_CHUNK, in - srcFrom);
            }
            int chunkAt = in;
            in += 2;
            int size = (header & 0x0FFF) + 1;
            if (size > srcTo - in) {
                return fail(Failure.TRUNCATED_CHUNK, chunkAt - srcFrom);
            }
            int chunkEnd = in + size;
            if ((header & 0x8000) == 0) {
                if (size > outEnd - out) {
                    return fail(Failure.TOO_LONG, chunkAt - srcFrom);
                }
                System.arraycopy(src, in, dst, out, size);
                out += size;
                in = chunkEnd;
                continue;
            }
            int result = decodeChunk(src, srcFrom, in, chunkEnd, dst, out, outEnd);
            if (result < 0) {
                return result;
            }
            out = result;
            in = chunkEnd;
        }
        return out - dstFrom;
    }

    /**
     * Decodes the elements of one compressed chunk, {@code src[in, chunkEnd)}, to {@code dst} from
     * {@code chunkStart}; returns the output position after it, or a negative failure result (whose input
     * offset is relative to {@code srcFrom}).
     */
    private static int decodeChunk(byte[] src, int srcFrom, int in, int chunkEnd, byte[] dst, int chunkStart,
            int outEnd) {
        final int chunkLimit = chunkStart + Math.min(CHUNK, outEnd - chunkStart);
        final Failure tooLong = outEnd - chunkStart < CHUNK ? Failure.TOO_LONG : Failure.CHUNK_TOO_LONG;
        int out = chunkStart;
        // Flag bits beyond the end of the chunk are unused ([MS-XCA] 2.5.3): the chunk size rules.
        while (in < chunkEnd) {
            int flags = src[in++] & 0xFF;
            for (int bit = 0; bit < 8 && in < chunkEnd; bit++, flags >>>= 1) {
                if ((flags & 1) == 0) {
                    if (out >= chunkLimit) {
                        return fail(tooLong, in - srcFrom);
                    }
                    dst[out++] = src[in++];
                    continue;
                }
                if (in + 2 > chunkEnd) {
                    return fail(Failure.TRUNCATED_WORD, in - srcFrom);
                }
                int word = (src[in] & 0xFF) | (src[in + 1] & 0xFF) << 8;
                int produced = out - chunkStart;
                int lengthBits = 16 - displacementBits(produced);
                int displacement = (word >>> lengthBits) + 1;
                int length = (word & ((1 << lengthBits) - 1)) + 3;
                if (displacement > produced) {
                    return fail(Failure.MATCH_BEFORE_CHUNK, in - srcFrom);
                }
                if (length > chunkLimit - out) {
                    return fail(tooLong, in - srcFrom);
                }
                in += 2;
                out = Overlap.copyMatch(dst, out, displacement, length);
            }
        }
        return out;
    }

    /**
     * Bits of displacement in a compressed word written when the chunk has produced {@code u} bytes: the
     * largest M in 4..12 with 2^(M-1) &lt; U, or 4 when there is none ([MS-XCA] 2.5.1.4 and the 3.3 example).
     */
    static int displacementBits(int u) {
        if (u <= 16) {
            return 4;
        }
        // 2^(M-1) < u  <=>  M - 1 <= floor(log2(u - 1)); u <= 4096 in a well-formed chunk, so M <= 12.
        return Math.min(12, 32 - Integer.numberOfLeadingZeros(u - 1));
    }

    // A failure is one negative int (the reason's ordinal and the input offset) so that decoding, which
    // callers may try on data that is not LZNT1 at all, allocates nothing even when it fails.
    private static int fail(Failure reason, int inputOffset) {
        return -1 - (Math.min(inputOffset, MAX_REPORTED_OFFSET) << REASON_BITS | reason.ordinal());
    }

    /** The reason a negative {@link #decode} result stands for. */
    static Failure failureReason(int result) {
        return Failure.ALL[(-1 - result) & ((1 << REASON_BITS) - 1)];
    }

    /** Where in the input (bytes from {@code srcFrom}) a negative {@link #decode} result was found. */
    static int failureOffset(int result) {
        return (-1 - result) >>> REASON_BITS;
    }

    /** A sentence describing a negative {@link #decode} result. */
    static String failure(int result) {
        return failureReason(result).description + " (at byte " + failureOffset(result) + " of the compressed data)";
    }
}
