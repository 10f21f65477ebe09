package org.etw4j.consumer.internal.decode;

import java.util.List;
import java.util.function.Consumer;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.ProcessInfo;
import org.etw4j.consumer.StructValue;
import org.etw4j.consumer.output.JsonWriter;

/**
 * The JSON value rule of decoded fields, shared by every JSON form of an event (the formatter's JSON Lines and typed
 * JSON, the timeline's event arguments): stateless, thread-safe, nothing to close. Applications format events with
 * {@code org.etw4j.consumer.output.EventFormatter}, which writes through these.
 *
 * <p>Values: integers as JSON numbers, signed or unsigned as the field's in type says (unsigned 64-bit values
 * unsigned), except hexadecimal out types and pointers, which are strings {@code "0x..."}; doubles as numbers
 * ({@code NaN}/infinities as strings); booleans; strings; GUIDs and instants (ISO-8601 UTC) as strings; byte
 * arrays as lower-case hex strings; arrays as arrays; structs as the caller's form writes them. The compact
 * fields object ({@link #fieldsObject}) and the process object ({@link #process}) are written here too.
 */
public final class DecodedEventJson {
    private DecodedEventJson() {
    }

    /**
     * A process as one object: {@code id}, {@code name}, {@code imageFileName}, then, when known, {@code imagePath}
     * (drive-letter form when the trace maps it), {@code imageNtPath} (as the trace wrote it, when it differs),
     * {@code parentId} and {@code commandLine}.
     */
    public static void process(JsonWriter w, ProcessInfo p) {
        w.beginObject().member("id", p.processId()).member("name", p.name())
                .member("imageFileName", p.imageFileName());
        if (p.imagePath() != null) {
            w.member("imagePath", p.imagePath());
        }
        if (p.imageNtPath() != null && !p.imageNtPath().equals(p.imagePath())) {
            w.member("imageNtPath", p.imageNtPath());
        }
        if (p.parentId() != -1) {
            w.member("parentId", p.parentId());
        }
        if (!p.commandLine().isEmpty()) {
            w.member("commandLine", p.commandLine());
        }
        w.endObject();
    }

    /**
     * The fields as one JSON object keyed by name, the compact form (the {@code etw} command's JSON Lines, the
     * timeline's event arguments): a repeated name gets {@code #2}, {@code #3}...; a label (value-map name,
     * drive-letter path) replaces the number; a flag set is {@code {"names":[...],"value":n}}; a failed field is
     * {@code {"error":...,"raw":"hex"}}; struct members follow the same rules; values otherwise as
     * {@link #writeValue}.
     */
    public static void fieldsObject(JsonWriter w, List<EventField> fields) {
        fieldsObject(w, fields, s -> fieldsObject(w, s.fields()));
    }

    /**
     * {@link #fieldsObject(JsonWriter, List)} with the writer of nested structs given ({@code s ->
     * fieldsObject(w, s.fields(), ...)}), for callers that keep one to write many events without allocating.
     */
    public static void fieldsObject(JsonWriter w, List<EventField> fields, Consumer<StructValue> structs) {
        w.beginObject();
        int n = fields.size();
        java.util.Map<String, Integer> seen = n > DUPLICATE_SCAN_LIMIT ? new java.util.HashMap<>() : null;
        for (int i = 0; i < n; i++) {
            EventField f = fields.get(i);
            String name = f.name();
            int occurrence = seen != null ? seen.merge(name, 1, Integer::sum) : occurrence(fields, i, name);
            if (occurrence > 1) {
                name = name + "#" + occurrence;
            }
            w.name(name);
            if (f.error() != null) {
                w.beginObject().member("error", f.error()).member("raw", FieldText.hex(f.raw())).endObject();
            } else if (f.labelKind() == EventField.LabelKind.FLAGS) {
                w.beginObject();
                w.name("names").stringArray(f.flagNames());
                w.name("value");
                writeValue(w, f, f.value(), structs);
                w.endObject();
            } else if (f.label() != null) {
                w.value(f.label());
            } else {
                writeValue(w, f, f.value(), structs);
            }
        }
        w.endObject();
    }

    /**
     * {@link #fieldsObject(JsonWriter, List, Consumer)} for the event in {@code view}, read in place when the view
     * does (same bytes: {@code DumpGoldenTest}).
     */
    public static void fieldsObject(JsonWriter w, EventView view, Consumer<StructValue> structs) {
        w.beginObject();
        int n = view.fieldCount();
        java.util.Map<String, Integer> seen = n > DUPLICATE_SCAN_LIMIT ? new java.util.HashMap<>() : null;
        for (int i = 0; i < n; i++) {
            String name = view.fieldName(i);
            int occurrence = seen != null ? seen.merge(name, 1, Integer::sum) : occurrence(view, i, name);
            if (occurrence > 1) {
                name = name + "#" + occurrence;
            }
            w.name(name);
            String error = view.error(i);
            if (error != null) {
                w.beginObject().member("error", error).member("raw", FieldText.hex(view.raw(i))).endObject();
            } else if (view.labelKind(i) == EventField.LabelKind.FLAGS) {
                w.beginObject();
                w.name("names").stringArray(view.flagNames(i));
                w.name("value");
                writeValue(w, view, i, structs);
                w.endObject();
            } else if (view.label(i) != null) {
                w.value(view.label(i));
            } else {
                writeValue(w, view, i, structs);
            }
        }
        w.endObject();
    }

    /** 1 + how many of the view's fields before {@code index} are named {@code name}. */
    private static int occurrence(EventView view, int index, String name) {
        int n = 1;
        for (int j = 0; j < index; j++) {
            if (view.fieldName(j).equals(name)) {
                n++;
            }
        }
        return n;
    }

    /** Up to this many fields, repeated names are found by scanning the earlier ones (no map per event). */
    private static final int DUPLICATE_SCAN_LIMIT = 32;

    /** 1 + how many of the fields before {@code index} are named {@code name}. */
    private static int occurrence(List<EventField> fields, int index, String name) {
        int n = 1;
        for (int j = 0; j < index; j++) {
            if (fields.get(j).name().equals(name)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Writes field {@code i} of {@code view} exactly as {@link #writeValue(JsonWriter, EventField, Object, Consumer)}
     * writes that field's value, without building the field when the view reads it in place.
     */
    public static void writeValue(JsonWriter w, EventView view, int i, Consumer<StructValue> structs) {
        if (view.isInPlace()) {
            view.writeJson(w, i);
        } else {
            EventField f = view.field(i);
            writeValue(w, f, f.value(), structs);
        }
    }

    /**
     * Writes {@code v}, the value of {@code f} or one element of it, as one JSON value by the rules above
     * (integers by {@code f}'s types: hexadecimal strings, unsigned or signed numbers; lists as arrays), handing
     * a {@link StructValue} to {@code structs}, which writes it in the caller's form.
     */
    public static void writeValue(JsonWriter w, EventField f, Object v, Consumer<StructValue> structs) {
        if (v == null) {
            w.nullValue();
        } else if (v instanceof Integer || v instanceof Long) {
            if (FieldText.isHex(f)) {
                w.value(FieldText.value(f, v));
            } else if (v instanceof Long l && f.inType().isUnsigned()) {
                w.unsignedValue(l);
            } else {
                w.value(((Number) v).longValue());
            }
        } else if (v instanceof Double d) {
            w.value(d.doubleValue());
        } else if (v instanceof Boolean b) {
            w.value(b.booleanValue());
        } else if (v instanceof byte[] b) {
            w.value(FieldText.hex(b));
        } else if (v instanceof StructValue s) {
            structs.accept(s);
        } else if (v instanceof List<?> list) {
            w.beginArray();
            for (Object o : list) {
                writeValue(w, f, o, structs);
            }
            w.endArray();
        } else {
            w.value(v.toString()); // String, Guid, Instant, anything else
        }
    }
}
