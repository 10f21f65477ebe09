/**
 * Decoding ETW payloads to named fields: the decoder and the schemas it reads them with (manifests, TraceLogging,
 * kernel MOF layouts, TDH metadata), the decoded value, the reusable view and the trace context. The field value
 * types it produces ({@link org.etw4j.consumer.EventField} and friends) live in {@code org.etw4j.consumer}.
 *
 * <p>Exported for now, not for long: {@link org.etw4j.consumer.EventRecord} is the one event type clients need
 * (issue 19, item 5) and names nothing of this package, and {@link org.etw4j.consumer.TraceFile} with
 * {@link org.etw4j.consumer.ReadSettings} takes manifests; once the CLI's summary, dump and timeline, Spark's split
 * reader, the benchmarks and the fuzz tests stop naming {@code EventDecoder}, {@code TraceContext},
 * {@code EventView} and {@code ManifestRegistry}, this package moves under {@code org.etw4j.consumer.internal}
 * ({@code tools/internalize.py}), with the manifest registration applications need kept public.
 *
 * <p>Entry point: {@code new EventDecoder(registry)}, then {@code decode(record)} for a
 * {@link org.etw4j.consumer.decode.DecodedEvent} value or {@code EventView.decode(record)} into a reused view.
 *
 * <p>Threading: a decoder is thread-safe if its {@link org.etw4j.consumer.decode.ManifestRegistry} is (the provided
 * one is); an {@link org.etw4j.consumer.decode.EventView} and a {@link org.etw4j.consumer.decode.TraceContext}
 * belong to one thread; decoded values are immutable.
 *
 * <p>Reuse: a decoder is reused for any number of events and reads each record during the call only; a view is
 * re-pointed at each record it decodes and valid until the next one.
 *
 * <p>Close: nothing to close.
 */
package org.etw4j.consumer.decode;
