package org.etw4j.consumer;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.etw4j.EventDescriptor;
import org.etw4j.Level;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.provider.EtwProvider;
import org.etw4j.sim.SimulatedBackend;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 24, item 4: the first program a user writes. A stream opened over a session and closed inside it (the
 * natural try-with-resources order) used to receive only the header event: the events still in the session's
 * unflushed buffer were dropped with no word. Now every written event is either delivered or reported to
 * {@code onLost} as {@link LostEvents.Source#UNDELIVERED_AT_CLOSE} and counted in the statistics (the stream also
 * logs one warning naming the right order); and stopping the session first (TraceSession.close flushes) delivers them all.
 */
class SessionStreamCloseOrderTest {
    private static final EventDescriptor DONE = new EventDescriptor(1, 0, 0, 4, 0, 0, 0x1L);
    private static final int WRITTEN = 3;

    private static StreamOptions options(Backpressure policy) {
        return policy == Backpressure.NONE ? StreamOptions.DEFAULT : StreamOptions.queued(policy, 64);
    }

    @ParameterizedTest
    @EnumSource(Backpressure.class)
    void aStreamClosedInsideItsSessionReportsTheEventsItWillNeverReceive(Backpressure policy) throws Exception {
        SimulatedBackend backend = new SimulatedBackend();
        AtomicLong received = new AtomicLong();
        AtomicLong reportedLost = new AtomicLong();
        List<LostEvents> reports = new CopyOnWriteArrayList<>();
        EventStream stream;
        // the default flush timer (1 s) does not fire in this program's life: the events stay in the session's buffer
        try (TraceSession session = TraceSession.start(SessionConfig.realTime("natural-" + UUID.randomUUID()).build(), backend);
             EtwProvider provider = EtwProvider.builder("Etw4j-Test-CloseOrder").backend(backend).register()) {
            session.enable(provider.id(), EnableParameters.of(Level.VERBOSE).withCallbackWait(Duration.ofSeconds(10)));
            try (EventStream s = EventStream.openSession(session.name(), backend, options(policy))) {
                stream = s;
                s.onEvent(e -> received.incrementAndGet()); // every record: the session's header record included
                s.onLost(l -> {
                    reports.add(l);
                    reportedLost.addAndGet(l.events());
                });
                s.startAsync();
                for (int i = 0; i < WRITTEN; i++) {
                    assertEquals(0, provider.write(DONE));
                }
            } // the stream closes first, the session after: the natural order
        }
        assertTrue(stream.awaitTermination(Duration.ofSeconds(10)), "the stream ends");
        assertEquals(WRITTEN + 1, received.get() + reportedLost.get(),
                "every record (the header and the events written) is delivered or reported lost; received " + received + ", reports " + reports);
        assertTrue(reports.stream().allMatch(l -> l.source() == LostEvents.Source.UNDELIVERED_AT_CLOSE), reports.toString());
        assertEquals(reportedLost.get(), stream.statistics().undeliveredAtClose(), "counted in the statistics too");
    }

    @ParameterizedTest
    @EnumSource(Backpressure.class)
    void stoppingTheSessionFirstDeliversEveryEvent(Backpressure policy) throws Exception {
        SimulatedBackend backend = new SimulatedBackend();
        AtomicLong received = new AtomicLong();
        List<LostEvents> reports = new CopyOnWriteArrayList<>();
        EventStream stream;
        try (TraceSession session = TraceSession.start(SessionConfig.realTime("ordered-" + UUID.randomUUID()).build(), backend);
             EtwProvider provider = EtwProvider.builder("Etw4j-Test-CloseOrder").backend(backend).register()) {
            session.enable(provider.id(), EnableParameters.of(Level.VERBOSE).withCallbackWait(Duration.ofSeconds(10)));
            stream = EventStream.openSession(session.name(), backend, options(policy));
            stream.onEvent(provider.id(), e -> received.incrementAndGet());
            stream.onLost(reports::add);
            stream.startAsync();
            for (int i = 0; i < WRITTEN; i++) {
                assertEquals(0, provider.write(DONE));
            }
            session.close(); // flushes, then stops: the stream receives every event, then ends
            assertTrue(stream.awaitTermination(Duration.ofSeconds(10)), "the session's end ends the stream");
            stream.close();
        }
        assertEquals(WRITTEN, received.get());
        assertEquals(List.of(), reports);
        assertEquals(0, stream.statistics().undeliveredAtClose());
    }
}
