package org.etw4j.consumer.etl;

import java.util.Objects;

/**
 * How an {@link EtlFile} deals with malformed input.
 *
 * <p>Immutable value; thread-safe. Lenient (the default): malformed buffers and records are skipped,
 * counted and reported to the listener. Strict: the first such problem throws an
 * {@link EtlFormatException}. A file whose header buffer is unreadable always throws.
 *
 * @param strict   whether problems throw instead of being skipped
 * @param listener receives warnings in lenient mode
 */
public record EtlReadOptions(boolean strict, EtlWarningListener listener) {

    /** Lenient, warnings counted but not reported anywhere else. */
    public static final EtlReadOptions DEFAULT = new EtlReadOptions(false, EtlWarningListener.IGNORE);

    public EtlReadOptions {
        Objects.requireNonNull(listener, "listener");
    }

    /** Lenient, warnings also sent to {@code listener}. */
    public static EtlReadOptions lenient(EtlWarningListener listener) {
        return new EtlReadOptions(false, listener);
    }

    /** Strict: the first problem throws. */
    public static EtlReadOptions strictMode() {
        return new EtlReadOptions(true, EtlWarningListener.IGNORE);
    }
}
