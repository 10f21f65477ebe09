package org.etw4j.consumer.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.etw4j.LogfileHeader;
import org.etw4j.consumer.etl.EtlWriter;
import org.etw4j.spi.LogFileSink;
import org.etw4j.spi.LogFileSinkFactory;

/**
 * The .etl writer behind the simulated backend's file-mode sessions: registered with {@link java.util.ServiceLoader}
 * ({@code META-INF/services} and {@code provides} in the module descriptor), so a file-mode session of
 * {@link org.etw4j.sim.SimulatedBackend} writes a genuine .etl file when this module is present.
 *
 * <p>Stateless; thread-safe. Each {@link #open} returns a sink owned by one session's logger thread: it writes
 * buffer 0 at once (provisional), the session's buffers as they are (they arrive in WMI_BUFFER_HEADER form), and
 * rewrites buffer 0 at {@link LogFileSink#close(LogfileHeader)} with the final counts. BuffersWritten in the file
 * is the number of buffers the sink actually wrote, buffer 0 included, which equals the session's count unless a
 * write failed. {@link LogFileSink#close()} without a header (after a failure) still completes the file with the
 * header the session started with. See {@link EtlWriter} for the layout, and its warning: Windows acceptance is
 * not verified.
 */
public final class EtlLogFileSinkFactory implements LogFileSinkFactory {

    /** For ServiceLoader. */
    public EtlLogFileSinkFactory() {
    }

    @Override
    public LogFileSink open(Path path, LogfileHeader header, long startRaw) throws IOException {
        return new Sink(EtlWriter.create(path, header, startRaw));
    }

    @Override
    public LogFileSink openForAppend(Path path, LogfileHeader header, long startRaw) throws IOException {
        return new Sink(EtlWriter.append(path, header, startRaw));
    }

    /** Adapts one {@link EtlWriter} to the SPI; used by one logger thread. */
    private static final class Sink implements LogFileSink {
        private final EtlWriter writer;

        Sink(EtlWriter writer) {
            this.writer = writer;
        }

        @Override
        public void writeBuffer(ByteBuffer buffer) throws IOException {
            writer.writeBuffer(buffer);
        }

        @Override
        public long buffersInFile() {
            return writer.buffersWritten();
        }

        @Override
        public void overwriteBuffer(long index, ByteBuffer buffer) throws IOException {
            writer.overwriteBuffer(index, buffer);
        }

        @Override
        public void close(LogfileHeader finalHeader) throws IOException {
            writer.close(finalHeader);
        }

        @Override
        public void close() throws IOException {
            writer.close();
        }
    }
}
