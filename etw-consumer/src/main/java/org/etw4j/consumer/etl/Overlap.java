package org.etw4j.consumer.etl;

/**
 * The copy of an LZ77 match, shared by {@link PlainLz77} and {@link Lznt1}.
 *
 * <p>Stateless; thread-safe; allocates nothing.
 */
final class Overlap {
    private Overlap() {
    }

    /**
     * Appends {@code length} bytes at {@code dst[out]} that repeat the bytes from {@code offset} back, as an LZ77
     * match does ([MS-XCA] 2.4.4 and 2.5.3: each byte is the one {@code offset} before it), and returns the position
     * after them. The caller has checked that both ranges are inside {@code dst}.
     *
     * <p>A match longer than its offset overlaps what it writes: the output is the last {@code offset} bytes repeated.
     * Instead of copying byte by byte (a one-byte-offset match of 64 MiB would then cost 64 M iterations), the
     * repeated run is doubled with bulk copies: after each copy the bytes from {@code out - offset} form a longer
     * whole number of periods, so about log2(length / offset) copies do it.
     */
    static int copyMatch(byte[] dst, int out, int offset, int length) {
        int from = out - offset;
        int end = out + length;
        int pos = out;
        while (pos < end) {
            int chunk = Math.min(pos - from, end - pos);
            System.arraycopy(dst, from, dst, pos, chunk);
            pos += chunk;
        }
        return end;
    }
}
