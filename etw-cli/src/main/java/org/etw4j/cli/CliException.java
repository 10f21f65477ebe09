package org.etw4j.cli;

/**
 * A command failed for a reason the user can act on; its message is printed as the command's one-line error
 * (exit code 1).
 *
 * <p>Immutable once thrown; thread-safe.
 */
public final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CliException(String message) {
        super(message);
    }

    public CliException(String message, Throwable cause) {
        super(message, cause);
    }
}
