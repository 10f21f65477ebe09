package org.etw4j;

/**
 * A failed ETW control or consumption call: the function, the Win32 status and its symbol, with advice.
 *
 * <p>Immutable; thread-safe. Thrown by controller and consumer operations (start, enable, stop, open...).
 * Event writes never throw it: they return the status and count it (MS Learn, EventWrite function: production code keeps running
 * when an event cannot be written). The message reads like
 * {@code StartTraceW failed: ERROR_ACCESS_DENIED (5): access denied. Run elevated ...}.
 */
public class EtwException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String function;
    private final int status;

    /** A failure of {@code function} with Win32 {@code status}; {@code detail} may add context (or be null). */
    public EtwException(String function, int status, String detail) {
        super(message(function, status, detail));
        this.function = function;
        this.status = status;
    }

    /** The ETW function that failed, e.g. {@code EnableTraceEx2}. */
    public String function() {
        return function;
    }

    /** The raw Win32 status code. */
    public int status() {
        return status;
    }

    /** The status as a known error, or {@link Win32Error#UNKNOWN}. */
    public Win32Error error() {
        return Win32Error.of(status);
    }

    private static String message(String function, int status, String detail) {
        Win32Error e = Win32Error.of(status);
        StringBuilder sb = new StringBuilder();
        sb.append(function).append(" failed: ").append(Win32Error.describe(status)).append(": ").append(e.description());
        if (detail != null && !detail.isEmpty()) {
            sb.append(" (").append(detail).append(')');
        }
        if (!e.advice().isEmpty()) {
            sb.append(". ").append(Character.toUpperCase(e.advice().charAt(0))).append(e.advice().substring(1));
        }
        return sb.append('.').toString();
    }
}
