/**
 * ETW's byte formats, written once for every module that reads or writes them: {@code EVENT_HEADER},
 * {@code WMI_BUFFER_HEADER}, trace header kinds, the logfile header, payload encodings, filter header chains.
 *
 * <p>Entry point for applications: {@link org.etw4j.provider.PayloadBuffer} (what
 * {@code EventWriter.payload()} gives for encodings the writer has no method for), and
 * {@link org.etw4j.LogfileHeader} with {@link org.etw4j.TimestampConverter} (an .etl file's header
 * and clock). The layout classes are constants and static readers for etw4j's own modules.
 *
 * <p>Threading: layouts and readers are stateless and thread-safe; {@code LogfileHeader} and
 * {@code TimestampConverter} are immutable. A {@code PayloadBuffer} is not thread-safe: it belongs to its writer
 * and is reused for each event. Nothing here holds a native resource; nothing is closed.
 */
package org.etw4j.format;
import org.etw4j.LogfileHeader;
import org.etw4j.TimestampConverter;
import org.etw4j.provider.PayloadBuffer;
