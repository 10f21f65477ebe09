package org.etw4j.consumer.etl;

/**
 * The compression formats a compressed .etl buffer ({@code BufferFlag & 0x40}) may be stored in, and the
 * per-buffer choice between them.
 *
 * <p>Enum constants: immutable and thread-safe; the static methods are stateless and allocate nothing
 * except {@link #whyNotDecodable}, which is for the failure path.
 *
 * <p>Which algorithm ETW uses is not settled ({@code ../shared/docs/etw-formats.md} section 3.2 and open
 * question 1): the corpus' compressed files are Plain LZ77 (as dissect.etl reads them), while a 2017 blog
 * reports xperf using LZNT1, of which no .etl sample has been available. The rule, per buffer: when the
 * compressed data starts with a u16 whose bits 12-14 are 3 (an LZNT1 chunk signature) <em>and</em> decodes
 * as LZNT1 to exactly the buffer's SavedOffset minus its header, it is LZNT1; otherwise it is Plain LZ77.
 * The exact-size condition guards against the signature's false positives: a Plain LZ77 stream starts with
 * a 32-bit flag word whose low u16 has those bits by chance (1 time in 8 for random bits; rarer in practice:
 * none of the corpus' 360 compressed buffers, a few per thousand test-encoder streams), while data that is not
 * LZNT1 practically never decodes as LZNT1 to an exact size: every chunk header would need the signature,
 * every match would have to stay inside its chunk and the chunk sizes would have to add up to the exact
 * total. So the corpus exercises only the Plain LZ77 branch, and reads as before. That the LZNT1 data
 * covers exactly the buffer's records, {@code [0x48, SavedOffset)}, is an assumption carried over from the
 * Plain LZ77 files, where the compressed stream covers exactly that; so is the buffer layout (the 0x48-byte
 * header, then the compressed bytes, BufferSize = stored size).
 */
enum BufferCompression {
    /** [MS-XCA] section 2.3/2.4 Plain LZ77 ("LZXPRESS"): the corpus' compressed files. */
    PLAIN_LZ77,
    /** [MS-XCA] section 2.5 LZNT1: reported for xperf, unverified on a real .etl file. */
    LZNT1;

    /**
     * Decompresses {@code src[from, to)} into {@code dst[dstFrom, dstFrom + wanted)} with the format the
     * rule above picks.
     *
     * @return the format that produced exactly {@code wanted} bytes, or null when neither did (then
     *     {@code dst}'s contents are undefined and {@link #whyNotDecodable} says why)
     */
    static BufferCompression inflate(byte[] src, int from, int to, byte[] dst, int dstFrom, int wanted) {
        if (startsLikeLznt1(src, from, to) && Lznt1.decode(src, from, to, dst, dstFrom, wanted) == wanted) {
            return LZNT1;
        }
        if (PlainLz77.decode(src, from, to, dst, dstFrom, wanted) == wanted) {
            return PLAIN_LZ77;
        }
        return null;
    }

    /** Whether the data starts with a u16 carrying the LZNT1 chunk signature (3 in bits 12-14). */
    static boolean startsLikeLznt1(byte[] src, int from, int to) {
        return to - from >= 2 && (src[from + 1] & 0x70) == 0x30;
    }

    /**
     * Why {@link #inflate} returned null for this data, naming both attempts (decodes again, so call it
     * only after a failure).
     */
    static String whyNotDecodable(byte[] src, int from, int to, byte[] dst, int dstFrom, int wanted) {
        int plain = PlainLz77.decode(src, from, to, dst, dstFrom, wanted);
        String why = plain < 0 ? "malformed Plain LZ77 data"
                : "Plain LZ77 data ends after " + plain + " of " + wanted + " bytes";
        if (!startsLikeLznt1(src, from, to)) {
            return why + " (and it does not start like LZNT1)";
        }
        int lznt1 = Lznt1.decode(src, from, to, dst, dstFrom, wanted);
        return why + "; it starts like LZNT1, but as LZNT1 " + (lznt1 < 0 ? Lznt1.failure(lznt1)
                : "it ends after " + lznt1 + " of " + wanted + " bytes")
                + " (no LZNT1 .etl sample has been available to verify this reader against)";
    }
}
