package org.etw4j.consumer.decode;

import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.etw4j.Guid;

/**
 * Renders decoded field values as text, shared by the text and JSON forms.
 * Stateless; thread-safe. Rules: unsigned 64-bit values print unsigned; integers whose out type is
 * hexadecimal ({@link OutType#isHex()}) and pointers print as {@code 0x} + lower-case hex; instants in ISO-8601
 * UTC; GUIDs in canonical lower case; byte arrays as lower-case hex; booleans as {@code True}/{@code False} (as
 * TraceEvent prints them). Labels: see {@link #display}.
 */
final class FieldText {
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
        if (v == null) {
            return "";
        }
        if (v instanceof Integer || v instanceof Long) {
            long l = ((Number) v).longValue();
            if (isHex(f)) {
                long masked = v instanceof Integer ? l & 0xFFFF_FFFFL : l;
                return "0x" + Long.toHexString(masked);
            }
            if (v instanceof Long && f.inType().isUnsigned()) {
                return Long.toUnsignedString(l);
            }
            return Long.toString(l);
        }
        if (v instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (v instanceof byte[] b) {
            return HEX.formatHex(b);
        }
        if (v instanceof Guid || v instanceof Instant || v instanceof Double || v instanceof String) {
            return v.toString();
        }
        if (v instanceof StructValue s) {
            StringBuilder sb = new StringBuilder("{");
            for (EventField m : s.fields()) {
                if (sb.length() > 1) {
                    sb.append("; ");
                }
                sb.append(m.name()).append('=').append(display(m));
            }
            return sb.append('}').toString();
        }
        if (v instanceof List<?> l) {
            StringBuilder sb = new StringBuilder("[");
            for (Object o : l) {
                if (sb.length() > 1) {
                    sb.append(',');
                }
                sb.append(value(f, o));
            }
            return sb.append(']').toString();
        }
        return v.toString();
    }

    /** What the text forms print after a file name the trace's volume mapping does not cover. */
    static final String UNMAPPED_SUFFIX = " (no volume mapping recorded)";

    /**
     * The label when the field has one (a map's name, a flag set's names, a drive-letter path), else the value; an
     * NT path the trace recorded no volume mapping for is followed by {@value #UNMAPPED_SUFFIX}; errors are shown
     * with the raw bytes.
     */
    static String display(EventField f) {
        if (f.error() != null) {
            return "<error: " + f.error() + "; raw=" + HEX.formatHex(f.raw()) + ">";
        }
        if (f.labelKind() == EventField.LabelKind.UNMAPPED_NT_PATH) {
            return value(f, f.value()) + UNMAPPED_SUFFIX;
        }
        return f.label() != null ? f.label() : value(f, f.value());
    }

    static String hex(byte[] b) {
        return HEX.formatHex(b);
    }
}
