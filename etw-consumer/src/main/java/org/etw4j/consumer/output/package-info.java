/**
 * The one rendering of decoded events as text, JSON Lines and CSV: {@link org.etw4j.consumer.output.EventFormatter}
 * in one of the {@link org.etw4j.consumer.output.EventFormat}s, each with one value rule (described on the
 * formatter). {@code etw dump}, {@code etw live}, {@code EventRecord.toJson/toString}, Spark's {@code fields} and
 * {@code fields_json} columns, etw-junit's failure listings and the timeline's event arguments take event values
 * from it (its static forms: {@code text}, {@code fieldsText}, {@code fieldText}, {@code json}, {@code fieldsJson}).
 *
 * <p>Entry point: {@code new EventFormatter(format, outputStream)}, then {@code write(record, view, time)} per
 * event and {@code flush()} at the end. A formatter is used by one thread, reused for any number of events, reads
 * each event only during {@code write}, and closes nothing: the caller owns the output.
 */
package org.etw4j.consumer.output;
