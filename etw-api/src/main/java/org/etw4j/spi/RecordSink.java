package org.etw4j.spi;

/**
 * Receives the records a {@link TraceConsumer} delivers ({@code PEVENT_RECORD_CALLBACK}, MS Learn, PEVENT_RECORD_CALLBACK callback function).
 *
 * <p>Called on the thread running {@link TraceConsumer#process()}, one record at a time, in timestamp order
 * within each buffer stream. The record is a view valid only during the call. Exceptions thrown here are
 * caught by the backend and handed to {@link #onError(Throwable)}; they never escape into native code.
 */
public interface RecordSink {

    /** One event. */
    void onRecord(RawEventRecord record);

    /** The session reported that {@code events} events (or buffers, in {@code buffers}) were lost. */
    default void onLost(long events, long buffers) {
    }

    /** A handler failed. */
    default void onError(Throwable error) {
    }
}
