package org.etw4j.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.etw4j.provider.EtwProvider;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** Events arrive on another thread: sync() and the awaits make tests deterministic without sleeping. */
@EtwTest(providers = WaitingTest.PROVIDER)
class WaitingTest {
    static final String PROVIDER = "Etw4j-JUnit-Waiting";

    @Test
    void afterTheWritersAreJoinedEveryEventIsThereWithoutSleeping(CapturedEvents events) throws Exception {
        int threads = 4;
        int perThread = 2500;
        try (EtwProvider p = EtwProvider.register(PROVIDER)) {
            Thread[] writers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                String label = "t" + t;
                writers[t] = new Thread(() -> {
                    for (int i = 0; i < perThread; i++) {
                        p.event(Fixtures.TICK).int32(i).string(label).write();
                    }
                });
                writers[t].start();
            }
            for (Thread w : writers) {
                w.join();
            }
            assertEquals(0, p.statistics().failures(), "every write accepted");
        }
        // No sleep, no await: sync() (behind size()) flushes and waits for what the session delivered.
        assertEquals(threads * perThread, events.size());
        events.assertThat().hasNoLostEvents();
        for (int t = 0; t < threads; t++) {
            String label = "t" + t;
            List<Integer> ns = events.events().stream().filter(e -> label.equals(e.getString("label"))).map(e -> e.getInt("n")).toList();
            assertEquals(perThread, ns.size());
            for (int i = 0; i < perThread; i++) {
                assertEquals(i, ns.get(i), "each writer's events in its order");
            }
        }
        if (!events.session().backend().isNative()) { // real ETW does not count delivered events (-1)
            assertEquals(events.session().statistics().eventsDelivered(), events.size(), "captured = what the session delivered");
        }
    }

    @Test
    void awaitCountWaitsForAWriterStillRunning(CapturedEvents events) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        Thread writer = new Thread(() -> {
            try (EtwProvider p = EtwProvider.register(PROVIDER)) {
                go.await();
                for (int i = 0; i < 5; i++) {
                    p.event(Fixtures.TICK).int32(i).string("late").write();
                    Thread.sleep(20);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        writer.start();
        go.countDown();
        List<EventRecord> five = events.awaitCount(5);
        assertEquals(List.of(0, 1, 2, 3, 4), five.stream().map(e -> e.getInt("n")).toList());
        writer.join();
    }

    @Test
    void awaitEventReturnsTheFirstMatch(CapturedEvents events) {
        try (EtwProvider p = EtwProvider.register(PROVIDER)) {
            p.event(Fixtures.TICK).int32(7).string("a").write();
            p.event(Fixtures.TICK).int32(8).string("b").write();
        }
        EventRecord tick = events.awaitEvent("Tick");
        assertEquals(7, tick.getInt("n"));
        assertTrue(tick.isCopy(), "captured events outlive the callback");
    }

    @Test
    void aWaitThatTimesOutFailsWithWhatArrived(CapturedEvents events) {
        Fixtures.ticks(PROVIDER, 2, "only");
        AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> events.awaitCount(3, Duration.ofMillis(150)));
        assertTrue(e.getMessage().startsWith("expected at least 3 events within PT0.15S, got 2\nCaptured 2 events (session "
                + events.sessionName() + ", "), e.getMessage());
    }

    @Test
    void clearForgetsTheFirstPhase(CapturedEvents events) {
        Fixtures.ticks(PROVIDER, 3, "before");
        events.clear();
        Fixtures.ticks(PROVIDER, 2, "after");
        events.assertThat().hasSize(2).allSatisfy("be written after clear()", e -> "after".equals(e.getString("label")));
    }

    @Test
    void theSessionEnablesExactlyWhatTheAnnotationSays(CapturedEvents events) {
        try (EtwProvider p = EtwProvider.register(PROVIDER)) {
            assertTrue(p.isEnabled(Level.VERBOSE.value(), 0x8000_0000_0000_0000L), "level VERBOSE, any keyword");
        }
        assertTrue(events.sessionName().startsWith(EtwExtension.SESSION_PREFIX + "theSessionEnablesExactlyWhatTheAnnotationSays-"));
        assertTrue(Fixtures.runningSessions().contains(events.sessionName()));
    }
}
