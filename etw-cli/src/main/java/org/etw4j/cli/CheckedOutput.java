package org.etw4j.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Standard output that stops at its first write error: a full disk, {@code > /dev/full}, a closed pipe.
 *
 * <p>{@link java.io.PrintWriter} swallows {@link IOException}s, so a command printing to a full disk would run to
 * the end and exit 0; this stream turns the first failure into an {@link OutputFailure} that leaves the
 * writer (PrintWriter catches only IOException) and ends the command with one line and exit code 1, and fails every
 * later write at once without trying again. Not thread-safe beyond what the writer above it guarantees.
 */
final class CheckedOutput extends FilterOutputStream {
    private IOException failure;

    CheckedOutput(OutputStream out) {
        super(out);
    }

    /** The first write error, or null. */
    IOException failure() {
        return failure;
    }

    @Override
    public void write(int b) {
        check();
        try {
            out.write(b);
        } catch (IOException e) {
            throw fail(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        check();
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw fail(e);
        }
    }

    @Override
    public void flush() {
        check();
        try {
            out.flush();
        } catch (IOException e) {
            throw fail(e);
        }
    }

    private void check() {
        if (failure != null) {
            throw new OutputFailure(failure);
        }
    }

    private OutputFailure fail(IOException e) {
        failure = e;
        return new OutputFailure(e);
    }

    /**
     * Standard output could not be written; its message is the one line the command ends with.
     *
     * <p>Immutable once thrown.
     */
    static final class OutputFailure extends UncheckedIOException {
        private static final long serialVersionUID = 1L;

        OutputFailure(IOException cause) {
            super("cannot write to standard output: " + cause.getMessage(), cause);
        }

        /** A closed pipe ({@code etw dump x.etl | head}): the reader left, nothing to say. */
        boolean brokenPipe() {
            String m = getCause().getMessage();
            return m != null && (m.contains("Broken pipe") || m.contains("pipe is being closed")
                    || m.contains("pipe has been ended"));
        }
    }
}
