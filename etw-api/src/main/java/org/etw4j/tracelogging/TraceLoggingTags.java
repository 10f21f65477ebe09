package org.etw4j.tracelogging;

/**
 * Encoding of TraceLogging event and field tags: 28 user-defined bits stored 7 per byte, high bits first, each
 * byte but the last with its continuation bit 0x80 set.
 *
 * <p>Stateless utility; thread-safe. Source: the SDK's
 * TraceLoggingProvider.h text, TraceLoggingDynamic.h {@code AddTags}, go-winio {@code writeTags}, EventSource
 * {@code EncodeTags}). Encoders differ in how many bytes they use for the same value (the SDK macros always
 * write at least two bytes for events, the Python encoder four), so decoders read the value from the first
 * four bytes and ignore the rest; {@link #decode} does the same.
 */
public final class TraceLoggingTags {
    /** Largest tag value (28 bits). */
    public static final int MAX = 0x0FFF_FFFF;

    private TraceLoggingTags() {
    }

    /**
     * Checks that {@code tags} fits 28 bits.
     *
     * @throws IllegalArgumentException naming {@code what} otherwise (tags are never silently masked)
     */
    public static int check(String what, int tags) {
        if ((tags & ~MAX) != 0) {
            throw new IllegalArgumentException(what + " tags must be 0-0x0FFFFFFF (28 bits), got 0x"
                    + Integer.toHexString(tags));
        }
        return tags;
    }

    /** Bytes {@link #encode} writes for {@code tags}: 1 for 0, otherwise 1-4. */
    public static int encodedLength(int tags) {
        int t = tags & MAX;
        int n = 1;
        while ((t & 0x1F_FFFF) != 0) {
            t <<= 7;
            n++;
        }
        return n;
    }

    /**
     * Writes the shortest form (the one TraceLoggingDynamic.h, go-winio and EventSource write) at
     * {@code dst[off]}; returns the offset after it. Tags 0 become the single byte {@code 00}.
     */
    public static int encode(int tags, byte[] dst, int off) {
        int t = tags & MAX;
        while (true) {
            int b = (t >>> 21) & 0x7F;
            if ((t & 0x1F_FFFF) == 0) {
                dst[off++] = (byte) b;
                return off;
            }
            dst[off++] = (byte) (b | 0x80);
            t <<= 7;
        }
    }

    /**
     * Writes the form the SDK's TraceLoggingProvider.h macros use for event tags: at least two bytes, so no tags
     * is {@code 80 00} (the real lxcore "BreakPoint" event, etw-formats.md 1.9(b)). A one-byte shortest form
     * {@code b} becomes {@code b|0x80, 00}, which decodes to the same value.
     */
    public static int encodeAtLeastTwoBytes(int tags, byte[] dst, int off) {
        if (encodedLength(tags) >= 2) {
            return encode(tags, dst, off);
        }
        dst[off] = (byte) (((tags & MAX) >>> 21) | 0x80);
        dst[off + 1] = 0;
        return off + 2;
    }

    /**
     * Number of tag bytes at {@code src[off]}: up to and including the first byte without the 0x80 bit.
     *
     * @return the length, or -1 when no terminating byte occurs before {@code limit}
     */
    public static int length(byte[] src, int off, int limit) {
        for (int i = off; i < limit; i++) {
            if ((src[i] & 0x80) == 0) {
                return i - off + 1;
            }
        }
        return -1;
    }

    /**
     * The tag value encoded at {@code src[off]}: the low 7 bits of the first (up to) four bytes, high bits first;
     * bytes after the fourth are ignored, as the SDK specifies.
     */
    public static int decode(byte[] src, int off, int limit) {
        int value = 0;
        for (int i = 0; i < 4 && off + i < limit; i++) {
            int b = src[off + i];
            value |= (b & 0x7F) << (21 - 7 * i);
            if ((b & 0x80) == 0) {
                break;
            }
        }
        return value;
    }
}
