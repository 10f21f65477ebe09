package org.etw4j.consumer;

/**
 * What a live {@link EventStream} does when its handlers fall behind the session's delivery thread.
 *
 * <p>Enum constants: immutable, thread-safe. Whatever the policy, no event disappears without being counted:
 * {@link EventStreamStatistics} and {@link EventStream#onLost} account for every one.
 */
public enum Backpressure {
    /**
     * Handlers run on the delivery thread itself (no queue, no copy): the record is the backend's view, valid
     * only during the handler call. A slow handler slows delivery; ETW then loses events in the session, reported
     * as {@link LostEvents.Source#SESSION}.
     */
    NONE,
    /**
     * A bounded queue between the delivery thread and the handler thread; when it is full the delivery thread
     * waits. ETW then keeps events in its buffers and, when they run out, loses them in the session (counted by the
     * session and reported as {@link LostEvents.Source#SESSION}, never silently).
     */
    BLOCK,
    /**
     * A bounded queue; when it is full the newest record is dropped, counted in
     * {@link EventStreamStatistics#droppedByStream()} and reported through {@link EventStream#onLost} as
     * {@link LostEvents.Source#STREAM_QUEUE} before the next record is handled.
     */
    DROP_NEWEST
}
