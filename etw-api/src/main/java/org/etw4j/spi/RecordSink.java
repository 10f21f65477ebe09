package org.etw4j.spi;

import org.etw4j.RawEventRecord;
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

    /**
     * The records of one buffer have all been delivered: the {@code BufferCallback} (MS Learn,
     * PEVENT_TRACE_BUFFER_CALLBACKW: "ETW calls this function after the events for each buffer are delivered"),
     * once per buffer, on the thread running {@link TraceConsumer#process()}, after that buffer's last
     * {@link #onRecord}. Not called for the synthetic header event, which no session buffer carries in the
     * simulator (issue 21, item 8: before, the stand-in called the BufferCallback only on losses).
     */
    default void onBufferDelivered() {
    }

    /**
     * The consumer was closed ({@link TraceConsumer#close()}) while its session still held {@code events} events
     * for it in buffers ETW had not yet delivered to this consumer (a partly filled buffer the flush timer had not
     * sent): they will never reach this consumer. Called at most once, on the thread running
     * {@link TraceConsumer#process()} just before it returns (or during {@code close()} when the trace was never
     * processed), and only by backends that can count them: the simulator does; Windows does not report what its
     * session buffers hold, so the Windows backends never call it. Issue 24, item 4: before this, a stream closed
     * inside its session lost those events with no word.
     */
    default void onUndelivered(long events, long buffers) {
    }

    /** A handler failed. */
    default void onError(Throwable error) {
    }
}
