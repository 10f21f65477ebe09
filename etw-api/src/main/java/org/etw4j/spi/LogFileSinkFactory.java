package org.etw4j.spi;

import java.io.IOException;
import java.nio.file.Path;
import org.etw4j.LogfileHeader;

/**
 * Opens {@link LogFileSink}s; found with {@link java.util.ServiceLoader} (etw-consumer provides the .etl writer).
 *
 * <p>Stateless; thread-safe.
 */
public interface LogFileSinkFactory {

    /**
     * Opens {@code path} for a session whose header starts as {@code header}; {@code startRaw} is the raw
     * timestamp taken at the header's StartTime (T0).
     */
    LogFileSink open(Path path, LogfileHeader header, long startRaw) throws IOException;

    /**
     * Opens {@code path} to append to (EVENT_TRACE_FILE_MODE_APPEND: "Appends events to an existing sequential log
     * file. If the file does not exist, it is created"); an existing file must have the same buffer size, clock and
     * pointer size as {@code header} ("the values for BufferSize, NumberOfProcessors, and ClockType must be
     * explicitly provided and must be the same in both the logger and the file being appended"), else IOException.
     *
     * @throws UnsupportedOperationException when this factory cannot append (the default)
     */
    default LogFileSink openForAppend(Path path, LogfileHeader header, long startRaw) throws IOException {
        throw new UnsupportedOperationException("this log file sink factory cannot append to .etl files");
    }
}
