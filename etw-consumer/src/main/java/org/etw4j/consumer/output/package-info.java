/**
 * The one rendering of decoded events as text, JSON Lines and CSV: {@link org.etw4j.consumer.output.EventFormatter}
 * in one of the {@link org.etw4j.consumer.output.EventFormat}s, each with one value rule (described on the
 * formatter). {@code etw dump}, {@code etw live}, {@code EventRecord.toJson/toString}, Spark's {@code fields} and
 * {@code fields_json} columns, etw-junit's failure listings and the timeline's event arguments take event values
 * from it (its static forms: {@code text}, {@code fieldsText}, {@code fieldText}, {@code json}, {@code fieldsJson}); and
 * the JSON writer it is built on.
 *
 * <p>Entry point: {@code new EventFormatter(format, outputStream)} with an {@link org.etw4j.consumer.output.EventFormat},
 * then {@link org.etw4j.consumer.output.EventFormatter#write(org.etw4j.consumer.EventRecord)} per event and
 * {@code flush()} at the end. Each format has one value rule, described on the formatter; {@code etw dump},
 * {@code etw live} and {@link org.etw4j.consumer.EventRecord#toString()}/{@code toJson()} write through it, so they
 * agree. {@link org.etw4j.consumer.output.JsonWriter} is the streaming JSON writer the formatter's JSON forms take
 * ({@code fieldsJson}, {@code UndecodedEvents.writeJson}) and that summaries, profiles, timelines and reports use for
 * their own envelopes, so that an event's values sit in them as the formatter writes them. The byte buffer the
 * formatter encodes into is internal.
 *
 * <p>Threading: a formatter or JSON writer is used by one thread.
 *
 * <p>Reuse: a formatter is reused for any number of events and reads each event only during {@code write}; it keeps
 * one output buffer, reused from event to event.
 *
 * <p>Close: nothing to close: the caller owns the output stream or writer; {@code flush()} writes what is buffered.
 */
package org.etw4j.consumer.output;
