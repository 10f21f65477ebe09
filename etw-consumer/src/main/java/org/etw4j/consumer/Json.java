package org.etw4j.consumer;

import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.etw4j.consumer.decode.EventField;
import org.etw4j.consumer.decode.StructValue;
import org.etw4j.consumer.json.JsonWriter;

/**
 * The JSON and text rendering of decoded values for {@link EventRecord#toJson()} and {@link EventRecord#toString()}.
 *
 * <p>Stateless; static; thread-safe. The JSON goes through {@link JsonWriter} (escaping, non-finite numbers as
 * strings); byte arrays are lower-case hex strings.
 */
final class Json {
    private Json() {
    }

    /**
     * Writes a decoded value: strings, booleans and numbers as themselves (integers signed, whatever the field's
     * type), byte arrays as lower-case hex strings, structs as objects of their members' values, lists as arrays,
     * anything else (GUIDs, instants) as its {@code toString()}.
     */
    static void value(JsonWriter w, Object v) {
        if (v == null) {
            w.nullValue();
        } else if (v instanceof String s) {
            w.value(s);
        } else if (v instanceof Boolean b) {
            w.value(b.booleanValue());
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            w.value(((Number) v).longValue());
        } else if (v instanceof Double d) {
            w.value(d.doubleValue());
        } else if (v instanceof Float f) {
            w.value(f.floatValue());
        } else if (v instanceof byte[] b) {
            w.value(HexFormat.of().formatHex(b));
        } else if (v instanceof StructValue s) {
            w.beginObject();
            for (EventField f : s.fields()) {
                w.name(f.name());
                value(w, f.value());
            }
            w.endObject();
        } else if (v instanceof List<?> list) {
            w.beginArray();
            for (Object o : list) {
                value(w, o);
            }
            w.endArray();
        } else {
            w.value(v.toString());
        }
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
