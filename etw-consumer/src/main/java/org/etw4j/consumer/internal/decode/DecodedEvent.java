package org.etw4j.consumer.internal.decode;

import java.util.List;
import java.util.Objects;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.ProcessInfo;
import org.etw4j.consumer.SchemaSource;

/**
 * An event decoded with its schema: names, ordered typed fields, and what could not be decoded.
 * Immutable value; thread-safe; independent of the record and buffers it was decoded from. Per-field
 * problems are on the fields ({@link EventField#error()}); event-level remarks (no schema, an older template
 * used, a TraceLogging schema that did not parse) are in {@link #notes()}.
 *
 * <p>A final class with record-style accessors rather than a record, so that the decoder can hand over the lists
 * and arrays it built without copying them again, and format the {@link #message()} only when it is asked for
 * (per-event costs measured with {@code EtlScanBenchmark}); the public constructor still copies what it is given.
 * Two events are {@link #equals equal} when every component is.
 */
public final class DecodedEvent {

    private final Guid providerId;
    private final String providerName;
    private final String eventName;
    private final String taskName;
    private final String opcodeName;
    private final int eventId;
    private final int version;
    private final int opcode;
    private final SchemaSource source;
    private final List<EventField> fields;
    private final int payloadLength;
    private final byte[] undecoded;
    private final List<String> notes;
    /** The message template when the message is still to be formatted, else {@code null}. */
    private final String messageTemplate;
    /** The message once formatted (or given); racy single-check: formatting twice gives equal strings. */
    private String message;
    /** The process the event belongs to, when a {@link TraceContext} presented it; else {@code null}. */
    private final ProcessInfo process;

    /**
     * An event from its parts; {@code fields} and {@code notes} are copied, {@code undecoded} cloned.
     *
     * @param providerId   provider GUID (classic events: the event-class GUID)
     * @param providerName provider name, or the GUID text when unknown
     * @param eventName    TraceEvent-style event name ({@code Task/Opcode}, {@code Task}, or {@code EventID(n)})
     * @param taskName     task display name ({@code ""} when none; {@code null} reads as {@code ""})
     * @param opcodeName   opcode display name ({@code ""} when none; {@code null} reads as {@code ""})
     * @param eventId      event id (classic events: 0)
     * @param version      event version
     * @param opcode       opcode
     * @param source       the schema kind that decoded it
     * @param fields       decoded fields in wire order
     * @param payloadLength length of the user data
     * @param undecoded    user-data bytes no field covered (after the last field; the whole payload when there is
     *                     no schema); empty (or {@code null}) when all were used
     * @param notes        event-level remarks, empty when none
     * @param message      the schema's localized message formatted with the fields ({@code EventMessage}), or
     *                     {@code null} when the schema has none
     */
    public DecodedEvent(Guid providerId, String providerName, String eventName, String taskName,
                        String opcodeName, int eventId, int version, int opcode, SchemaSource source,
                        List<EventField> fields, int payloadLength, byte[] undecoded, List<String> notes,
                        String message) {
        this(providerId, providerName, eventName, taskName, opcodeName, eventId, version, opcode, source,
                List.copyOf(fields), payloadLength, undecoded == null ? EMPTY : undecoded.clone(),
                List.copyOf(notes), message, null, null);
    }

    private static final byte[] EMPTY = new byte[0];

    private DecodedEvent(Guid providerId, String providerName, String eventName, String taskName,
                         String opcodeName, int eventId, int version, int opcode, SchemaSource source,
                         List<EventField> fields, int payloadLength, byte[] undecoded, List<String> notes,
                         String message, String messageTemplate, ProcessInfo process) {
        this.providerId = Objects.requireNonNull(providerId, "providerId");
        this.providerName = Objects.requireNonNull(providerName, "providerName");
        this.eventName = Objects.requireNonNull(eventName, "eventName");
        this.taskName = taskName == null ? "" : taskName;
        this.opcodeName = opcodeName == null ? "" : opcodeName;
        this.eventId = eventId;
        this.version = version;
        this.opcode = opcode;
        this.source = Objects.requireNonNull(source, "source");
        this.fields = fields;
        this.payloadLength = payloadLength;
        this.undecoded = undecoded;
        this.notes = notes;
        this.message = message;
        this.messageTemplate = messageTemplate;
        this.process = process;
    }

    /**
     * The decoder's constructor: takes ownership of {@code fields} and {@code notes} (unmodifiable lists the
     * caller no longer touches, wrapped here so nobody can) and of {@code undecoded} (an array nobody else holds),
     * and formats {@code messageTemplate} with the fields when {@link #message()} is first called.
     */
    static DecodedEvent owned(Guid providerId, String providerName, String eventName, String taskName,
                              String opcodeName, int eventId, int version, int opcode, SchemaSource source,
                              List<EventField> fields, int payloadLength, byte[] undecoded, List<String> notes,
                              String messageTemplate) {
        return new DecodedEvent(providerId, providerName, eventName, taskName, opcodeName, eventId, version, opcode,
                source, java.util.Collections.unmodifiableList(fields), payloadLength,
                undecoded == null ? EMPTY : undecoded, List.copyOf(notes), null, messageTemplate, null);
    }

    /**
     * This event as {@link TraceContext#present} shows it: {@code fields} instead of its own (the same fields with
     * path labels, plus derived ones), {@code moreNotes} after its notes, and the process it belongs to.
     */
    DecodedEvent presented(List<EventField> fields, List<String> moreNotes, ProcessInfo process) {
        List<String> allNotes = notes;
        if (!moreNotes.isEmpty()) {
            List<String> l = new java.util.ArrayList<>(notes);
            l.addAll(moreNotes);
            allNotes = List.copyOf(l);
        }
        boolean same = fields == this.fields;
        // a message still to format is formatted with the presented fields (drive-letter paths)
        return new DecodedEvent(providerId, providerName, eventName, taskName, opcodeName, eventId, version, opcode,
                source, same ? fields : java.util.Collections.unmodifiableList(fields), payloadLength, undecoded,
                allNotes, same || messageTemplate == null ? message : null, messageTemplate, process);
    }

    /**
     * The process the event belongs to, as the trace's process events describe it, when the event came through a
     * {@link TraceContext} ({@link TraceContext#present}) that knew it; else {@code null}. For classic kernel
     * Process, Thread and Image events that is the process they describe (the payload's ProcessID, as TraceEvent
     * shows them), for others the record's process, or the process of the record's thread.
     */
    public ProcessInfo process() {
        return process;
    }

    /** Provider GUID (classic events: the event-class GUID). */
    public Guid providerId() {
        return providerId;
    }

    /** Provider name, or the GUID text when unknown. */
    public String providerName() {
        return providerName;
    }

    /** TraceEvent-style event name ({@code Task/Opcode}, {@code Task}, or {@code EventID(n)}). */
    public String eventName() {
        return eventName;
    }

    /** Task display name ({@code ""} when none). */
    public String taskName() {
        return taskName;
    }

    /** Opcode display name ({@code ""} when none). */
    public String opcodeName() {
        return opcodeName;
    }

    /** Event id (classic events: 0). */
    public int eventId() {
        return eventId;
    }

    /** Event version. */
    public int version() {
        return version;
    }

    /** Opcode. */
    public int opcode() {
        return opcode;
    }

    /** The schema kind that decoded it. */
    public SchemaSource source() {
        return source;
    }

    /** Decoded fields in wire order (unmodifiable). */
    public List<EventField> fields() {
        return fields;
    }

    /** Length of the user data. */
    public int payloadLength() {
        return payloadLength;
    }

    /** Event-level remarks, empty when none (unmodifiable). */
    public List<String> notes() {
        return notes;
    }

    /**
     * The schema's localized message formatted with the fields ({@code EventMessage}), or {@code null} when the
     * schema has none. Formatted on first call for decoded events.
     */
    public String message() {
        String m = message;
        if (m == null && messageTemplate != null) {
            m = EventMessage.format(messageTemplate, fields);
            message = m;
        }
        return m;
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
        for (EventField f : fields) {
            if (f.hasError()) {
                return true;
            }
        }
        return false;
    }

    /**
     * User-data bytes no field covered (after the last field; the whole payload when there is no schema); empty
     * when all were used. A copy.
     */
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
                && Objects.equals(message(), e.message()) && Objects.equals(process, e.process);
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
