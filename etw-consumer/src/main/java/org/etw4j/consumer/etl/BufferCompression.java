package org.etw4j.consumer.etl;

/**
 * The compression formats a compressed .etl buffer ({@code BufferFlag & 0x40}) may be stored in, and the
 * per-buffer choice between them.
 *
 * <p>Enum constants: immutable and thread-safe; the static methods are stateless and allocate nothing
 * except {@link #whyNotDecodable}, which is for the failure path.
 *
 * <p>Which algorithm ETW uses is not settled (no public document says; dissect.etl
 * and the blog below disagree): the corpus' compressed files are Plain LZ77 (as dissect.etl reads them), while a 2017 blog
 * reports xperf using LZNT1, of which no .etl sample has been available. The rule, per buffer: when the
 * compressed data starts with a u16 whose bits 12-14 are 3 (an LZNT1 chunk signature) <em>and</em> decodes
 * as LZNT1 to at least the buffer's data end minus its header (the larger of SavedOffset and Offset), it is
 * LZNT1; otherwise it is Plain LZ77. The size condition guards against the signature's false positives: a
 * Plain LZ77 stream starts with a 32-bit flag word whose low u16 has those bits by chance (1 time in 8 for
 * random bits; rarer in practice: none of the corpus' 360 compressed buffers, a few per thousand test-encoder
 * streams), while data that is not LZNT1 practically never decodes as LZNT1 that far: every chunk header would
 * need the signature, every match would have to stay inside its chunk and every chunk but the last would have
 * to decode to exactly 4096 bytes. So the corpus exercises only the Plain LZ77 branch.
 *
 * <p>Either way the stream is decoded up to the header's data end and on to the next 4 KiB boundary (a whole LZNT1
 * chunk), within the cursor's bounds on memory, ratio and work ({@link InflateMemory}); bytes decoded past the data
 * end must be padding, and the buffer walk reports any that are not. (Until issue 22 the whole stream was decoded up
 * to the logical buffer size, as dissect.etl does ({@code etl.py Buffer.data} decompresses all the stored bytes);
 * that let an 87-byte buffer cost 64 MiB of work.) That the compressed stream covers the buffer's records,
 * {@code [0x48, data end)}, is what the corpus' Plain LZ77 files show; for LZNT1 it is an assumption carried over
 * from them, as is the buffer layout (the 0x48-byte header, then the compressed bytes, BufferSize = stored size).
 */
enum BufferCompression {
    /** [MS-XCA] section 2.3/2.4 Plain LZ77 ("LZXPRESS"): the corpus' compressed files. */
    PLAIN_LZ77,
    /** [MS-XCA] section 2.5 LZNT1: reported for xperf, unverified on a real .etl file. */
    LZNT1;

    /**
     * Decompresses {@code src[from, to)} into {@code dst[dstFrom, dstFrom + capacity)} with the format the rule
     * above picks.
     *
     * @param expected the bytes the buffer header announces (data end minus header), for the LZNT1 rule
     * @return the answer packed in a long (no allocation per buffer): read it with {@link #format} (null when
     *     neither format decodes; {@code dst}'s contents are then undefined and {@link #whyNotDecodable} says
     *     why) and {@link #produced}
     */
    static long inflate(byte[] src, int from, int to, byte[] dst, int dstFrom, int capacity, int expected) {
        if (startsLikeLznt1(src, from, to)) {
            int n = Lznt1.decode(src, from, to, dst, dstFrom, capacity);
            if (n >= expected) {
                return pack(LZNT1, n);
            }
        }
        int n = PlainLz77.decode(src, from, to, dst, dstFrom, capacity);
        return n >= 0 ? pack(PLAIN_LZ77, n) : pack(null, 0);
    }

    private static final BufferCompression[] ALL = values();

    private static long pack(BufferCompression format, int produced) {
        return (long) (format == null ? 0 : format.ordinal() + 1) << 32 | produced;
    }

    /** The format of an {@link #inflate} answer, or null when the data decoded as neither. */
    static BufferCompression format(long answer) {
        int f = (int) (answer >>> 32);
        return f == 0 ? null : ALL[f - 1];
    }

    /** The bytes an {@link #inflate} answer produced. */
    static int produced(long answer) {
        return (int) answer;
    }

    /** Whether the data starts with a u16 carrying the LZNT1 chunk signature (3 in bits 12-14). */
    static boolean startsLikeLznt1(byte[] src, int from, int to) {
        return to - from >= 2 && (src[from + 1] & 0x70) == 0x30;
    }

    /**
     * Why {@link #inflate} decoded neither format (decodes again, so call it only after a failure).
     */
    static String whyNotDecodable(byte[] src, int from, int to, byte[] dst, int dstFrom, int capacity, int expected) {
        String why = "malformed Plain LZ77 data";
        if (!startsLikeLznt1(src, from, to)) {
            return why + " (and it does not start like LZNT1)";
        }
        int lznt1 = Lznt1.decode(src, from, to, dst, dstFrom, capacity);
        return why + "; it starts like LZNT1, but as LZNT1 " + (lznt1 < 0 ? Lznt1.failure(lznt1)
                : "it ends after " + lznt1 + " of " + expected + " bytes")
                + " (no LZNT1 .etl sample has been available to verify this reader against)";
    }
}
