package org.etw4j.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The clock fact keeps the names {@code etw summary} and the report showed before the consumer's own ClockType enum
 * was merged into etw-api's (issue 19, item 7: a move, not a change of output).
 */
class TraceFactsTest {

    @Test
    void theClockFactNamesEveryReservedFlagsCodeAsBefore() {
        assertEquals(List.of("RAW", "PERFORMANCE_COUNTER", "SYSTEM_TIME", "CPU_CYCLE", "UNKNOWN", "UNKNOWN", "UNKNOWN"),
                List.of(TraceFacts.clockName(0), TraceFacts.clockName(1), TraceFacts.clockName(2),
                        TraceFacts.clockName(3), TraceFacts.clockName(4), TraceFacts.clockName(0x1_0000_0001L),
                        TraceFacts.clockName(-1)),
                "ReservedFlags 0-3 (ntwmi.h EVENT_TRACE_CLOCK_*), then codes no clock has");
    }
}
