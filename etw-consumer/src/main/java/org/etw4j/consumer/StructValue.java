package org.etw4j.consumer;

import java.util.List;

/**
 * The decoded value of one struct (a {@code <struct>} template item, or one element of an array of structs).
 * Immutable value; thread-safe.
 *
 * @param fields the member fields in wire order
 */
public record StructValue(List<EventField> fields) {

    public StructValue {
        fields = List.copyOf(fields);
    }

    /** The member named {@code name}, or {@code null}. */
    public EventField field(String name) {
        for (EventField f : fields) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }
}
