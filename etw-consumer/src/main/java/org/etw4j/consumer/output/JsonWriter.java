package org.etw4j.consumer.output;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Objects;
import org.etw4j.consumer.internal.Utf8Buffer;

/**
 * A minimal streaming JSON writer (RFC 8259): objects, arrays, strings, integers (signed or unsigned 64-bit),
 * floating point, booleans and null, written straight to an {@link Appendable}, compact or indented. etw4j's
 * one JSON writer: summaries, {@code EventRecord.toJson()}, the decoded-event JSON and the {@code etw} command's
 * JSON Lines all go through it. Given a {@link Utf8Buffer}, it writes UTF-8 bytes straight into it (no characters
 * in between): the event formatter's mode.
 *
 * <p>Not thread-safe; one writer per output, reusable for a sequence of JSON texts with {@link #reset()}. It
 * checks the call sequence (a name before every value in an object, balanced begin/end) and throws
 * {@link IllegalStateException} on misuse; I/O errors of the output are rethrown as {@link UncheckedIOException}.
 * It does not close the output.
 *
 * <p>Strings: quote, backslash and control characters are escaped (the short escapes where JSON has one, else
 * a six-character hexadecimal escape), and so are U+2028 and U+2029 (JavaScript cannot hold them literally);
 * everything else, non-ASCII included, is written as is. JSON has no NaN or infinities: non-finite
 * floating-point values are written as the strings {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"}.
 */
public final class JsonWriter {
    private static final int IN_ARRAY = 1;
    private static final int IN_OBJECT = 2;

    private final Appendable out;
    /** {@link #out} when it is a StringBuilder: numbers and string runs go in without Strings made for them. */
    private final StringBuilder builder;
    /** {@link #out} when it is a {@link Utf8Buffer}: strings and numbers go in as UTF-8 bytes directly. */
    private final Utf8Buffer bytes;
    private final String indent;
    private int[] stack = new int[16];
    private boolean[] hasElements = new boolean[16];
    private int depth;
    private boolean nameWritten;
    private boolean rootWritten;

    /** A compact writer. */
    public JsonWriter(Appendable out) {
        this(out, 0);
    }

    /** A writer indenting nested values by {@code indentSpaces} (0 = compact, one line). */
    public JsonWriter(Appendable out, int indentSpaces) {
        this.out = Objects.requireNonNull(out, "out");
        this.builder = out instanceof StringBuilder b ? b : null;
        this.bytes = out instanceof Utf8Buffer u ? u : null;
        if (indentSpaces < 0 || indentSpaces > 16) {
            throw new IllegalArgumentException("indentSpaces must be 0..16: " + indentSpaces);
        }
        this.indent = " ".repeat(indentSpaces);
    }

    public JsonWriter beginObject() {
        beforeValue();
        push(IN_OBJECT);
        write('{');
        return this;
    }

    public JsonWriter endObject() {
        return close(IN_OBJECT, '}');
    }

    public JsonWriter beginArray() {
        beforeValue();
        push(IN_ARRAY);
        write('[');
        return this;
    }

    public JsonWriter endArray() {
        return close(IN_ARRAY, ']');
    }

    /** The name of the next member of the current object. */
    public JsonWriter name(String name) {
        Objects.requireNonNull(name, "name");
        if (depth == 0 || stack[depth - 1] != IN_OBJECT || nameWritten) {
            throw new IllegalStateException("name() outside an object or twice in a row: " + name);
        }
        separate();
        string(name);
        write(indent.isEmpty() ? ":" : ": ");
        nameWritten = true;
        return this;
    }

    /** A string value, or null. */
    public JsonWriter value(String value) {
        return value((CharSequence) value);
    }

    /**
     * A string value from any character sequence (a reused {@link StringBuilder}, for example), escaped as
     * {@link #value(String)} escapes; {@code null} writes {@code null}. The sequence is read during the call only.
     */
    public JsonWriter value(CharSequence value) {
        if (value == null) {
            return nullValue();
        }
        beforeValue();
        string(value);
        return this;
    }

    public JsonWriter value(long value) {
        if (bytes != null) {
            beforeValue();
            bytes.decimal(value);
            return this;
        }
        if (builder != null) {
            beforeValue();
            builder.append(value);
            return this;
        }
        return number(true, Long.toString(value));
    }

    /** An unsigned 64-bit integer: {@code value}'s 64 bits read as unsigned (so -1 is 18446744073709551615). */
    public JsonWriter unsignedValue(long value) {
        if (value >= 0) {
            return value(value);
        }
        if (bytes != null) {
            beforeValue();
            bytes.unsignedDecimal(value);
            return this;
        }
        return number(true, Long.toUnsignedString(value));
    }

    /** A number as {@link Double#toString(double)} writes it; NaN and infinities as strings (see above). */
    public JsonWriter value(double value) {
        return number(Double.isFinite(value), Double.toString(value));
    }

    /** A number as {@link Float#toString(float)} writes it (shortest form); NaN and infinities as strings. */
    public JsonWriter value(float value) {
        return number(Float.isFinite(value), Float.toString(value));
    }

    /**
     * The exact decimal number {@code unscaled / 10^scale} in plain notation (no exponent, trailing fraction zeros
     * left out): {@code decimalValue(123456789, 1)} writes {@code 12345678.9}, {@code decimalValue(-5, 2)}
     * {@code -0.05}. For fixed-point quantities such as microseconds from 100 ns ticks, which a double would print
     * with an exponent from 10^7 on.
     */
    public JsonWriter decimalValue(long unscaled, int scale) {
        if (scale < 0 || scale > 18) {
            throw new IllegalArgumentException("scale must be 0..18: " + scale);
        }
        String digits = unscaled == Long.MIN_VALUE ? "9223372036854775808" : Long.toString(Math.abs(unscaled));
        if (digits.length() <= scale) {
            digits = "0".repeat(scale - digits.length() + 1) + digits;
        }
        int point = digits.length() - scale;
        int end = digits.length();
        while (end > point && digits.charAt(end - 1) == '0') {
            end--;
        }
        String text = (unscaled < 0 ? "-" : "") + digits.substring(0, point)
                + (end > point ? "." + digits.substring(point, end) : "");
        return number(true, text);
    }

    /** An array of strings (null elements as null). */
    public JsonWriter stringArray(Iterable<String> values) {
        beginArray();
        for (String v : values) {
            value(v);
        }
        return endArray();
    }

    public JsonWriter value(boolean value) {
        beforeValue();
        write(value ? "true" : "false");
        return this;
    }

    public JsonWriter nullValue() {
        beforeValue();
        write("null");
        return this;
    }

    /** Shortcut for {@code name(name).value(value)}. */
    public JsonWriter member(String name, String value) {
        return name(name).value(value);
    }

    /** Shortcut for {@code name(name).value(value)}. */
    public JsonWriter member(String name, long value) {
        return name(name).value(value);
    }

    /**
     * Forgets what was written so that a new JSON text (root value) can follow, e.g. the next line of a JSON
     * Lines output; the output itself is not touched (the caller writes the separator or clears its buffer).
     */
    public JsonWriter reset() {
        depth = 0;
        nameWritten = false;
        rootWritten = false;
        return this;
    }

    /** Whether every begun object and array has been ended and one root value written. */
    public boolean isComplete() {
        return depth == 0 && rootWritten;
    }

    /** A number literal, or the text as a string when the number has no JSON form (non-finite). */
    private JsonWriter number(boolean finite, String text) {
        if (!finite) {
            return value(text);
        }
        beforeValue();
        write(text);
        return this;
    }

    private void beforeValue() {
        if (depth == 0) {
            if (rootWritten) {
                throw new IllegalStateException("a JSON text has one root value");
            }
            rootWritten = true;
            return;
        }
        if (stack[depth - 1] == IN_OBJECT) {
            if (!nameWritten) {
                throw new IllegalStateException("a value in an object needs a name() first");
            }
            nameWritten = false;
            return;
        }
        separate();
    }

    /** Comma and line break before the second and later elements of the current container. */
    private void separate() {
        if (hasElements[depth - 1]) {
            write(',');
        }
        hasElements[depth - 1] = true;
        newline(depth);
    }

    private JsonWriter close(int kind, char bracket) {
        if (depth == 0 || stack[depth - 1] != kind || nameWritten) {
            throw new IllegalStateException("unbalanced " + bracket);
        }
        boolean any = hasElements[depth - 1];
        depth--;
        if (any) {
            newline(depth);
        }
        write(bracket);
        return this;
    }

    private void push(int kind) {
        if (depth == stack.length) {
            stack = Arrays.copyOf(stack, depth * 2);
            hasElements = Arrays.copyOf(hasElements, depth * 2);
        }
        stack[depth] = kind;
        hasElements[depth] = false;
        depth++;
    }

    private void newline(int level) {
        if (!indent.isEmpty()) {
            write('\n');
            for (int i = 0; i < level; i++) {
                write(indent);
            }
        }
    }

    private void string(CharSequence s) {
        if (bytes != null) {
            bytes.jsonString(s); // the same escapes, straight to UTF-8
            return;
        }
        write('"');
        int n = s.length();
        if (builder != null) {
            // the common case: nothing to escape, one bulk append
            int plain = 0;
            while (plain < n && !needsEscape(s.charAt(plain))) {
                plain++;
            }
            if (plain == n) {
                builder.append(s).append('"');
                return;
            }
            builder.append(s, 0, plain);
            escaped(s, plain, n);
            return;
        }
        escaped(s, 0, n);
    }

    private static boolean needsEscape(char c) {
        return c < 0x20 || c == '"' || c == '\\' || c == '\u2028' || c == '\u2029';
    }

    /** Characters {@code from..n} of {@code s}, escaped, and the closing quote. */
    private void escaped(CharSequence s, int from, int n) {
        for (int i = from; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> write("\\\"");
                case '\\' -> write("\\\\");
                case '\n' -> write("\\n");
                case '\r' -> write("\\r");
                case '\t' -> write("\\t");
                case '\b' -> write("\\b");
                case '\f' -> write("\\f");
                default -> {
                    // Control characters and the line separators JavaScript cannot hold literally are escaped.
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        write(String.format("\\u%04x", (int) c));
                    } else {
                        write(c);
                    }
                }
            }
        }
        write('"');
    }

    private void write(char c) {
        try {
            out.append(c);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(String s) {
        try {
            out.append(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
