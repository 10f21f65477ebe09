package org.etw4j.cli;

/**
 * The command line asks for something the command cannot do, found where no picocli {@code CommandLine} is at
 * hand (a helper checking an option's value): exit code {@value EtwCommand#USAGE}, the message naming the option.
 *
 * <p>Immutable once thrown; thread-safe.
 */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
