package org.etw4j.consumer.internal.decode;

import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.StructValue;

/**
 * Renders decoded field values as text, shared by the text and JSON forms.
 * Stateless; thread-safe. Rules: unsigned 64-bit values print unsigned; integers whose out type is
 * hexadecimal ({@link OutType#isHex()}) and pointers print as {@code 0x} + lower-case hex; instants in ISO-8601
 * UTC; GUIDs in canonical lower case; byte arrays as lower-case hex; booleans as {@code True}/{@code False} (as
 * TraceEvent prints them). Labels: see {@link #display}. Public for the hexadecimal helpers other text forms of
 * events share (the {@code etw} command's CSV and JSON Lines); the value rules stay package-private.
 */
public final class FieldText {
    private static final HexFormat HEX = HexFormat.of();

    private FieldText() {
    }

    /** Whether the field's integer value should be shown in hexadecimal. */
    static boolean isHex(EventField f) {
        return f.outType().isHex() || f.inType() == InType.POINTER || f.inType() == InType.HEXINT32
                || f.inType() == InType.HEXINT64;
    }

    /** The value without its map label. */
    static String value(EventField f, Object v) {
        return appendValue(new StringBuilder(), f, v).toString();
    }

    /** Appends {@link #value(EventField, Object)} to {@code sb} without building a String for numbers. */
    static StringBuilder appendValue(StringBuilder sb, EventField f, Object v) {
        if (v == null) {
            return sb;
        }
        if (v instanceof Integer || v instanceof Long) {
            long l = ((Number) v).longValue();
            if (isHex(f)) {
                long masked = v instanceof Integer ? l & 0xFFFF_FFFFL : l;
                return appendHex(sb.append("0x"), masked);
            }
            if (v instanceof Long && f.inType().isUnsigned() && l < 0) {
                return sb.append(Long.toUnsignedString(l));
            }
            return sb.append(l);
        }
        if (v instanceof Boolean b) {
            return sb.append(b ? "True" : "False");
        }
        if (v instanceof byte[] b) {
            return appendHex(sb, b);
        }
        if (v instanceof String s) {
            return sb.append(s);
        }
        if (v instanceof Guid || v instanceof Instant || v instanceof Double) {
            return sb.append(v);
        }
        if (v instanceof StructValue s) {
            int open = sb.append('{').length();
            for (EventField m : s.fields()) {
                if (sb.length() > open) {
                    sb.append("; ");
                }
                appendDisplay(sb.append(m.name()).append('='), m);
            }
            return sb.append('}');
        }
        if (v instanceof List<?> l) {
            // a separator only once something was written (an element can print as nothing)
            int open = sb.append('[').length();
            for (Object o : l) {
                if (sb.length() > open) {
                    sb.append(',');
                }
                appendValue(sb, f, o);
            }
            return sb.append(']');
        }
        return sb.append(v);
    }

    /** What the text forms print after a file name the trace's volume mapping does not cover. */
    static final String UNMAPPED_SUFFIX = " (no volume mapping recorded)";

    /**
     * The label when the field has one (a map's name, a flag set's names, a drive-letter path), else the value; an
     * NT path the trace recorded no volume mapping for is followed by {@value #UNMAPPED_SUFFIX}; errors are shown
     * with the raw bytes.
     */
    public static String display(EventField f) {
        return appendDisplay(new StringBuilder(), f).toString();
    }

    /** Appends {@link #display(EventField)} to {@code sb}. */
    static StringBuilder appendDisplay(StringBuilder sb, EventField f) {
        if (f.error() != null) {
            return appendHex(sb.append("<error: ").append(f.error()).append("; raw="), f.raw()).append('>');
        }
        if (f.labelKind() == EventField.LabelKind.UNMAPPED_NT_PATH) {
            return appendValue(sb, f, f.value()).append(UNMAPPED_SUFFIX);
        }
        return f.label() != null ? sb.append(f.label()) : appendValue(sb, f, f.value());
    }

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    /** Appends {@code Long.toHexString(v)} (lower case, no leading zeros) without making a String of it. */
    public static StringBuilder appendHex(StringBuilder sb, long v) {
        int digits = Math.max(1, (67 - Long.numberOfLeadingZeros(v)) / 4);
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            sb.append(DIGITS[(int) (v >>> shift) & 0xF]);
        }
        return sb;
    }

    /** Appends {@code HexFormat.of().formatHex(b)} (lower case, two digits a byte). */
    public static StringBuilder appendHex(StringBuilder sb, byte[] b) {
        for (byte x : b) {
            sb.append(DIGITS[(x >> 4) & 0xF]).append(DIGITS[x & 0xF]);
        }
        return sb;
    }

    static String hex(byte[] b) {
        return HEX.formatHex(b);
    }
}
