package org.etw4j.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.etw4j.LogfileHeader;

/**
 * Where a file-mode session of the simulated backend puts its buffers: the seam behind which the .etl writer
 * (module etw-consumer) lives.
 *
 * <p>Called by one session's logger thread only; not thread-safe. Buffers arrive complete, in WMI_BUFFER_HEADER
 * format (the sink may write them as they are); {@link #close(LogfileHeader)} gives the final header values.
 */
public interface LogFileSink extends AutoCloseable {

    /** One full or flushed buffer ({@code bufferSize} bytes, position 0, little-endian). */
    void writeBuffer(ByteBuffer buffer) throws IOException;

    /**
     * Overwrites data buffer {@code index} (1 is the first after the header buffer; below the number written so
     * far) with {@code buffer}: how a circular file reuses its oldest buffer once full (EVENT_TRACE_FILE_MODE_CIRCULAR).
     *
     * @throws UnsupportedOperationException when this sink cannot rewrite buffers (the default)
     */
    default void overwriteBuffer(long index, ByteBuffer buffer) throws IOException {
        throw new UnsupportedOperationException("this log file sink cannot rewrite buffers (circular files)");
    }

    /** Buffers in the file now, the header buffer included (an appended file counts the ones it had). */
    default long buffersInFile() {
        return 1;
    }

    /** Completes the file with the final header (buffers written, events lost, end time). */
    void close(LogfileHeader finalHeader) throws IOException;

    /** Closes without a final header (after a failure). */
    @Override
    default void close() throws IOException {
    }
}
