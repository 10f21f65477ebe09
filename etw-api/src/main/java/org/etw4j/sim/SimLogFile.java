package org.etw4j.sim;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.etw4j.LogfileHeader;
import org.etw4j.controller.LogFileMode;
import org.etw4j.controller.SessionConfig;
import org.etw4j.spi.LogFileSink;

/**
 * The log file(s) of one simulated file-mode session, written as the session's file mode says (MS Learn, "Logging
 * Mode Constants"; MaximumFileSize from "EVENT_TRACE_PROPERTIES structure"):
 * <ul>
 *   <li>SEQUENTIAL "writes events to a log file sequentially; stops when the file reaches its maximum size": once
 *       the file holds MaximumFileSize bytes, further buffers are not written and their events are counted lost
 *       (in the file's EventsLost and BuffersLost, and the session's statistics);</li>
 *   <li>CIRCULAR: "after the file reaches the maximum size, the oldest events are replaced with incoming events":
 *       once the file is full, each new buffer overwrites the oldest data buffer in place, so the file keeps the
 *       latest buffers and, once wrapped, is not in time order on disk ("the contents of the circular log file may
 *       appear out of order"); buffer 0 (the header) is never overwritten;</li>
 *   <li>NEW_FILE "automatically switches to a new log file when the file reaches the maximum size", the {@code %d}
 *       of the name counting 1, 2, ... ("each time a new file is created, a counter is incremented"): the full
 *       file is completed with its own header, so each is a whole readable trace.</li>
 * </ul>
 * Sizes count whole buffers: a file of MaximumFileSize bytes holds {@code MaximumFileSize / BufferSize} buffers,
 * the header buffer included (how Windows rounds a size that is not a multiple of the buffer size is not
 * documented; here the file never exceeds the limit). APPEND ("appends events to an existing sequential log file. If
 * the file does not exist, it is created") continues the file after its buffers, its header kept and its counts
 * added to; the file's buffer size, clock and pointer size must be the session's (else StartTrace fails). A limit
 * then counts the buffers already in the file (as a sequential file's).
 *
 * <p>Not thread-safe: used by the session's logger thread only (opened in the session's constructor).
 */
final class SimLogFile {
    private final SimulatedBackend backend;
    private final SessionConfig config;
    private final LogfileHeader header;
    private final long startRaw;
    /** Most buffers one file holds, buffer 0 included; Long.MAX_VALUE without a limit. */
    private final long capacity;
    private LogFileSink sink;
    private int fileNumber = 1;
    /** Buffers in the current file, buffer 0 included. */
    private long inFile = 1;
    /** Circular: the data buffer the next write replaces once the file is full (1-based). */
    private long oldest = 1;
    private long eventsLost;
    private long buffersLost;

    SimLogFile(SimulatedBackend backend, SessionConfig config, LogfileHeader header, long startRaw) throws IOException {
        this.backend = backend;
        this.config = config;
        this.header = header;
        this.startRaw = startRaw;
        long max = config.maximumFileSizeBytes();
        this.capacity = max == 0 ? Long.MAX_VALUE : max / config.bufferSizeBytes();
        this.sink = open(1);
        if (config.fileMode() == LogFileMode.APPEND) {
            this.inFile = Math.max(1, sink.buffersInFile());
        }
    }

    private LogFileSink open(int n) throws IOException {
        Path file = config.logFile(n);
        return backend.openLogFile(file, header.withLogFileName(file.toAbsolutePath().toString()), startRaw,
                config.fileMode() == LogFileMode.APPEND);
    }

    /** The file being written now (the nth of a NEW_FILE session). */
    Path currentFile() {
        return config.logFile(fileNumber);
    }

    /**
     * Writes one sealed buffer holding {@code events} events as the file mode says; false when the file is full and
     * the buffer was not written (SEQUENTIAL), which the caller counts as lost too.
     */
    boolean write(ByteBuffer buffer, int events, long fileTimeNow, long sessionEventsLost) throws IOException {
        if (sink == null) { // the next NEW_FILE file could not be opened
            eventsLost += events;
            buffersLost++;
            return false;
        }
        if (inFile < capacity) {
            sink.writeBuffer(buffer);
            inFile++;
            return true;
        }
        switch (config.fileMode()) {
            case CIRCULAR -> {
                sink.overwriteBuffer(oldest, buffer);
                oldest = oldest + 1 >= capacity ? 1 : oldest + 1;
                return true;
            }
            case NEW_FILE -> {
                sink.close(header.withLogFileName(currentFile().toAbsolutePath().toString())
                        .withEnd(fileTimeNow, (int) inFile, (int) sessionEventsLost, (int) buffersLost));
                sink = null; // a failed open leaves no sink to write to or close twice
                fileNumber++;
                sink = open(fileNumber);
                inFile = 1;
                sink.writeBuffer(buffer);
                inFile++;
                return true;
            }
            default -> {
                eventsLost += events;
                buffersLost++;
                return false;
            }
        }
    }

    /** Events this file refused (SEQUENTIAL, full). */
    long eventsLost() {
        return eventsLost;
    }

    /** Completes the current file with the session's final header values. */
    void close(LogfileHeader finalHeader) throws IOException {
        if (sink != null) {
            sink.close(finalHeader.withLogFileName(currentFile().toAbsolutePath().toString()));
        }
    }
}
