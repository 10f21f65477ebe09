package org.etw4j.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * (TraceLoggingDynamic.h {@code enum InType}; tdh.h {@code _TDH_IN_TYPE}), so both payload decoders read them here and keep
 * only their own vocabulary (which types exist, how values are boxed, how errors are reported).
 *
 * <p>Static; thread-safe; its only state is a per-thread scratch array for UTF-16 text, never visible to callers.
 * Every method reads at an absolute index and leaves the buffer's position
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
     *
     * <p>Scans eight bytes per read (a zero-lane test on a {@code long}: {@code (x - 0x01..) & ~x & 0x80..} has
     * its lowest set bit in the lowest zero lane, which is the first NUL in little-endian order); long strings are
     * the main cost of decoding payloads such as AMSI's script buffers. Fastest on heap buffers (read in place).
     */
    public static int nulIndex(ByteBuffer b, int from, int limit, int unitSize) {
        if (b.hasArray()) {
            if (limit > b.limit()) {
                throw new IndexOutOfBoundsException("limit " + limit + " beyond the buffer's " + b.limit());
            }
            int off = b.arrayOffset();
            int at = nulIndex(b.array(), off + from, off + limit, unitSize);
            return at < 0 ? -1 : at - off;
        }
        boolean swap = b.order() != ByteOrder.LITTLE_ENDIAN;
        int at = from;
        if (unitSize == 2) {
            for (; at + 8 <= limit; at += 8) {
                long w = b.getLong(at);
                long z = zeroUnits(swap ? Long.reverseBytes(w) : w);
                if (z != 0) {
                    return at + (Long.numberOfTrailingZeros(z) >>> 4) * 2;
                }
            }
            for (; at + 2 <= limit; at += 2) {
                if (b.getShort(at) == 0) {
                    return at;
                }
            }
            return -1;
        }
        for (; at + 8 <= limit; at += 8) {
            long w = b.getLong(at);
            long z = zeroBytes(swap ? Long.reverseBytes(w) : w);
            if (z != 0) {
                return at + (Long.numberOfTrailingZeros(z) >>> 3);
            }
        }
        for (; at < limit; at++) {
            if (b.get(at) == 0) {
                return at;
            }
        }
        return -1;
    }

    /** {@link #nulIndex(ByteBuffer, int, int, int)} over an array; indexes are array indexes. */
    private static int nulIndex(byte[] a, int from, int limit, int unitSize) {
        int at = from;
        if (unitSize == 2) {
            for (; at + 16 <= limit; at += 16) { // two words per round: one branch per 16 bytes
                if ((zeroUnits((long) LONG_LE.get(a, at)) | zeroUnits((long) LONG_LE.get(a, at + 8))) != 0) {
                    break;
                }
            }
            for (; at + 8 <= limit; at += 8) {
                long z = zeroUnits((long) LONG_LE.get(a, at));
                if (z != 0) {
                    return at + (Long.numberOfTrailingZeros(z) >>> 4) * 2;
                }
            }
            for (; at + 2 <= limit; at += 2) {
                if (a[at] == 0 && a[at + 1] == 0) {
                    return at;
                }
            }
            return -1;
        }
        for (; at + 16 <= limit; at += 16) {
            if ((zeroBytes((long) LONG_LE.get(a, at)) | zeroBytes((long) LONG_LE.get(a, at + 8))) != 0) {
                break;
            }
        }
        for (; at + 8 <= limit; at += 8) {
            long z = zeroBytes((long) LONG_LE.get(a, at));
            if (z != 0) {
                return at + (Long.numberOfTrailingZeros(z) >>> 3);
            }
        }
        for (; at < limit; at++) {
            if (a[at] == 0) {
                return at;
            }
        }
        return -1;
    }

    /** The high bit of each zero 16-bit lane of a little-endian word (exact for the lowest zero lane). */
    private static long zeroUnits(long w) {
        return (w - 0x0001_0001_0001_0001L) & ~w & 0x8000_8000_8000_8000L;
    }

    /** The high bit of each zero byte of a little-endian word (exact for the lowest zero byte). */
    private static long zeroBytes(long w) {
        return (w - 0x0101_0101_0101_0101L) & ~w & 0x8080_8080_8080_8080L;
    }

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    /**
     * {@code byteCount} bytes at {@code at} decoded with {@code charset}. UTF-16LE and {@link #ANSI} text take a
     * fast path that gives the same characters as the charset's decoder (the JDK's generic path allocates a
     * decoder per string): UTF-16 without surrogates is built from its units (text with surrogates goes through
     * the decoder, which replaces unpaired ones); windows-1252 bytes outside 0x80-0x9F are their own Latin-1
     * code points.
     * Heap buffers are read in place, others copied out first.
     */
    public static String string(ByteBuffer b, int at, int byteCount, Charset charset) {
        byte[] a;
        int off;
        if (b.hasArray()) {
            a = b.array();
            off = b.arrayOffset() + at;
            java.util.Objects.checkFromIndexSize(at, byteCount, b.limit());
        } else {
            a = bytes(b, at, byteCount);
            off = 0;
        }
        if (charset == StandardCharsets.UTF_16LE && (byteCount & 1) == 0) {
            return utf16le(a, off, byteCount >>> 1);
        }
        if (charset == ANSI) {
            return ansi(a, off, byteCount);
        }
        return new String(a, off, byteCount, charset);
    }

    /**
     * Per-thread scratch for {@link #utf16le}: the units only pass through it on their way into the String, and
     * allocating (and zeroing) a fresh array per string cost measurably on long strings (AMSI script buffers).
     * Strings longer than {@link #SCRATCH_CHARS} get their own array, so the scratch stays small.
     */
    private static final ThreadLocal<char[]> SCRATCH = ThreadLocal.withInitial(() -> new char[256]);
    private static final int SCRATCH_CHARS = 1 << 15;

    private static String utf16le(byte[] a, int off, int n) {
        // Units are copied into a char[] by one bulk copy, and String's constructor narrows them to Latin-1 when
        // it can: both vectorized by the JDK, faster than any unit-by-unit loop. Surrogates need the decoder's
        // replacement rule; an OR over the units, sixteen bytes per round, rules them out for nearly all text.
        char[] chars;
        if (n > SCRATCH_CHARS) {
            chars = new char[n];
        } else {
            chars = SCRATCH.get();
            if (chars.length < n) {
                chars = new char[Math.max(n, Math.min(SCRATCH_CHARS, 2 * chars.length))];
                SCRATCH.set(chars);
            }
        }
        if (n <= 32) { // short: a loop beats creating the two buffers of the bulk copy
            for (int k = 0; k < n; k++) {
                chars[k] = (char) ((a[off + 2 * k] & 0xFF) | (a[off + 2 * k + 1] & 0xFF) << 8);
            }
        } else {
            ByteBuffer.wrap(a, off, 2 * n).order(ByteOrder.LITTLE_ENDIAN).asCharBuffer().get(chars, 0, n);
        }
        // OR of all units, four lanes at a time (lane k holds the OR of units k, k+4, ...)
        long all = 0;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            all |= (long) LONG_LE.get(a, off + 2 * i) | (long) LONG_LE.get(a, off + 2 * i + 8);
        }
        for (; i < n; i++) {
            all |= chars[i];
        }
        all |= (all >>> 32);
        all |= (all >>> 16);
        if ((all & 0xD800) == 0xD800) { // some unit may be a surrogate (0xD800-0xDFFF): look
            for (i = 0; i < n; i++) {
                if (Character.isSurrogate(chars[i])) {
                    return new String(a, off, 2 * n, StandardCharsets.UTF_16LE);
                }
            }
        }
        return new String(chars, 0, n);
    }

    private static String ansi(byte[] a, int off, int len) {
        if (ANSI != StandardCharsets.ISO_8859_1) {
            for (int i = off; i < off + len; i++) {
                if ((a[i] & 0xE0) == 0x80) { // 0x80-0x9F: where windows-1252 differs from Latin-1
                    return new String(a, off, len, ANSI);
                }
            }
        }
        return new String(a, off, len, StandardCharsets.ISO_8859_1);
    }

    /** A copy of {@code length} bytes at {@code at}. */
    public static byte[] bytes(ByteBuffer b, int at, int length) {
        byte[] out = new byte[length];
        b.get(at, out);
        return out;
    }
}
