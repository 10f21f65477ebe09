package org.etw4j.consumer;

/**
 * A report of events an {@link EventStream} will never deliver, and why.
 *
 * <p>Immutable record; thread-safe.
 *
 * @param source  who lost them
 * @param events  number of events
 * @param buffers number of whole buffers, when the source reports buffers (ETW real-time sessions may); else 0
 */
public record LostEvents(Source source, long events, long buffers) {

    /** Where events were lost. */
    public enum Source {
        /**
         * The trace session lost them (no free buffer, a consumer too slow, ...): reported by ETW during a live
         * stream, or the EventsLost / BuffersLost counts of an .etl file's header for a file stream.
         */
        SESSION,
        /** The stream's own bounded queue dropped them ({@link Backpressure#DROP_NEWEST}). */
        STREAM_QUEUE,
        /**
         * The stream was closed while its session still held events for it: in the session's buffers (ETW had not
         * delivered them to the stream's consumer, counted by the backend where it can count them) or delivered
         * after the close (counted by the stream). Stop the session first ({@code TraceSession.close()} flushes,
         * and the stream then ends by itself with every event), or flush it, before closing the stream.
         */
        UNDELIVERED_AT_CLOSE
    }
}
