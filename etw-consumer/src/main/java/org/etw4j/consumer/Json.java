package org.etw4j.consumer;

import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.etw4j.consumer.decode.EventField;
import org.etw4j.consumer.decode.StructValue;

/**
 * The JSON and text rendering of decoded values for {@link EventRecord#toJson()} and {@link EventRecord#toString()}.
 *
 * <p>Stateless; static; thread-safe. Strings are escaped per RFC 8259 (quote, backslash, control characters);
 * non-finite doubles are written as strings since JSON has no NaN; byte arrays as lowercase hex strings.
 */
final class Json {
    private Json() {
    }

    static StringBuilder member(StringBuilder sb, String name, String value) {
        string(sb, name).append(':');
        return string(sb, value);
    }

    static StringBuilder member(StringBuilder sb, String name, long value) {
        return string(sb, name).append(':').append(value);
    }

    static StringBuilder string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"');
    }

    static StringBuilder value(StringBuilder sb, Object v) {
        if (v == null) {
            return sb.append("null");
        }
        if (v instanceof String s) {
            return string(sb, s);
        }
        if (v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return sb.append(v);
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            return Double.isFinite(d) ? sb.append(v) : string(sb, v.toString());
        }
        if (v instanceof byte[] b) {
            return string(sb, HexFormat.of().formatHex(b));
        }
        if (v instanceof StructValue s) {
            sb.append('{');
            List<EventField> fields = s.fields();
            for (int i = 0; i < fields.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                string(sb, fields.get(i).name()).append(':');
                value(sb, fields.get(i).value());
            }
            return sb.append('}');
        }
        if (v instanceof List<?> list) {
            sb.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                value(sb, list.get(i));
            }
            return sb.append(']');
        }
        return string(sb, v.toString());
    }

    /** Text form: strings quoted, structs in braces, arrays in brackets, binary as hex. */
    static StringBuilder text(StringBuilder sb, Object v) {
        if (v instanceof String s) {
            return sb.append('"').append(s).append('"');
        }
        if (v instanceof byte[] b) {
            return sb.append("0x").append(HexFormat.of().formatHex(b));
        }
        if (v instanceof StructValue s) {
            sb.append('{');
            List<EventField> fields = s.fields();
            for (int i = 0; i < fields.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                sb.append(fields.get(i).name()).append('=');
                text(sb, fields.get(i).value());
            }
            return sb.append('}');
        }
        if (v instanceof List<?> list) {
            sb.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                text(sb, list.get(i));
            }
            return sb.append(']');
        }
        if (v instanceof Instant || v == null || v instanceof Number || v instanceof Boolean) {
            return sb.append(v);
        }
        return sb.append(v);
    }
}
