package org.etw4j.spi;

import java.io.IOException;
import java.nio.file.Path;
import org.etw4j.format.LogfileHeader;

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
}
