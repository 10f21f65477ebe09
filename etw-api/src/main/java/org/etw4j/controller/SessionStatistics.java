package org.etw4j.controller;

/**
 * A session's counters at one moment ({@code EVENT_TRACE_PROPERTIES} after ControlTrace QUERY).
 *
 * <p>Immutable record; thread-safe. For every session {@code eventsAccepted = eventsDelivered + eventsLost +
 * eventsPending}: events are never dropped silently. {@code eventsDelivered} counts events handed to every
 * real-time consumer attached at the time or written to the log file; {@code eventsPending} those still in
 * buffers. On Windows, counters ETW does not report are -1.
 *
 * @param eventsAccepted         events that passed this session's filters
 * @param eventsDelivered        events delivered to consumers or the log file
 * @param eventsLost             events lost (no free buffer, or discarded undelivered)
 * @param eventsPending          events still buffered
 * @param buffersWritten         buffers delivered or written
 * @param buffersLost            buffers discarded
 * @param realTimeBuffersLost    buffers a real-time session discarded with no consumer to take them
 * @param numberOfBuffers        buffers allocated now
 * @param freeBuffers            buffers free now
 */
public record SessionStatistics(long eventsAccepted, long eventsDelivered, long eventsLost, long eventsPending,
                                long buffersWritten, long buffersLost, long realTimeBuffersLost, int numberOfBuffers,
                                int freeBuffers) {
}
