package org.etw4j.consumer.decode;

import java.time.Instant;
import java.util.List;
import org.etw4j.Guid;

/**
 * The JSON form of a decoded event (stateless, thread-safe, nothing to close), one object per event (suitable
 * for JSON Lines):
 * <pre>{@code
 * {"provider":"Microsoft-Windows-DotNETRuntime","providerId":"e13c0d23-...","event":"GC/CreateSegment",
 *  "task":"GC","opcode":"CreateSegment","id":5,"version":1,"source":"MANIFEST","payloadLength":22,
 *  "fields":[{"name":"Address","type":"win:UInt64","value":1855...},{"name":"Type","type":"win:UInt32",
 *  "value":0,"label":"SmallObjectHeap"}, ...],
 *  "undecoded":"hex" (only when non-empty), "message":"..." (only when the schema has one),
 *  "notes":[...] (only when non-empty)}
 * }</pre>
 *
 * <p>Fields are an array so their order and duplicate names survive. Values: integers
 * as JSON numbers (unsigned 64-bit values unsigned), except hexadecimal out types and pointers, which are
 * strings {@code "0x..."}; doubles as numbers ({@code NaN}/infinities as strings); booleans; strings; GUIDs and
 * instants (ISO-8601 UTC) as strings; byte arrays as lower-case hex strings; arrays as arrays; structs as
 * objects of their members. A failed field has {@code "error"} and {@code "raw"} (hex) and its partial value
 * if any. Written with a small internal writer (etw-consumer had no JSON writer when this was made).
 */
public final class DecodedEventJson {
    private DecodedEventJson() {
    }

    /** The event as a JSON object. */
    public static String format(DecodedEvent e) {
        StringBuilder sb = new StringBuilder(256);
        appendTo(sb, e);
        return sb.toString();
    }

    /** Appends the event's JSON object to {@code sb}. */
    public static StringBuilder appendTo(StringBuilder sb, DecodedEvent e) {
        sb.append('{');
        member(sb, "provider").append(str(e.providerName())).append(',');
        member(sb, "providerId").append(str(e.providerId().toString())).append(',');
        member(sb, "event").append(str(e.eventName())).append(',');
        member(sb, "task").append(str(e.taskName())).append(',');
        member(sb, "opcode").append(str(e.opcodeName())).append(',');
        member(sb, "id").append(e.eventId()).append(',');
        member(sb, "version").append(e.version()).append(',');
        member(sb, "source").append(str(e.source().name())).append(',');
        member(sb, "payloadLength").append(e.payloadLength()).append(',');
        member(sb, "fields");
        fields(sb, e.fields());
        if (e.undecodedLength() > 0) {
            sb.append(',');
            member(sb, "undecoded").append(str(FieldText.hex(e.undecoded())));
        }
        if (e.message() != null) {
            sb.append(',');
            member(sb, "message").append(str(e.message()));
        }
        if (!e.notes().isEmpty()) {
            sb.append(',');
            member(sb, "notes").append('[');
            for (int i = 0; i < e.notes().size(); i++) {
                sb.append(i > 0 ? "," : "").append(str(e.notes().get(i)));
            }
            sb.append(']');
        }
        return sb.append('}');
    }

    private static void fields(StringBuilder sb, List<EventField> fields) {
        sb.append('[');
        for (int i = 0; i < fields.size(); i++) {
            EventField f = fields.get(i);
            sb.append(i > 0 ? "," : "").append('{');
            member(sb, "name").append(str(f.name())).append(',');
            member(sb, "type").append(str(f.inType().manifestName()));
            if (f.value() != null) {
                sb.append(',');
                member(sb, "value");
                value(sb, f, f.value());
            }
            if (f.label() != null) {
                sb.append(',');
                member(sb, "label").append(str(f.label()));
            }
            if (f.error() != null) {
                sb.append(',');
                member(sb, "error").append(str(f.error())).append(',');
                member(sb, "raw").append(str(FieldText.hex(f.raw())));
            }
            sb.append('}');
        }
        sb.append(']');
    }

    private static void value(StringBuilder sb, EventField f, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Integer || v instanceof Long) {
            if (FieldText.isHex(f)) {
                sb.append(str(FieldText.value(f, v)));
            } else {
                sb.append(FieldText.value(f, v));
            }
        } else if (v instanceof Double d) {
            sb.append(d.isNaN() || d.isInfinite() ? str(d.toString()) : d.toString());
        } else if (v instanceof Boolean b) {
            sb.append(b.booleanValue());
        } else if (v instanceof String || v instanceof Guid || v instanceof Instant) {
            sb.append(str(v.toString()));
        } else if (v instanceof byte[] b) {
            sb.append(str(FieldText.hex(b)));
        } else if (v instanceof StructValue s) {
            sb.append('{');
            for (int i = 0; i < s.fields().size(); i++) {
                EventField m = s.fields().get(i);
                sb.append(i > 0 ? "," : "");
                member(sb, m.name());
                if (m.error() != null) {
                    sb.append('{');
                    member(sb, "error").append(str(m.error())).append(',');
                    member(sb, "raw").append(str(FieldText.hex(m.raw()))).append('}');
                } else {
                    value(sb, m, m.value());
                }
            }
            sb.append('}');
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                sb.append(i > 0 ? "," : "");
                value(sb, f, l.get(i));
            }
            sb.append(']');
        } else {
            sb.append(str(v.toString()));
        }
    }

    private static StringBuilder member(StringBuilder sb, String name) {
        return sb.append(str(name)).append(':');
    }

    /** A JSON string literal (RFC 8259 escaping; non-ASCII kept as is). */
    static String str(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
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
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
