package org.etw4j.consumer.etl;

import java.nio.file.Path;

/**
 * What a {@link Relogger} run did.
 *
 * <p>Immutable record; thread-safe. {@code recordsRead = recordsWritten + filteredOut + logfileHeadersReplaced}.
 *
 * @param output                 the file written
 * @param recordsRead            records the reader delivered from all inputs
 * @param recordsWritten         records copied to the output
 * @param filteredOut            records the filters rejected
 * @param logfileHeadersReplaced the inputs' own logfile-header records (buffer 0), replaced by the output's
 * @param retimed                copied records whose timestamp field was converted to the output's clock (records
 *                               of inputs whose clock differs from the first input's); all other bytes unchanged
 * @param buffersWritten         buffers in the output, buffer 0 included
 * @param bufferSize             the output's buffer size
 * @param readerWarnings         problems the reader skipped in the inputs (malformed buffers or records)
 */
public record RelogResult(Path output, long recordsRead, long recordsWritten, long filteredOut, long logfileHeadersReplaced,
                          long retimed, long buffersWritten, int bufferSize, long readerWarnings) {
}
