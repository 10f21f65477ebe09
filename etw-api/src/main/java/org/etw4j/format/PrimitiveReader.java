package org.etw4j.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Reads the primitive wire forms that TraceLogging payloads and manifest (TDH) payloads share: little-endian
 * integers and IEEE floats, FILETIME, SYSTEMTIME, SID, NUL-terminated and counted 8-bit and UTF-16 text. The
 * TraceLogging in-types 1-15, 17-23 and 25 are TDH's in-types with the same numbers and the same bytes
 * ({@code ../shared/docs/etw-formats.md} sections 1.4 and 4.2), so both payload decoders read them here and keep
 * only their own vocabulary (which types exist, how values are boxed, how errors are reported).
 *
 * <p>Stateless; static; thread-safe. Every method reads at an absolute index and leaves the buffer's position
 * alone; multi-byte values are little-endian whatever the buffer's byte order. Bounds are the caller's: reading
 * past the limit throws {@link IndexOutOfBoundsException}.
 */
public final class PrimitiveReader {

    /**
     * The code page of 8-bit strings without a UTF-8 out type: windows-1252 (what TraceLogging and TDH decoders
     * assume, and the usual ANSI code page of the machines that log them), ISO-8859-1 where the JDK lacks it.
     */
    public static final Charset ANSI = Charset.isSupported("windows-1252") ? Charset.forName("windows-1252")
            : StandardCharsets.ISO_8859_1;

    /** Seconds from 1601-01-01 (FILETIME epoch) to 1970-01-01 (Unix epoch). */
    private static final long FILETIME_EPOCH_OFFSET_SECONDS = 11_644_473_600L;
    private static final long TICKS_PER_SECOND = 10_000_000L;

    private PrimitiveReader() {
    }

    /** The unsigned byte at {@code at}. */
    public static int u8(ByteBuffer b, int at) {
        return b.get(at) & 0xFF;
    }

    /** The signed 16-bit integer at {@code at}. */
    public static short i16(ByteBuffer b, int at) {
        short v = b.getShort(at);
        return b.order() == ByteOrder.LITTLE_ENDIAN ? v : Short.reverseBytes(v);
    }

    /** The unsigned 16-bit integer at {@code at}. */
    public static int u16(ByteBuffer b, int at) {
        return i16(b, at) & 0xFFFF;
    }

    /** The signed 32-bit integer at {@code at}. */
    public static int i32(ByteBuffer b, int at) {
        int v = b.getInt(at);
        return b.order() == ByteOrder.LITTLE_ENDIAN ? v : Integer.reverseBytes(v);
    }

    /** The unsigned 32-bit integer at {@code at}, zero-extended. */
    public static long u32(ByteBuffer b, int at) {
        return i32(b, at) & 0xFFFF_FFFFL;
    }

    /** The 64-bit integer at {@code at} (signed; unsigned readers use {@link Long#toUnsignedString(long)}). */
    public static long i64(ByteBuffer b, int at) {
        long v = b.getLong(at);
        return b.order() == ByteOrder.LITTLE_ENDIAN ? v : Long.reverseBytes(v);
    }

    /** The IEEE single at {@code at}. */
    public static float f32(ByteBuffer b, int at) {
        return Float.intBitsToFloat(i32(b, at));
    }

    /** The IEEE double at {@code at}. */
    public static double f64(ByteBuffer b, int at) {
        return Double.longBitsToDouble(i64(b, at));
    }

    /**
     * A pointer-sized unsigned integer: 8 bytes when {@code pointerSize} is 8, else 4 bytes zero-extended (the
     * size comes from the logging process, not from the data).
     */
    public static long pointer(ByteBuffer b, int at, int pointerSize) {
        return pointerSize == 8 ? i64(b, at) : u32(b, at);
    }

    /**
     * A FILETIME (100 ns ticks since 1601-01-01 UTC) as an instant; exact for every {@code long}, negative values
     * included (the epoch shift is applied to seconds, so it cannot overflow).
     */
    public static Instant fileTime(long ticks) {
        return Instant.ofEpochSecond(Math.floorDiv(ticks, TICKS_PER_SECOND) - FILETIME_EPOCH_OFFSET_SECONDS,
                Math.floorMod(ticks, TICKS_PER_SECOND) * 100);
    }

    /**
     * The 16-byte SYSTEMTIME at {@code at} (u16 year, month, day of week, day, hour, minute, second,
     * milliseconds) as a UTC instant, or null when the fields do not form a valid date (all zero, for example).
     * The day of week is redundant and ignored, as Windows' {@code SystemTimeToFileTime} does.
     */
    public static Instant systemTime(ByteBuffer b, int at) {
        try {
            return LocalDateTime.of(u16(b, at), u16(b, at + 2), u16(b, at + 6), u16(b, at + 8), u16(b, at + 10),
                    u16(b, at + 12), u16(b, at + 14) * 1_000_000).toInstant(ZoneOffset.UTC);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /**
     * The size of the SID at {@code at}, {@code 8 + 4 x SubAuthorityCount}, from its first two bytes (revision,
     * sub-authority count); the caller checks that those two bytes, then the size, are available.
     */
    public static int sidLength(ByteBuffer b, int at) {
        return 8 + 4 * u8(b, at + 1);
    }

    /**
     * The SID at {@code at} in string form, {@code S-R-I-S-S...}: revision (u8), identifier authority (48-bit
     * big-endian; in decimal below 2^32, else as {@code 0x} and 12 upper-case hex digits, as
     * {@code ConvertSidToStringSid} prints it), then each sub-authority (u32 little-endian). The caller has
     * checked that {@link #sidLength} bytes are available.
     */
    public static String sid(ByteBuffer b, int at) {
        int subCount = u8(b, at + 1);
        long authority = 0;
        for (int i = 2; i < 8; i++) {
            authority = (authority << 8) | u8(b, at + i);
        }
        StringBuilder sb = new StringBuilder(16 + 11 * subCount).append("S-").append(u8(b, at)).append('-');
        if (authority >= 1L << 32) {
            sb.append(String.format("0x%012X", authority));
        } else {
            sb.append(authority);
        }
        for (int i = 0; i < subCount; i++) {
            sb.append('-').append(u32(b, at + 8 + 4 * i));
        }
        return sb.toString();
    }

    /**
     * The index of the first NUL unit at or after {@code from}, stepping by {@code unitSize} bytes (1 for 8-bit
     * text, 2 for UTF-16), considering only whole units before {@code limit}; -1 when there is none.
     */
    public static int nulIndex(ByteBuffer b, int from, int limit, int unitSize) {
        for (int at = from; at + unitSize <= limit; at += unitSize) {
            if (unitSize == 2 ? b.getShort(at) == 0 : b.get(at) == 0) {
                return at;
            }
        }
        return -1;
    }

    /** {@code byteCount} bytes at {@code at} decoded with {@code charset}. */
    public static String string(ByteBuffer b, int at, int byteCount, Charset charset) {
        return new String(bytes(b, at, byteCount), charset);
    }

    /** A copy of {@code length} bytes at {@code at}. */
    public static byte[] bytes(ByteBuffer b, int at, int length) {
        byte[] out = new byte[length];
        b.get(at, out);
        return out;
    }
}
