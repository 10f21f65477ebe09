/**
 * etw4j consumer: the pure-Java .etl reader (memory-mapped, streaming, time-ordered merge), decoding, event streams
 * over files and live sessions, the event formatter, the .etl writer and relogger, and the trace model.
 *
 * <p>What applications call (each package's package-info states its entry point and its threading, reuse and close
 * contract): {@code org.etw4j.consumer} (TraceFile, EventStream, ReadSettings, EventRecord), {@code
 * org.etw4j.consumer.output} (EventFormatter), {@code org.etw4j.consumer.etl} (the raw .etl tier: file, cursor,
 * record view, summary, warnings, writer, relogger) and {@code org.etw4j.consumer.model} (processes, threads,
 * images, stacks, CPU profiles, timelines). EventRecord is the one event type of the reading API, and the API's value
 * types (EventField, StructValue, InType, OutType, SchemaSource, ProcessInfo, ProcessLifetime, UndecodedEvents) live
 * beside it. Everything else is {@code org.etw4j.consumer.internal...}: not exported, not application API (the
 * decoder and its schema chain, the trace context, the one file pass, the .etl record's EVENT_RECORD adapter, the
 * formatter's UTF-8 buffer). An etw4j module that needs one of them gets a qualified export; none does today, since
 * every sibling reads through the exported API (etw-consumer's {@code PublicFaceTest} and
 * {@code InternalPackagesTest} keep it so).
 */
module org.etw4j.consumer {
    requires transitive org.etw4j.api;
    // The manifest parser (org.etw4j.consumer.internal.decode) reads XML.
    requires java.xml;

    // Streams, the pull reader, their settings and the events they deliver.
    exports org.etw4j.consumer;
    // The one text/JSON Lines/CSV rendering of events (etw dump, etw live), and its JSON writer.
    exports org.etw4j.consumer.output;
    // The raw .etl tier: file, cursor, record view, summary, warnings, writer, relogger.
    exports org.etw4j.consumer.etl;
    // The trace model: processes, threads, images, stacks, CPU profiles.
    exports org.etw4j.consumer.model;

    provides org.etw4j.spi.LogFileSinkFactory with org.etw4j.consumer.internal.EtlLogFileSinkFactory;
}
