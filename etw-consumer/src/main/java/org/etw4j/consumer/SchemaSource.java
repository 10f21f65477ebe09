package org.etw4j.consumer;

/**
 * Where the schema that decoded an event came from.
 * Enum constants: immutable and thread-safe.
 */
public enum SchemaSource {
    /** An instrumentation manifest the application supplied (XML file). */
    MANIFEST,
    /** An EventSource manifest carried inside the trace (event 0xFFFE, ManifestEnvelope). */
    EVENT_SOURCE_MANIFEST,
    /** TDH metadata carried inside the trace (KernelTraceControl MetaData EventInfo / EventMapInfo events). */
    TDH_METADATA,
    /**
     * The schema the consuming machine's TDH has for the event (manifests registered there, MOF classes in its
     * WMI store), asked for while a live session delivered the record ({@code RawEventRecord.eventInformation()}).
     */
    TDH_LIVE,
    /** The built-in classic kernel (MOF) class layouts. */
    KERNEL_MOF,
    /** A TraceLogging self-describing event (schema in the event's extended data). */
    TRACELOGGING,
    /** Built-in layout of a special event (e.g. the ManifestEnvelope itself). */
    BUILT_IN,
    /** No schema was found: the event carries its raw payload only. */
    NONE
}
