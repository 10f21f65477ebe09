package org.etw4j.controller;

import java.util.OptionalLong;

/**
 * A session's counters at one moment ({@code EVENT_TRACE_PROPERTIES} after ControlTrace QUERY).
 *
 * <p>Immutable record; thread-safe. Two kinds of counters:
 * <ul>
 *   <li>What Windows reports, in {@code EVENT_TRACE_PROPERTIES} (MS Learn, EVENT_TRACE_PROPERTIES): events lost
 *       ({@code EventsLost}), buffers written ({@code BuffersWritten}), buffers lost ({@code LogBuffersLost}),
 *       real-time buffers lost ({@code RealTimeBuffersLost}), buffers allocated ({@code NumberOfBuffers}) and free
 *       ({@code FreeBuffers}). Every backend fills these.</li>
 *   <li>Simulator only: events accepted, delivered and pending. Windows counts no such thing; the Windows backend
 *       reports them as {@link #NOT_REPORTED} and {@link #reportsEventCounts()} is false. Where they are reported
 *       (the simulated backend) {@code eventsAccepted = eventsDelivered + eventsLost + eventsPending}: events are
 *       never dropped silently. Read them through {@link #acceptedEvents()}, {@link #deliveredEvents()} and
 *       {@link #pendingEvents()} to handle both cases.</li>
 * </ul>
 *
 * @param eventsAccepted         simulator only: events that passed this session's filters, or {@link #NOT_REPORTED}
 * @param eventsDelivered        simulator only: events delivered to consumers or the log file, or {@link #NOT_REPORTED}
 * @param eventsLost             events lost (no free buffer, or discarded undelivered): Windows' EventsLost
 * @param eventsPending          simulator only: events still buffered, or {@link #NOT_REPORTED}
 * @param buffersWritten         buffers delivered or written: Windows' BuffersWritten
 * @param buffersLost            buffers discarded: Windows' LogBuffersLost
 * @param realTimeBuffersLost    buffers a real-time session discarded with no consumer to take them: Windows'
 *                               RealTimeBuffersLost
 * @param numberOfBuffers        buffers allocated now: Windows' NumberOfBuffers
 * @param freeBuffers            buffers free now: Windows' FreeBuffers
 */
public record SessionStatistics(long eventsAccepted, long eventsDelivered, long eventsLost, long eventsPending,
                                long buffersWritten, long buffersLost, long realTimeBuffersLost, int numberOfBuffers,
                                int freeBuffers) {

    /** The value of a simulator-only counter a backend cannot report (Windows). */
    public static final long NOT_REPORTED = -1;

    /**
     * The counters Windows reports ({@code EVENT_TRACE_PROPERTIES}); the simulator-only ones are
     * {@link #NOT_REPORTED}.
     */
    public static SessionStatistics reportedByWindows(long eventsLost, long buffersWritten, long buffersLost,
                                                      long realTimeBuffersLost, int numberOfBuffers, int freeBuffers) {
        return new SessionStatistics(NOT_REPORTED, NOT_REPORTED, eventsLost, NOT_REPORTED, buffersWritten, buffersLost,
                realTimeBuffersLost, numberOfBuffers, freeBuffers);
    }

    /** Whether the simulator-only counts (accepted, delivered, pending) are reported: false on Windows. */
    public boolean reportsEventCounts() {
        return eventsAccepted != NOT_REPORTED && eventsDelivered != NOT_REPORTED && eventsPending != NOT_REPORTED;
    }

    /** Events accepted by the session's filters; empty on Windows, which does not count them. */
    public OptionalLong acceptedEvents() {
        return eventsAccepted == NOT_REPORTED ? OptionalLong.empty() : OptionalLong.of(eventsAccepted);
    }

    /** Events delivered to consumers or the log file; empty on Windows, which does not count them. */
    public OptionalLong deliveredEvents() {
        return eventsDelivered == NOT_REPORTED ? OptionalLong.empty() : OptionalLong.of(eventsDelivered);
    }

    /** Events still buffered; empty on Windows, which does not count them. */
    public OptionalLong pendingEvents() {
        return eventsPending == NOT_REPORTED ? OptionalLong.empty() : OptionalLong.of(eventsPending);
    }
}
