package org.etw4j.consumer.internal.schema;

/**
 * One source of event schemas in a decoder's chain (registered manifests, EventSource manifests carried in the
 * trace, TraceLogging, kernel MOF layouts, the CLR supplement, in-trace TDH metadata, the live machine's TDH), in
 * the spirit of krabsetw's {@code schema_locator}: the decoder asks its providers in order, and the first one that
 * answers decides how the event is read. Whether the answer is then read into a reusable view or built as a value
 * is the decoder's decision, made once after the chain; a provider only says what describes the event.
 *
 * <p>Implementations are shared by every thread that uses their decoder, so they must be thread-safe; they keep
 * nothing of the record past the call. They never throw for a bad record: a problem becomes a note.
 */
public interface SchemaProvider {

    /** The header kinds a provider describes; the decoder builds one chain per kind once, not per event. */
    enum Reads {
        /** Records with the classic header flag (MOF event classes, identified by class GUID, opcode, version). */
        CLASSIC_HEADERS,
        /** Records with an {@code EVENT_HEADER} (manifest, EventSource and TraceLogging events). */
        EVENT_HEADERS,
        /** Both. */
        BOTH
    }

    /** The header kinds this provider describes. */
    Reads reads();

    /**
     * Looks {@code q}'s event up: answers with {@link SchemaQuery#found} or {@link SchemaQuery#decoded} and
     * returns {@code true} to end the chain, or returns {@code false} to pass it on (after
     * {@link SchemaQuery#describeMiss} when it knows how an event it cannot decode should be named).
     */
    boolean resolve(SchemaQuery q);
}
