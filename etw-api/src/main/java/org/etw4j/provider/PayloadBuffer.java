package org.etw4j.provider;

import java.nio.charset.Charset;
import java.time.Instant;
import java.util.Arrays;
import org.etw4j.Guid;

/**
 * A growable, append-only, little-endian byte buffer that event payloads (TraceLogging and manifest events)
 * are encoded into before they are handed to ETW.
 *
 * <p><b>Not thread-safe</b>: keep one per thread (for example in a {@code ThreadLocal}) and {@link #reset()}
 * it before each event. Reusable without limit; nothing to close. Once the backing array has grown to the
 * largest event a thread writes, appending allocates nothing: no method creates strings, boxes values or
 * copies the array except when it has to grow. {@link #array()} returns the backing array itself (valid from
 * index 0 up to {@link #length()}); it is replaced when the buffer grows, so fetch it after the last append.
 *
 * <p>Every encoding follows the TraceLogging InTypes (TraceLoggingProvider.h "Encoding data",
 * TraceLoggingDynamic.h {@code enum InType}; tdh.h's manifest inTypes share the same wire formats): integers and floats little-endian without
 * alignment, GUIDs in Windows layout, NUL-terminated and u16-counted strings, u16 array counts. Values that do
 * not fit their wire field (a counted length above 65535, an unsigned value out of range, a malformed SID)
 * throw {@link IllegalArgumentException} naming what overflowed, and leave the buffer as it was before the
 * call.
 */
public final class PayloadBuffer {

    /** Largest value of a u16 count or length prefix. */
    public static final int MAX_U16 = 0xFFFF;

    /** Seconds from 1601-01-01 (FILETIME epoch) to 1970-01-01 (Unix epoch). */
    private static final long FILETIME_EPOCH_OFFSET_SECONDS = 11_644_473_600L;
    private static final long TICKS_PER_SECOND = 10_000_000L;
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

    /**
     * The characters windows-1252 maps to bytes 0x80-0x9F (index = byte - 0x80), or 0 where the code page
     * leaves the byte undefined; filled once from the JDK's windows-1252 charset so the table is not typed in.
     */
    private static final char[] CP1252_HIGH = cp1252HighTable();

    private byte[] buf;
    private int len;

    /** A buffer with a 256-byte initial capacity. */
    public PayloadBuffer() {
        this(256);
    }

    /**
     * A buffer with the given initial capacity.
     *
     * @throws IllegalArgumentException if {@code initialCapacity} is negative
     */
    public PayloadBuffer(int initialCapacity) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("initialCapacity must be >= 0, got " + initialCapacity);
        }
        this.buf = new byte[initialCapacity];
    }

    // ------------------------------------------------------------------------------------------------ state

    /** Empties the buffer, keeping its capacity. */
    public PayloadBuffer reset() {
        len = 0;
        return this;
    }

    /** Number of bytes written so far (also the index the next append writes at). */
    public int length() {
        return len;
    }

    /** Current capacity of the backing array. */
    public int capacity() {
        return buf.length;
    }

    /**
     * The backing array, valid from 0 up to {@link #length()}. Not a copy: do not keep it across appends (the
     * buffer may grow into a new array) nor across {@link #reset()}.
     */
    public byte[] array() {
        return buf;
    }

    /** A copy of the written bytes (allocates; for tests and slow paths). */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    /**
     * Drops everything after the first {@code newLength} bytes; used to roll back a partly written value.
     *
     * @throws IllegalArgumentException if {@code newLength} is negative or beyond {@link #length()}
     */
    public PayloadBuffer truncate(int newLength) {
        if (newLength < 0 || newLength > len) {
            throw new IllegalArgumentException("truncate length must be 0.." + len + ", got " + newLength);
        }
        len = newLength;
        return this;
    }

    /** Makes room for {@code extra} more bytes, growing the backing array (by doubling) only when needed. */
    public PayloadBuffer ensureRemaining(int extra) {
        if (extra < 0) {
            throw new IllegalArgumentException("extra must be >= 0, got " + extra);
        }
        if (extra > buf.length - len) {
            grow(extra);
        }
        return this;
    }

    private void grow(int extra) {
        long needed = (long) len + extra;
        if (needed > MAX_ARRAY) {
            throw new IllegalArgumentException("payload size " + needed + " exceeds the largest Java array");
        }
        long doubled = Math.max(16L, (long) buf.length * 2);
        buf = Arrays.copyOf(buf, (int) Math.min(MAX_ARRAY, Math.max(needed, doubled)));
    }

    // ----------------------------------------------------------------------------------------- integers

    /** TlgInINT8: one signed byte. */
    public PayloadBuffer putInt8(byte v) {
        ensureRemaining(1);
        buf[len++] = v;
        return this;
    }

    /**
     * TlgInUINT8: one unsigned byte.
     *
     * @throws IllegalArgumentException unless {@code 0 <= v <= 255}
     */
    public PayloadBuffer putUInt8(int v) {
        if ((v & ~0xFF) != 0) {
            throw new IllegalArgumentException("UINT8 value must be 0-255, got " + v);
        }
        ensureRemaining(1);
        buf[len++] = (byte) v;
        return this;
    }

    /** TlgInINT16: two bytes, little-endian. */
    public PayloadBuffer putInt16(short v) {
        ensureRemaining(2);
        putU16Unchecked(v);
        return this;
    }

    /**
     * TlgInUINT16: two bytes, little-endian.
     *
     * @throws IllegalArgumentException unless {@code 0 <= v <= 65535}
     */
    public PayloadBuffer putUInt16(int v) {
        if ((v & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("UINT16 value must be 0-65535, got " + v);
        }
        ensureRemaining(2);
        putU16Unchecked(v);
        return this;
    }

    /** TlgInINT32 (also HEXINT32, and UINT32 given as its 32-bit pattern): four bytes, little-endian. */
    public PayloadBuffer putInt32(int v) {
        ensureRemaining(4);
        putI32Unchecked(v);
        return this;
    }

    /**
     * TlgInUINT32: four bytes, little-endian. Callers holding the value as an {@code int} bit pattern use
     * {@link #putInt32(int)}, which writes the same bytes.
     *
     * @throws IllegalArgumentException unless {@code 0 <= v <= 0xFFFFFFFF}
     */
    public PayloadBuffer putUInt32(long v) {
        if ((v & ~0xFFFF_FFFFL) != 0) {
            throw new IllegalArgumentException("UINT32 value must be 0-4294967295, got " + v);
        }
        ensureRemaining(4);
        putI32Unchecked((int) v);
        return this;
    }

    /** TlgInINT64 (also HEXINT64): eight bytes, little-endian. */
    public PayloadBuffer putInt64(long v) {
        ensureRemaining(8);
        putI64Unchecked(v);
        return this;
    }

    /**
     * TlgInUINT64: eight bytes, little-endian. Java has no unsigned long: {@code v} is taken as a 64-bit
     * pattern (so {@code -1} writes 0xFFFFFFFFFFFFFFFF = 18446744073709551615).
     */
    public PayloadBuffer putUInt64(long v) {
        return putInt64(v);
    }

    /** TlgInFLOAT: IEEE 754 single, little-endian (NaN payloads kept as given by {@code floatToRawIntBits}). */
    public PayloadBuffer putFloat(float v) {
        return putInt32(Float.floatToRawIntBits(v));
    }

    /** TlgInDOUBLE: IEEE 754 double, little-endian. */
    public PayloadBuffer putDouble(double v) {
        return putInt64(Double.doubleToRawLongBits(v));
    }

    /** TlgInBOOL32 (manifest win:Boolean): a Win32 {@code BOOL}, four bytes, 1 for true and 0 for false. */
    public PayloadBuffer putBool32(boolean v) {
        return putInt32(v ? 1 : 0);
    }

    /**
     * A u16 element count that precedes a variable-length array (InMeta vcount).
     *
     * @throws IllegalArgumentException unless {@code 0 <= count <= 65535}
     */
    public PayloadBuffer putCount(int count) {
        if ((count & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("array element count must be 0-65535 (u16), got " + count);
        }
        ensureRemaining(2);
        putU16Unchecked(count);
        return this;
    }

    /**
     * Overwrites two bytes already written at {@code index} with a little-endian u16; lets a writer reserve a
     * count with {@code putCount(0)} and patch it once the elements are written.
     *
     * @throws IllegalArgumentException if the value or the index is out of range
     */
    public PayloadBuffer setUInt16(int index, int value) {
        if ((value & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("u16 value must be 0-65535, got " + value);
        }
        if (index < 0 || index > len - 2) {
            throw new IllegalArgumentException("u16 index must be 0.." + (len - 2) + ", got " + index);
        }
        buf[index] = (byte) value;
        buf[index + 1] = (byte) (value >>> 8);
        return this;
    }

    // ------------------------------------------------------------------------------------ fixed structs

    /** TlgInGUID: 16 bytes in Windows layout (Data1..Data3 little-endian, Data4 in order). */
    public PayloadBuffer putGuid(Guid guid) {
        if (guid == null) {
            throw new IllegalArgumentException("GUID value must not be null (write Guid.NULL for GUID_NULL)");
        }
        ensureRemaining(Guid.BYTES);
        len = guid.writeTo(buf, len);
        return this;
    }

    /** TlgInFILETIME: a raw FILETIME, i.e. 100-ns ticks since 1601-01-01 UTC, eight bytes little-endian. */
    public PayloadBuffer putFileTime(long ticksSince1601) {
        return putInt64(ticksSince1601);
    }

    /**
     * TlgInFILETIME from an instant; sub-100-ns precision is truncated toward the past.
     *
     * @throws IllegalArgumentException if the instant is before 1601-01-01 or past FILETIME's signed 64-bit
     *                                  range (year 30828)
     */
    public PayloadBuffer putFileTime(Instant instant) {
        return putInt64(fileTimeTicks(instant));
    }

    /**
     * Converts an instant to FILETIME ticks (100 ns since 1601-01-01 UTC).
     *
     * @throws IllegalArgumentException if the instant does not fit (before 1601 or after year 30828)
     */
    public static long fileTimeTicks(Instant instant) {
        if (instant == null) {
            throw new IllegalArgumentException("FILETIME instant must not be null");
        }
        long seconds = instant.getEpochSecond() + FILETIME_EPOCH_OFFSET_SECONDS;
        // floor: 1 ns past a tick boundary still belongs to that tick.
        long sub = instant.getNano() / 100;
        if (seconds < 0 || seconds > (Long.MAX_VALUE - sub) / TICKS_PER_SECOND) {
            throw new IllegalArgumentException("FILETIME instant must be between 1601-01-01 and year 30828, got "
                    + instant);
        }
        return seconds * TICKS_PER_SECOND + sub;
    }

    /**
     * TlgInSYSTEMTIME: eight little-endian u16 in the order Year, Month (1-12), DayOfWeek (0 = Sunday), Day,
     * Hour, Minute, Second, Milliseconds. Values are written as given (each must fit a u16); the caller owns
     * their consistency.
     *
     * @throws IllegalArgumentException if a value is outside 0..65535 (the message names it)
     */
    public PayloadBuffer putSystemTime(int year, int month, int dayOfWeek, int day, int hour, int minute,
                                       int second, int milliseconds) {
        checkU16Part("year", year);
        checkU16Part("month", month);
        checkU16Part("dayOfWeek", dayOfWeek);
        checkU16Part("day", day);
        checkU16Part("hour", hour);
        checkU16Part("minute", minute);
        checkU16Part("second", second);
        checkU16Part("milliseconds", milliseconds);
        ensureRemaining(16);
        putU16Unchecked(year);
        putU16Unchecked(month);
        putU16Unchecked(dayOfWeek);
        putU16Unchecked(day);
        putU16Unchecked(hour);
        putU16Unchecked(minute);
        putU16Unchecked(second);
        putU16Unchecked(milliseconds);
        return this;
    }

    /**
     * TlgInSYSTEMTIME for an instant, in UTC; sub-millisecond precision is truncated. The calendar fields are
     * computed by hand (proleptic Gregorian days-to-civil conversion) so nothing is allocated.
     *
     * @throws IllegalArgumentException if the instant is outside SYSTEMTIME's years 1601-30827
     */
    public PayloadBuffer putSystemTime(Instant instant) {
        if (instant == null) {
            throw new IllegalArgumentException("SYSTEMTIME instant must not be null");
        }
        long epochSecond = instant.getEpochSecond();
        long days = Math.floorDiv(epochSecond, 86_400L);
        int secOfDay = (int) Math.floorMod(epochSecond, 86_400L);
        // Days since 0000-03-01 shifted so that leap days fall at the end of a 4/100/400-year cycle.
        long z = days + 719_468L;
        long era = Math.floorDiv(z, 146_097L);
        long dayOfEra = z - era * 146_097L;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        if (year < 1601 || year > 30827) {
            throw new IllegalArgumentException("SYSTEMTIME instant must be in years 1601-30827, got " + instant);
        }
        int dayOfWeek = (int) Math.floorMod(days + 4, 7L); // 1970-01-01 was a Thursday; Sunday = 0
        return putSystemTime((int) year, month, dayOfWeek, day, secOfDay / 3600, secOfDay / 60 % 60,
                secOfDay % 60, instant.getNano() / 1_000_000);
    }

    /**
     * TlgInSID (manifest win:SID): the SID's bytes as they are, after checking their shape: revision byte,
     * sub-authority count {@code n} (at most 15), 6-byte authority and {@code n} 4-byte sub-authorities, so the
     * length must be exactly {@code 8 + 4n} (decoders size the field from byte 1).
     *
     * @throws IllegalArgumentException if the array is not a well-formed binary SID
     */
    public PayloadBuffer putSid(byte[] sid) {
        if (sid == null || sid.length < 8) {
            throw new IllegalArgumentException("SID must be at least 8 bytes, got "
                    + (sid == null ? "null" : sid.length + " bytes"));
        }
        int subAuthorities = sid[1] & 0xFF;
        if (subAuthorities > 15 || sid.length != 8 + 4 * subAuthorities) {
            throw new IllegalArgumentException("SID length " + sid.length + " does not match its sub-authority count "
                    + subAuthorities + " (expected 8 + 4 * count, count <= 15)");
        }
        return putBytes(sid, 0, sid.length);
    }

    // ------------------------------------------------------------------------------------------- bytes

    /** Raw bytes with no prefix (fixed-size data, pre-encoded fields). */
    public PayloadBuffer putBytes(byte[] src, int off, int length) {
        checkRange(src, off, length);
        ensureRemaining(length);
        System.arraycopy(src, off, buf, len, length);
        len += length;
        return this;
    }

    /**
     * TlgInCOUNTEDBINARY (and TlgInBINARY, which has the same wire form): a u16 byte count, then the bytes.
     *
     * @throws IllegalArgumentException if {@code length > 65535} or the range is outside {@code src}
     */
    public PayloadBuffer putCountedBinary(byte[] src, int off, int length) {
        checkRange(src, off, length);
        if (length > MAX_U16) {
            throw new IllegalArgumentException("counted binary length " + length + " exceeds 65535 (u16 byte count)");
        }
        ensureRemaining(2 + length);
        putU16Unchecked(length);
        System.arraycopy(src, off, buf, len, length);
        len += length;
        return this;
    }

    // ----------------------------------------------------------------------------------------- strings

    /**
     * TlgInUNICODESTRING: UTF-16LE code units, then a u16 NUL. {@code null} is written as the empty string.
     * Like {@code wcslen}, the value ends at its first U+0000: anything after an embedded NUL is not written
     * (a decoder would stop there and misread the following fields).
     */
    public PayloadBuffer putUtf16z(CharSequence s) {
        int n = s == null ? 0 : nulTerminatedLength(s);
        ensureRemaining(2 * n + 2);
        for (int i = 0; i < n; i++) {
            putU16Unchecked(s.charAt(i));
        }
        putU16Unchecked(0);
        return this;
    }

    /**
     * TlgInCOUNTEDSTRING: a u16 <b>byte</b> count, then UTF-16LE code units, no NUL (embedded NULs are kept).
     * {@code null} is written as the empty string.
     *
     * @throws IllegalArgumentException if the string has more than 32767 UTF-16 units (byte count over 65535)
     */
    public PayloadBuffer putCountedUtf16(CharSequence s) {
        int n = s == null ? 0 : s.length();
        if (n > MAX_U16 / 2) {
            throw new IllegalArgumentException("counted UTF-16 string byte count " + 2L * n
                    + " exceeds 65535 (u16 byte count; at most 32767 UTF-16 units)");
        }
        ensureRemaining(2 + 2 * n);
        putU16Unchecked(2 * n);
        for (int i = 0; i < n; i++) {
            putU16Unchecked(s.charAt(i));
        }
        return this;
    }

    /**
     * TlgInANSISTRING with OutType UTF8: the value in UTF-8, then a NUL byte; {@code null} is written as the
     * empty string. Encoded by hand (no {@code String}/{@code byte[]} created): surrogate pairs become 4-byte
     * sequences and an unpaired surrogate becomes {@code '?'}, as {@code String.getBytes(UTF_8)} does. The value
     * ends at its first U+0000 (see {@link #putUtf16z}).
     */
    public PayloadBuffer putUtf8z(CharSequence s) {
        int n = s == null ? 0 : nulTerminatedLength(s);
        if (n > MAX_ARRAY / 3) {
            throw new IllegalArgumentException("UTF-8 string of " + n + " UTF-16 units is too long for a payload");
        }
        ensureRemaining(3 * n + 1); // UTF-8 needs at most 3 bytes per UTF-16 unit
        appendUtf8(s, n);
        buf[len++] = 0;
        return this;
    }

    /**
     * TlgInCOUNTEDANSISTRING with OutType UTF8: a u16 byte count, then the UTF-8 bytes, no NUL (embedded NULs
     * kept). Same encoding rules as {@link #putUtf8z}.
     *
     * @throws IllegalArgumentException if the UTF-8 form is longer than 65535 bytes
     */
    public PayloadBuffer putCountedUtf8(CharSequence s) {
        int n = s == null ? 0 : s.length();
        if (n > MAX_U16) { // every UTF-16 unit takes at least one UTF-8 byte
            throw new IllegalArgumentException("counted UTF-8 string byte count of at least " + n
                    + " exceeds 65535 (u16)");
        }
        int start = len;
        ensureRemaining(2 + 3 * n);
        len += 2;
        appendUtf8(s, n);
        int count = len - start - 2;
        if (count > MAX_U16) {
            len = start;
            throw new IllegalArgumentException("counted UTF-8 string byte count " + count + " exceeds 65535 (u16)");
        }
        buf[start] = (byte) count;
        buf[start + 1] = (byte) (count >>> 8);
        return this;
    }

    /**
     * TlgInANSISTRING (default OutType): the value in windows-1252 (the code page TraceLogging decoders assume
     * for 8-bit strings without OutType UTF8), then a NUL byte; {@code null} is written as the empty string.
     * U+0000-U+007F and U+00A0-U+00FF map to the same byte (ISO-8859-1 agrees with windows-1252 there), the 27
     * characters windows-1252 places at 0x80-0x9F (such as the euro sign) map to their byte, every other
     * character (C1 controls, characters beyond U+00FF, each half of a surrogate pair) becomes {@code '?'}. The
     * value ends at its first U+0000.
     */
    public PayloadBuffer putAnsiz(CharSequence s) {
        int n = s == null ? 0 : nulTerminatedLength(s);
        ensureRemaining(n + 1);
        for (int i = 0; i < n; i++) {
            buf[len++] = ansiByte(s.charAt(i));
        }
        buf[len++] = 0;
        return this;
    }

    /**
     * TlgInCOUNTEDANSISTRING (default OutType): a u16 byte count, then windows-1252 bytes as in
     * {@link #putAnsiz}, no NUL (embedded NULs kept).
     *
     * @throws IllegalArgumentException if the string has more than 65535 characters
     */
    public PayloadBuffer putCountedAnsi(CharSequence s) {
        int n = s == null ? 0 : s.length();
        if (n > MAX_U16) {
            throw new IllegalArgumentException("counted ANSI string byte count " + n + " exceeds 65535 (u16)");
        }
        ensureRemaining(2 + n);
        putU16Unchecked(n);
        for (int i = 0; i < n; i++) {
            buf[len++] = ansiByte(s.charAt(i));
        }
        return this;
    }

    // --------------------------------------------------------------------------------------- internals

    private void putU16Unchecked(int v) {
        buf[len] = (byte) v;
        buf[len + 1] = (byte) (v >>> 8);
        len += 2;
    }

    private void putI32Unchecked(int v) {
        buf[len] = (byte) v;
        buf[len + 1] = (byte) (v >>> 8);
        buf[len + 2] = (byte) (v >>> 16);
        buf[len + 3] = (byte) (v >>> 24);
        len += 4;
    }

    private void putI64Unchecked(long v) {
        for (int i = 0; i < 8; i++) {
            buf[len + i] = (byte) (v >>> (8 * i));
        }
        len += 8;
    }

    /** Appends the UTF-8 form of the first {@code n} units of {@code s}; room must already be reserved. */
    private void appendUtf8(CharSequence s, int n) {
        byte[] b = buf;
        int p = len;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                b[p++] = (byte) c;
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | (c >>> 6));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                char low;
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(low = s.charAt(i + 1))) {
                    int cp = Character.toCodePoint(c, low);
                    b[p++] = (byte) (0xF0 | (cp >>> 18));
                    b[p++] = (byte) (0x80 | ((cp >>> 12) & 0x3F));
                    b[p++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
                    b[p++] = (byte) (0x80 | (cp & 0x3F));
                    i++;
                } else {
                    b[p++] = '?';
                }
            } else {
                b[p++] = (byte) (0xE0 | (c >>> 12));
                b[p++] = (byte) (0x80 | ((c >>> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        len = p;
    }

    /** The windows-1252 byte for {@code c}, or {@code '?'} when the code page has none. */
    static byte ansiByte(char c) {
        if (c < 0x80 || (c >= 0xA0 && c <= 0xFF)) {
            return (byte) c;
        }
        if (c > 0xFF) {
            for (int i = 0; i < CP1252_HIGH.length; i++) {
                if (CP1252_HIGH[i] == c) {
                    return (byte) (0x80 + i);
                }
            }
        }
        return (byte) '?';
    }

    private static char[] cp1252HighTable() {
        char[] table = new char[32];
        if (!Charset.isSupported("windows-1252")) {
            return table; // then only ISO-8859-1-compatible characters are encoded; the rest become '?'
        }
        byte[] bytes = new byte[32];
        for (int i = 0; i < 32; i++) {
            bytes[i] = (byte) (0x80 + i);
        }
        String decoded = new String(bytes, Charset.forName("windows-1252"));
        for (int i = 0; i < 32 && i < decoded.length(); i++) {
            char c = decoded.charAt(i);
            // Undefined bytes decode to U+FFFD (or, on some JDKs, to the C1 control itself): not encodable.
            table[i] = (c > 0xFF && c != '\uFFFD') ? c : 0;
        }
        return table;
    }

    private static int nulTerminatedLength(CharSequence s) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) == 0) {
                return i;
            }
        }
        return n;
    }

    private static void checkU16Part(String what, int v) {
        if ((v & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("SYSTEMTIME " + what + " must be 0-65535 (u16), got " + v);
        }
    }

    private static void checkRange(byte[] src, int off, int length) {
        if (src == null) {
            throw new IllegalArgumentException("byte source must not be null");
        }
        if (off < 0 || length < 0 || off > src.length - length) {
            throw new IllegalArgumentException("byte range [" + off + ", " + off + "+" + length
                    + ") is outside an array of " + src.length);
        }
    }
}
