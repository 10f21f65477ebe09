package org.etw4j.consumer;

import java.io.IOException;

/**
 * A file or manifest that {@link TraceFile#open} (or {@link EventStream#openFiles}) could not open or read:
 * {@link #source()} names it ({@code "manifest NAME"} or the file's path), the cause is the reader's or the parser's
 * exception, unchanged, so callers can tell a missing file from a malformed one.
 *
 * <p>Immutable; thread-safe.
 */
public final class ReadSetupException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String source;

    ReadSetupException(String source, Throwable cause) {
        super(source + ": " + cause.getMessage(), cause);
        this.source = source;
    }

    /** What could not be read: {@code "manifest NAME"}, or the path of an .etl file. */
    public String source() {
        return source;
    }
}
