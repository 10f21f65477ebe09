package org.etw4j.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The split between the counters Windows reports and the simulator-only ones. */
class SessionStatisticsTest {

    @Test
    void windowsStatisticsCarryTheEventTracePropertiesCountersAndNoEventCounts() {
        SessionStatistics s = SessionStatistics.reportedByWindows(7, 3, 2, 1, 8, 5);
        assertFalse(s.reportsEventCounts());
        assertEquals(OptionalLong.empty(), s.acceptedEvents());
        assertEquals(OptionalLong.empty(), s.deliveredEvents());
        assertEquals(OptionalLong.empty(), s.pendingEvents());
        assertEquals(SessionStatistics.NOT_REPORTED, s.eventsAccepted());
        assertEquals(7, s.eventsLost());
        assertEquals(3, s.buffersWritten());
        assertEquals(2, s.buffersLost());
        assertEquals(1, s.realTimeBuffersLost());
        assertEquals(8, s.numberOfBuffers());
        assertEquals(5, s.freeBuffers());
    }

    @Test
    void simulatedStatisticsReportEventCounts() {
        SessionStatistics s = new SessionStatistics(10, 6, 3, 1, 2, 0, 0, 4, 4);
        assertTrue(s.reportsEventCounts());
        assertEquals(OptionalLong.of(10), s.acceptedEvents());
        assertEquals(OptionalLong.of(6), s.deliveredEvents());
        assertEquals(OptionalLong.of(1), s.pendingEvents());
    }
}
