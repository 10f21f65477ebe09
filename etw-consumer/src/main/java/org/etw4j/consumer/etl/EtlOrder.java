package org.etw4j.consumer.etl;

/**
 * The order in which an {@link EtlCursor} delivers records.
 *
 * <p>Enum constants: immutable and thread-safe.
 */
public enum EtlOrder {
    /** Timestamp order: the per-processor buffers merged (ties broken by processor index). */
    TIME,
    /** File order: buffer after buffer, records as stored (for tools and diagnostics; no merge cost). */
    FILE
}
