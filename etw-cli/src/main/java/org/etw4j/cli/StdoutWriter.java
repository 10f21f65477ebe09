package org.etw4j.cli;

import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The command line's standard output: a UTF-8 {@link PrintWriter} for commands that print lines, and the byte
 * stream under it for commands that write UTF-8 themselves ({@code etw dump} through etw-consumer's
 * {@code EventFormatter}), so that their bytes skip the character encoder.
 *
 * <p>One per process, created by {@link EtwCommand#main}; used by one command thread at a time.
 */
final class StdoutWriter extends PrintWriter {
    private final OutputStream bytes;

    /** Lines go through one 64 KB buffer, flushed at each println (auto-flush). */
    StdoutWriter(OutputStream bytes) {
        super(new BufferedWriter(new OutputStreamWriter(bytes, StandardCharsets.UTF_8), 1 << 16), true);
        this.bytes = bytes;
    }

    /** The byte stream, after what was printed as characters so far has gone to it. */
    OutputStream bytes() {
        flush();
        return bytes;
    }

    /**
     * The byte stream of {@code out} when it is the process's standard output, else {@code null} (a test's or an
     * embedding caller's writer: events then go through it as characters).
     */
    static OutputStream bytesOf(PrintWriter out) {
        return out instanceof StdoutWriter s ? s.bytes() : null;
    }
}
