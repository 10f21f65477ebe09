package org.etw4j.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.junit.jupiter.api.Test;

/**
 * {@code @EtwTest(privateSession = true)}: the capture runs through a private in-process session (file only; on
 * Windows 10 1703+ without elevation) and reads its file back at each wait, with the same assertions as a
 * real-time capture. Here on the simulated ETW; the Windows case is RealEtwTest's private-session test.
 */
@EtwTest(providers = OrderService.PROVIDER, privateSession = true)
class PrivateSessionCaptureTest extends WithOrderService {
    /** evntcons.h (Windows SDK, mingw-w64 alike): the header flag of an event a private session delivered. */
    private static final int EVENT_HEADER_FLAG_PRIVATE_SESSION = 0x0002;

    @Test
    void theEventsArriveThroughThePrivateSessionsFile(CapturedEvents events) {
        assertTrue(events.session().config().privateInProcess());
        assertFalse(events.session().config().realTime());
        Path file = events.session().config().logFile();
        service.place("A-17", new String[] {"book", "pen"}, 23.5, true);

        events.assertThat()
                .hasEvent("OrderPlaced").withField("orderId", "A-17").withField("items", 2).withField("total", 23.5)
                        .withLevel(Level.INFORMATIONAL).once()
                .and()
                .containsInOrder("Order", "CartDetail", "CartDetail", "OrderPlaced", "Payment", "Payment", "Order")
                .hasNoLostEvents();
        assertEquals(7, events.size());
        for (EventRecord e : events.events()) {
            assertEquals(EVENT_HEADER_FLAG_PRIVATE_SESSION, e.headerFlags() & EVENT_HEADER_FLAG_PRIVATE_SESSION, e.eventName());
        }
        assertTrue(Files.exists(file), "the session writes " + file);
    }

    @Test
    void clearForgetsWhatWasReadAndLaterEventsStillArrive(CapturedEvents events) {
        service.place("B-1", new String[] {"cup"}, 4.0, true);
        assertEquals(6, events.size());
        events.clear();
        assertEquals(0, events.size());
        service.place("B-2", new String[] {"cup", "mug"}, 9.0, true);
        events.assertThat().hasEvent("OrderPlaced").withField("orderId", "B-2").once();
        assertEquals(7, events.size());
        assertEquals(0, events.lostEvents());
    }
}
