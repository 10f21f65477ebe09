/**
 * Decoding ETW payloads to named fields: the decoder, the schemas it reads them with (manifests, TraceLogging,
 * kernel MOF layouts, TDH metadata) and the decoded values and field types.
 *
 * <p>Exported for now, not for long: {@link org.etw4j.consumer.EventRecord} is becoming the one event type clients
 * need (issue 19, item 5), and {@link org.etw4j.consumer.TraceFile} with {@link org.etw4j.consumer.ReadSettings}
 * takes manifests; once the CLI, Spark, etw-junit and the benchmarks stop naming {@code EventDecoder},
 * {@code DecodedEvent} and {@code ManifestRegistry}, this package moves under {@code org.etw4j.consumer.internal}
 * ({@code tools/internalize.py}) and only its field value types stay public.
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
