/**
 * The one rendering of decoded events as text, JSON Lines and CSV: {@link org.etw4j.consumer.output.EventFormatter}
 * in one of the {@link org.etw4j.consumer.output.EventFormat}s, each with one value rule (described on the
 * formatter). {@code etw dump} and {@code etw live} write through it.
 *
 * <p>Entry point: {@code new EventFormatter(format, outputStream)}, then {@code write(record, view, time)} per
 * event and {@code flush()} at the end. A formatter is used by one thread, reused for any number of events, reads
 * each event only during {@code write}, and closes nothing: the caller owns the output.
 */
package org.etw4j.consumer.output;
