package org.etw4j.consumer.etl;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Little-endian absolute reads from buffers already set to {@link java.nio.ByteOrder#LITTLE_ENDIAN}.
 *
 * <p>Stateless; thread-safe. Kept tiny and static so the JIT inlines them on the record hot path.
 */
final class Le {
    private Le() {
    }

    static int u8(ByteBuffer b, int i) {
        return b.get(i) & 0xFF;
    }

    static int u16(ByteBuffer b, int i) {
        return b.getShort(i) & 0xFFFF;
    }

    static long u32(ByteBuffer b, int i) {
        return b.getInt(i) & 0xFFFF_FFFFL;
    }

    /** Canonical-order high half of a GUID stored in Windows layout (Data1..Data3 little-endian). */
    static long guidMsb(ByteBuffer b, int i) {
        return (u32(b, i) << 32) | ((long) u16(b, i + 4) << 16) | u16(b, i + 6);
    }

    /** Canonical-order low half of a GUID stored in Windows layout (Data4, big-endian bytes). */
    static long guidLsb(ByteBuffer b, int i) {
        return Long.reverseBytes(b.getLong(i + 8));
    }

    /**
     * A NUL-terminated UTF-16LE string starting at {@code from}, read no further than {@code limit}
     * (exclusive); without a terminator the string runs to the limit.
     */
    static String utf16z(ByteBuffer b, int from, int limit) {
        int end = from;
        while (end + 1 < limit && (b.get(end) != 0 || b.get(end + 1) != 0)) {
            end += 2;
        }
        return string(b, from, Math.max(0, end - from), true);
    }

    /** A NUL-terminated UTF-8 string, read no further than {@code limit}; null when no terminator is found. */
    static String utf8z(ByteBuffer b, int from, int limit) {
        int end = from;
        while (end < limit && b.get(end) != 0) {
            end++;
        }
        return end < limit ? string(b, from, end - from, false) : null;
    }

    private static String string(ByteBuffer b, int from, int length, boolean utf16) {
        byte[] bytes = new byte[length];
        b.get(from, bytes);
        return new String(bytes, utf16 ? StandardCharsets.UTF_16LE : StandardCharsets.UTF_8);
    }
}
