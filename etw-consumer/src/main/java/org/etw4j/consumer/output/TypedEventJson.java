package org.etw4j.consumer.output;

import java.util.HexFormat;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.DecodedEventJson;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.StructValue;

/**
 * The typed JSON form of a decoded event ({@code EventFormatter.json}, Spark's {@code fields_json}):
 * the decoded event without the record's header, each field with its type, so that field order, duplicate names,
 * types and nesting survive. Stateless; thread-safe.
 * <pre>{@code
 * {"provider":"Microsoft-Windows-DotNETRuntime","providerId":"e13c0d23-...","event":"GC/CreateSegment",
 *  "task":"GC","opcode":"CreateSegment","id":5,"version":1,"source":"MANIFEST","payloadLength":22,
 *  "fields":[{"name":"Address","type":"win:UInt64","value":1855...},{"name":"Type","type":"win:UInt32",
 *  "value":0,"label":"SmallObjectHeap"}, ...],
 *  "undecoded":"hex" (only when non-empty), "message":"..." (only when the schema has one),
 *  "notes":[...] (only when non-empty)}
 * }</pre>
 * An event a trace context presented has {@code "process":{...}} after {@code payloadLength}, as the JSON Lines
 * form writes it. A field's {@code "label"} is a value map's name, a flag set's names joined by {@code |}
 * ({@code "labelKind":"FLAGS"}, with the names as a list in {@code "flags"} beside the raw number in
 * {@code "value"}), or the drive-letter form of the NT path in {@code "value"} ({@code "labelKind":"DOS_PATH"});
 * an NT path the trace's volume mapping does not cover has {@code "labelKind":"UNMAPPED_NT_PATH"} and no label.
 * Values follow the JSON value rule of every JSON form ({@link DecodedEventJson#writeValue}); a failed field has
 * {@code "error"} and {@code "raw"} (hex) and its partial value if any.
 */
final class TypedEventJson {
    private static final HexFormat HEX = HexFormat.of();

    private TypedEventJson() {
    }

    /** Writes the event's JSON object as the next value of {@code w}. */
    static void write(JsonWriter w, DecodedEvent e) {
        w.beginObject()
                .member("provider", e.providerName())
                .member("providerId", e.providerId().toString())
                .member("event", e.eventName())
                .member("task", e.taskName())
                .member("opcode", e.opcodeName())
                .member("id", e.eventId())
                .member("version", e.version())
                .member("source", e.source().name())
                .member("payloadLength", e.payloadLength());
        if (e.process() != null) {
            w.name("process");
            DecodedEventJson.process(w, e.process());
        }
        w.name("fields").beginArray();
        for (EventField f : e.fields()) {
            field(w, f);
        }
        w.endArray();
        if (e.undecodedLength() > 0) {
            w.member("undecoded", HEX.formatHex(e.undecoded()));
        }
        if (e.message() != null) {
            w.member("message", e.message());
        }
        if (!e.notes().isEmpty()) {
            w.name("notes").stringArray(e.notes());
        }
        w.endObject();
    }

    private static void field(JsonWriter w, EventField f) {
        w.beginObject().member("name", f.name()).member("type", f.inType().manifestName());
        if (f.value() != null) {
            w.name("value");
            DecodedEventJson.writeValue(w, f, f.value(), s -> structMembers(w, s));
        }
        if (f.label() != null) {
            w.member("label", f.label());
        }
        if (f.labelKind() != EventField.LabelKind.NONE && f.labelKind() != EventField.LabelKind.NAME) {
            w.member("labelKind", f.labelKind().name());
        }
        if (f.labelKind() == EventField.LabelKind.FLAGS) {
            w.name("flags").stringArray(f.flagNames());
        }
        if (f.error() != null) {
            w.member("error", f.error()).member("raw", HEX.formatHex(f.raw()));
        }
        w.endObject();
    }

    /** A struct as an object of its members' values; a failed member as {@code {"error":...,"raw":...}}. */
    private static void structMembers(JsonWriter w, StructValue s) {
        w.beginObject();
        for (EventField m : s.fields()) {
            w.name(m.name());
            if (m.error() != null) {
                w.beginObject().member("error", m.error()).member("raw", HEX.formatHex(m.raw())).endObject();
            } else {
                DecodedEventJson.writeValue(w, m, m.value(), inner -> structMembers(w, inner));
            }
        }
        w.endObject();
    }
}
