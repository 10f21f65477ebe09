package org.etw4j.consumer.decode;

import java.util.List;
import java.util.Objects;
import org.etw4j.Guid;

/**
 * An event decoded with its schema: names, ordered typed fields, and what could not be decoded.
 * Immutable value; thread-safe; independent of the record and buffers it was decoded from. Per-field
 * problems are on the fields ({@link EventField#error()}); event-level remarks (no schema, an older template
 * used, a TraceLogging schema that did not parse) are in {@link #notes()}.
 *
 * @param providerId   provider GUID (classic events: the event-class GUID)
 * @param providerName provider name, or the GUID text when unknown
 * @param eventName    TraceEvent-style event name ({@code Task/Opcode}, {@code Task}, or {@code EventID(n)})
 * @param taskName     task display name ({@code ""} when none)
 * @param opcodeName   opcode display name ({@code ""} when none)
 * @param eventId      event id (classic events: 0)
 * @param version      event version
 * @param opcode       opcode
 * @param source       the schema kind that decoded it
 * @param fields       decoded fields in wire order
 * @param payloadLength length of the user data
 * @param undecoded    user-data bytes no field covered (after the last field; the whole payload when there is
 *                     no schema); empty when all were used
 * @param notes        event-level remarks, empty when none
 * @param message      the schema's localized message formatted with the fields ({@link EventMessage}), or
 *                     {@code null} when the schema has none
 */
public record DecodedEvent(Guid providerId, String providerName, String eventName, String taskName,
                           String opcodeName, int eventId, int version, int opcode, SchemaSource source,
                           List<EventField> fields, int payloadLength, byte[] undecoded, List<String> notes,
                           String message) {

    public DecodedEvent {
        Objects.requireNonNull(providerId, "providerId");
        Objects.requireNonNull(providerName, "providerName");
        Objects.requireNonNull(eventName, "eventName");
        taskName = taskName == null ? "" : taskName;
        opcodeName = opcodeName == null ? "" : opcodeName;
        Objects.requireNonNull(source, "source");
        fields = List.copyOf(fields);
        undecoded = undecoded == null ? new byte[0] : undecoded.clone();
        notes = List.copyOf(notes);
    }

    /** {@code providerName + "/" + eventName}, the form TraceEvent prints. */
    public String fullName() {
        return providerName + "/" + eventName;
    }

    /** The top-level field named {@code name}, or {@code null}. */
    public EventField field(String name) {
        for (EventField f : fields) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }

    /** Whether any field failed to decode. */
    public boolean hasFieldErrors() {
        return fields.stream().anyMatch(EventField::hasError);
    }

    @Override
    public byte[] undecoded() {
        return undecoded.clone();
    }

    /** Number of undecoded trailing bytes, without copying them. */
    public int undecodedLength() {
        return undecoded.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DecodedEvent e && providerId.equals(e.providerId) && providerName.equals(e.providerName)
                && eventName.equals(e.eventName) && taskName.equals(e.taskName) && opcodeName.equals(e.opcodeName)
                && eventId == e.eventId && version == e.version && opcode == e.opcode && source == e.source
                && fields.equals(e.fields) && payloadLength == e.payloadLength
                && java.util.Arrays.equals(undecoded, e.undecoded) && notes.equals(e.notes)
                && Objects.equals(message, e.message);
    }

    @Override
    public int hashCode() {
        return Objects.hash(providerId, eventName, eventId, version, fields);
    }

    @Override
    public String toString() {
        return fullName() + " " + fields;
    }
}
