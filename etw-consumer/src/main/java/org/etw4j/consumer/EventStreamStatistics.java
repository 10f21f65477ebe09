package org.etw4j.consumer;

/**
 * Counters of an {@link EventStream} at one moment.
 *
 * <p>Immutable record; thread-safe. Once the stream has terminated, {@code received = dispatched +
 * droppedByStream + discardedAtClose}: every record the source delivered was either handed to the handlers,
 * dropped by the queue (and reported), or still queued when {@link EventStream#close()} cut the stream short.
 *
 * @param received         records the source delivered to the stream (the trace's own header record included)
 * @param dispatched       records handed to the handlers (whether or not a handler matched)
 * @param droppedByStream  records the stream's queue dropped ({@link Backpressure#DROP_NEWEST})
 * @param discardedAtClose records still queued, or being queued, when the stream was closed
 * @param lostBySession    events the session reported lost (live), or the files' EventsLost (file streams)
 * @param handlerErrors    exceptions thrown by handlers (each also passed to {@code onError})
 * @param undeliveredAtClose events a live stream will never receive because it was closed while its session still
 *                         held them ({@code discardedAtClose} plus what the backend counted in the session's
 *                         buffers), reported to {@code onLost} as {@link LostEvents.Source#UNDELIVERED_AT_CLOSE};
 *                         0 when the session ended first
 */
public record EventStreamStatistics(long received, long dispatched, long droppedByStream, long discardedAtClose,
                                    long lostBySession, long handlerErrors, long undeliveredAtClose) {
}
