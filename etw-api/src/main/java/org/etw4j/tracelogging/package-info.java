/**
 * TraceLogging, ETW's self-describing events: event definitions, their metadata encoding and its decoding.
 *
 * <p>Entry point: {@link org.etw4j.tracelogging.TraceLoggingEvent#builder(String)} defines an event once (its
 * metadata bytes are built then), and {@code EtwProvider.event(TraceLoggingEvent)} writes it. Readers parse
 * metadata with {@link org.etw4j.tracelogging.TraceLoggingSchema} through a
 * {@link org.etw4j.tracelogging.TraceLoggingSchemaCache}; code that defines events at run time keeps them in an
 * {@link org.etw4j.tracelogging.EventShapeCache}.
 *
 * <p>Threading and reuse: definitions and parsed schemas are immutable, thread-safe and meant to be kept and
 * shared for the life of the provider; the two caches are thread-safe and bounded. Nothing here holds a native
 * resource; nothing is closed.
 */
package org.etw4j.tracelogging;
