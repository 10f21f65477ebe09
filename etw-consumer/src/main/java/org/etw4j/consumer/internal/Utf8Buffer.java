package org.etw4j.consumer.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.etw4j.consumer.output.JsonWriter;

/**
 * A reusable, growable buffer of UTF-8 text: characters are encoded as they are appended, numbers, hexadecimal and
 * GUIDs are written as digits without an intermediate {@link String}, and JSON strings are quoted and escaped
 * straight into bytes. The target of {@link JsonWriter}'s byte mode and of etw4j's event formatter
 * ({@code org.etw4j.consumer.output.EventFormatter}), which hand whole lines to an output in large chunks.
 *
 * <p>Not thread-safe; one per output. Reused with {@link #clear()}; nothing to close. Characters that are not
 * valid UTF-16 (an unpaired surrogate) are written as {@code ?}, as the JDK's UTF-8 encoder replaces them, so
 * the bytes equal what an {@link java.io.OutputStreamWriter} in UTF-8 writes for the same characters.
 */
public final class Utf8Buffer implements Appendable {
    private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    /** {@code Long.MIN_VALUE} has no positive counterpart: written from its text. */
    private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

    private byte[] buf;
    private int size;
    /** A high surrogate waiting for its low half ({@link #append(char)} one char at a time), or 0. */
    private char pendingHigh;

    /** An empty buffer of {@code capacity} bytes to start with (it grows as needed). */
    public Utf8Buffer(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    /** Bytes written since the last {@link #clear()}. */
    public int size() {
        return size;
    }

    /** The bytes; valid from 0 to {@link #size()} until the next write. */
    public byte[] array() {
        return buf;
    }

    /** Forgets the bytes (the capacity stays). */
    public Utf8Buffer clear() {
        size = 0;
        pendingHigh = 0;
        return this;
    }

    /** Cuts the buffer back to {@code newSize} bytes (a mark taken with {@link #size()}). */
    public void truncate(int newSize) {
        if (newSize < 0 || newSize > size) {
            throw new IndexOutOfBoundsException(newSize);
        }
        size = newSize;
    }

    /** Writes the bytes to {@code out} and clears the buffer. */
    public void drainTo(OutputStream out) {
        try {
            out.write(buf, 0, size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        clear();
    }

    /** Writes the text to {@code out} (decoded back to characters) and clears the buffer; for character outputs. */
    public void drainTo(Writer out) {
        try {
            out.write(toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        clear();
    }

    /** The text written so far. */
    @Override
    public String toString() {
        return new String(buf, 0, size, StandardCharsets.UTF_8);
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(size + more, buf.length * 2));
        }
    }

    /** One byte, which the caller knows to be ASCII. */
    public Utf8Buffer ascii(char c) {
        if (size == buf.length) {
            ensure(1);
        }
        buf[size++] = (byte) c;
        return this;
    }

    /** Bytes already encoded (a pre-encoded name, for example). */
    public Utf8Buffer bytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, size, b.length);
        size += b.length;
        return this;
    }

    /** Bytes {@code from..to} of another buffer. */
    public Utf8Buffer bytes(byte[] b, int from, int to) {
        ensure(to - from);
        System.arraycopy(b, from, buf, size, to - from);
        size += to - from;
        return this;
    }

    @Override
    public Utf8Buffer append(CharSequence s) {
        return s == null ? append("null", 0, 4) : append(s, 0, s.length());
    }

    @Override
    public Utf8Buffer append(CharSequence s, int from, int to) {
        if (s == null) {
            return append("null", 0, 4);
        }
        ensure(to - from);
        int i = from;
        // the common case: ASCII, one byte a character
        while (i < to && pendingHigh == 0) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                break;
            }
            buf[size++] = (byte) c;
            i++;
        }
        for (; i < to; i++) {
            append(s.charAt(i));
        }
        endRun(); // a text ends here: a high surrogate without its low half is not valid UTF-16
        return this;
    }

    @Override
    public Utf8Buffer append(char c) {
        if (pendingHigh != 0) {
            char high = pendingHigh;
            pendingHigh = 0;
            if (Character.isLowSurrogate(c)) {
                codePoint(Character.toCodePoint(high, c));
                return this;
            }
            ascii('?');
        }
        if (c < 0x80) {
            return ascii(c);
        }
        if (Character.isHighSurrogate(c)) {
            pendingHigh = c;
            return this;
        }
        if (Character.isLowSurrogate(c)) {
            return ascii('?');
        }
        ensure(3);
        if (c < 0x800) {
            buf[size++] = (byte) (0xC0 | c >> 6);
        } else {
            buf[size++] = (byte) (0xE0 | c >> 12);
            buf[size++] = (byte) (0x80 | (c >> 6 & 0x3F));
        }
        buf[size++] = (byte) (0x80 | (c & 0x3F));
        return this;
    }

    private void codePoint(int cp) {
        ensure(4);
        buf[size++] = (byte) (0xF0 | cp >> 18);
        buf[size++] = (byte) (0x80 | (cp >> 12 & 0x3F));
        buf[size++] = (byte) (0x80 | (cp >> 6 & 0x3F));
        buf[size++] = (byte) (0x80 | (cp & 0x3F));
    }

    /** Ends a run of characters: a high surrogate left waiting becomes {@code ?} (as the JDK encoder ends). */
    private void endRun() {
        if (pendingHigh != 0) {
            pendingHigh = 0;
            ascii('?');
        }
    }

    /**
     * A JSON string (quoted) with {@link JsonWriter}'s escapes: quote, backslash, the short escapes, other control
     * characters and U+2028/U+2029 as {@code \}{@code u00xx}; all else as UTF-8; {@code null} as {@code null}.
     */
    public Utf8Buffer jsonString(CharSequence s) {
        endRun();
        if (s == null) {
            return append("null");
        }
        int n = s.length();
        ensure(n + 2);
        buf[size++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                append(c); // a pair becomes 4 bytes, an unpaired half '?'
                continue;
            }
            endRun();
            jsonChar(c);
        }
        endRun();
        return ascii('"');
    }

    /**
     * One character of a JSON string's content, escaped: quote, backslash, the short escapes, other control
     * characters and U+2028/U+2029 as a six-character escape; the caller gives no surrogates (texts with
     * surrogates go through {@link #jsonString}).
     */
    public Utf8Buffer jsonChar(char c) {
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            if (size == buf.length) {
                ensure(1);
            }
            buf[size++] = (byte) c;
            return this;
        }
        return switch (c) {
            case '"' -> ascii('\\').ascii('"');
            case '\\' -> ascii('\\').ascii('\\');
            case '\n' -> ascii('\\').ascii('n');
            case '\r' -> ascii('\\').ascii('r');
            case '\t' -> ascii('\\').ascii('t');
            case '\b' -> ascii('\\').ascii('b');
            case '\f' -> ascii('\\').ascii('f');
            default -> c < 0x20 || c == '\u2028' || c == '\u2029' ? ascii('\\').ascii('u').hexDigits(c, 4) : append(c);
        };
    }

    /**
     * One character of a text line: line feed and carriage return as {@code \n} and {@code \r} (an event's line
     * stays one line), all else as UTF-8; the caller gives no surrogates.
     */
    public Utf8Buffer lineChar(char c) {
        if (c >= 0x20 && c < 0x80) {
            if (size == buf.length) {
                ensure(1);
            }
            buf[size++] = (byte) c;
            return this;
        }
        return c == '\n' ? ascii('\\').ascii('n') : c == '\r' ? ascii('\\').ascii('r') : append(c);
    }

    /**
     * The 7-bit text {@code src[from..to)} (the caller has checked that no byte is 0x80 or above) as
     * {@link #jsonChar} writes each character when {@code json}, else as {@link #lineChar} does; decided per run:
     * the bytes between two that need an escape are copied at once.
     */
    public Utf8Buffer asciiText(byte[] src, int from, int to, boolean json) {
        ensure(to - from);
        int run = from;
        for (int p = from; p < to; p++) {
            byte b = src[p];
            if (json ? b < 0x20 || b == '"' || b == '\\' : b == '\n' || b == '\r') {
                bytes(src, run, p);
                if (json) {
                    jsonChar((char) b);
                } else {
                    lineChar((char) b);
                }
                run = p + 1;
            }
        }
        return bytes(src, run, to);
    }

    /**
     * The UTF-16LE text {@code src[from..to)}, ending at its first NUL character when {@code cut}, as
     * {@link #jsonChar} writes each character when {@code json}, else as {@link #lineChar} does; ASCII that needs
     * no escape is narrowed straight into the buffer. Stops and answers {@code false} at a surrogate (the buffer
     * then holds part of the text: the caller cuts it back and writes the text another way).
     */
    public boolean utf16Text(byte[] src, int from, int to, boolean cut, boolean json) {
        ensure((to - from) >> 1);
        for (int p = from; p < to; p += 2) {
            char c = (char) ((src[p] & 0xFF) | (src[p + 1] & 0xFF) << 8);
            if (c >= 0x20 && c < 0x80 && (!json || c != '"' && c != '\\')) {
                if (size == buf.length) {
                    ensure(1);
                }
                buf[size++] = (byte) c;
                continue;
            }
            if (c == 0 && cut) {
                break;
            }
            if (Character.isSurrogate(c)) {
                return false;
            }
            if (json) {
                jsonChar(c);
            } else {
                lineChar(c);
            }
        }
        return true;
    }

    /** {@code Long.toString(v)}. */
    public Utf8Buffer decimal(long v) {
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                return bytes(MIN_LONG);
            }
            ascii('-');
            v = -v;
        }
        return positive(v);
    }

    /** {@code Long.toUnsignedString(v)}: the 64 bits read as unsigned. */
    public Utf8Buffer unsignedDecimal(long v) {
        if (v >= 0) {
            return positive(v);
        }
        long quotient = Long.divideUnsigned(v, 10);
        positive(quotient);
        return ascii((char) ('0' + (v - quotient * 10)));
    }

    private Utf8Buffer positive(long v) {
        int digits = 1;
        for (long p = 10; digits < 19 && v >= p; p *= 10) {
            digits++;
        }
        ensure(digits);
        int end = size + digits;
        int at = end;
        // two digits a division (the JDK's own Long.toString does the same); ints once the value fits one
        while (v >= Integer.MAX_VALUE) {
            long q = v / 100;
            int r = (int) (v - q * 100);
            buf[--at] = (byte) ('0' + r % 10);
            buf[--at] = (byte) ('0' + r / 10);
            v = q;
        }
        int i = (int) v;
        while (i >= 100) {
            int q = i / 100;
            int r = i - q * 100;
            buf[--at] = (byte) ('0' + r % 10);
            buf[--at] = (byte) ('0' + r / 10);
            i = q;
        }
        if (i >= 10) {
            buf[--at] = (byte) ('0' + i % 10);
            i /= 10;
        }
        buf[--at] = (byte) ('0' + i);
        size = end;
        return this;
    }

    /** The low {@code width} decimal digits of {@code v} (0 or more), leading zeros kept: a fraction's digits. */
    public Utf8Buffer fixedDecimal(int v, int width) {
        ensure(width);
        int end = size + width;
        for (int at = end; at > size; ) {
            int q = v / 10;
            buf[--at] = (byte) ('0' + (v - q * 10));
            v = q;
        }
        size = end;
        return this;
    }

    /** {@code Long.toHexString(v)}: lower case, no leading zeros. */
    public Utf8Buffer hex(long v) {
        return hexDigits(v, Math.max(1, (67 - Long.numberOfLeadingZeros(v)) / 4));
    }

    /** The low {@code digits} hexadecimal digits of {@code v}, lower case, leading zeros kept. */
    public Utf8Buffer hexDigits(long v, int digits) {
        ensure(digits);
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            buf[size++] = DIGITS[(int) (v >>> shift) & 0xF];
        }
        return this;
    }

    /** Bytes {@code from..to} of {@code b} as lower-case hex, two digits a byte. */
    public Utf8Buffer hex(byte[] b, int from, int to) {
        ensure(2 * (to - from));
        for (int i = from; i < to; i++) {
            buf[size++] = DIGITS[(b[i] >> 4) & 0xF];
            buf[size++] = DIGITS[b[i] & 0xF];
        }
        return this;
    }

    /** A GUID in {@code org.etw4j.Guid#toString()}'s form (lower-case 8-4-4-4-12) from its two halves. */
    public Utf8Buffer guid(long msb, long lsb) {
        hexDigits(msb >>> 32, 8).ascii('-');
        hexDigits(msb >>> 16, 4).ascii('-');
        hexDigits(msb, 4).ascii('-');
        hexDigits(lsb >>> 48, 4).ascii('-');
        return hexDigits(lsb, 12);
    }
}
