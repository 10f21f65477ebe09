package org.etw4j.consumer;

import java.util.Objects;

/**
 * How a live {@link EventStream} hands records from the session's delivery thread to its handlers.
 *
 * <p>Immutable record; thread-safe. File streams ignore these options: their handlers always run on the
 * reading thread with the reader's views (nothing is lost by reading slowly).
 *
 * @param backpressure  the hand-off policy
 * @param queueCapacity records the queue holds (ignored for {@link Backpressure#NONE}); at least 1
 */
public record StreamOptions(Backpressure backpressure, int queueCapacity) {

    /** The default: a queue of 8192 records, blocking the delivery thread when full. */
    public static final StreamOptions DEFAULT = new StreamOptions(Backpressure.BLOCK, 8192);

    public StreamOptions {
        Objects.requireNonNull(backpressure, "backpressure");
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("queueCapacity must be at least 1, got " + queueCapacity);
        }
    }

    /** Handlers on the delivery thread, no queue. */
    public static StreamOptions direct() {
        return new StreamOptions(Backpressure.NONE, 1);
    }

    /** A queue of {@code capacity} records with {@code policy}. */
    public static StreamOptions queued(Backpressure policy, int capacity) {
        return new StreamOptions(policy, capacity);
    }
}
