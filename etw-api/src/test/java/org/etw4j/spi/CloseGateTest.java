package org.etw4j.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The close protocol: nothing is inside the gate once awaitQuiet returns, even with writers racing the close. */
class CloseGateTest {

    @Test
    void anOpenGateLetsInAndAClosedOneTurnsBack() {
        CloseGate gate = new CloseGate();
        assertTrue(gate.enterWrite());
        gate.exitWrite();
        assertTrue(gate.enterNotification());
        assertEquals(1, gate.notificationsOnThisThread());
        gate.exitNotification();
        assertEquals(0, gate.notificationsOnThisThread());
        assertTrue(gate.markClosed());
        assertFalse(gate.markClosed(), "the second close is a no-op");
        assertTrue(gate.isClosed());
        assertFalse(gate.enterWrite());
        assertFalse(gate.enterNotification());
        assertEquals(0, gate.notificationsOnThisThread(), "a turned-back notification leaves no count behind");
        gate.awaitQuiet(0); // nothing inside: returns at once
    }

    @Test
    void awaitQuietBeforeCloseIsRefused() {
        assertThrows(IllegalStateException.class, () -> new CloseGate().awaitQuiet(0));
    }

    @Test
    void aNotificationMayCloseItsOwnGate() {
        CloseGate gate = new CloseGate();
        assertTrue(gate.enterNotification());
        assertTrue(gate.markClosed());
        int own = gate.notificationsOnThisThread();
        assertEquals(1, own);
        gate.awaitQuiet(own); // would never return if it waited for itself
        gate.exitNotification();
        gate.awaitQuiet(0);
    }

    @Test
    void closeReleasesOnceOnTheClosingThread() {
        CloseGate gate = new CloseGate();
        gate.opened();
        AtomicInteger releases = new AtomicInteger();
        AtomicReference<Thread> on = new AtomicReference<>();
        assertTrue(gate.close(() -> {
            releases.incrementAndGet();
            on.set(Thread.currentThread());
        }));
        assertEquals(1, releases.get());
        assertSame(Thread.currentThread(), on.get());
        assertFalse(gate.close(releases::incrementAndGet), "idempotent");
        assertEquals(1, releases.get());
    }

    /**
     * Inside its own notification, close() must not release (EventUnregister would wait for this very callback):
     * it returns at once, the gate closed, and the release runs on another thread after the notification exits.
     */
    @Test
    void closeInsideItsOwnNotificationReleasesLaterOnAnotherThread() throws Exception {
        CloseGate gate = new CloseGate();
        AtomicBoolean notificationExited = new AtomicBoolean();
        AtomicBoolean releasedAfterExit = new AtomicBoolean();
        AtomicReference<Thread> on = new AtomicReference<>();
        CountDownLatch released = new CountDownLatch(1);
        assertTrue(gate.enterNotification());
        assertTrue(gate.close(() -> {
            releasedAfterExit.set(notificationExited.get());
            on.set(Thread.currentThread());
            released.countDown();
        }));
        assertTrue(gate.isClosed());
        assertFalse(gate.enterWrite(), "closed at once");
        Thread.sleep(50);
        assertEquals(1, released.getCount(), "released while the notification was still running");
        notificationExited.set(true);
        gate.exitNotification();
        Thread.sleep(50);
        assertEquals(1, released.getCount(), "released before the register call returned (opened())");
        gate.opened();
        assertTrue(released.await(10, TimeUnit.SECONDS), "the deferred release never ran");
        assertTrue(releasedAfterExit.get());
        assertNotSame(Thread.currentThread(), on.get());
        assertEquals(DeferredReleases.THREAD_NAME, on.get().getName());
        assertTrue(on.get().isDaemon());
    }

    @Test
    void closeWaitsForAWriteAlreadyInside() throws Exception {
        CloseGate gate = new CloseGate();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean exited = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            assertTrue(gate.enterWrite());
            inside.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exited.set(true);
            gate.exitWrite();
        });
        writer.start();
        assertTrue(inside.await(10, TimeUnit.SECONDS));
        gate.markClosed();
        Thread releaser = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            release.countDown();
        });
        releaser.start();
        gate.awaitQuiet(0);
        assertTrue(exited.get(), "awaitQuiet returned while a write was still inside");
        writer.join(10_000);
        releaser.join(10_000);
    }

    /**
     * Writers and notifiers enter and exit in a loop while the gate closes; after awaitQuiet no thread may be (or
     * get) inside. Each thread marks itself inside with its own counter, checked by the closer.
     */
    @Test
    void noOperationIsInsideOnceAwaitQuietReturns() throws Exception {
        long totalEntered = 0;
        for (int round = 0; round < 200; round++) {
            CloseGate gate = new CloseGate();
            AtomicInteger inside = new AtomicInteger();
            AtomicBoolean quiet = new AtomicBoolean();
            AtomicLong violations = new AtomicLong();
            AtomicLong entered = new AtomicLong();
            CountDownLatch started = new CountDownLatch(4);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                boolean notifier = t % 2 == 1;
                Thread th = new Thread(() -> {
                    started.countDown();
                    while (true) {
                        boolean in = notifier ? gate.enterNotification() : gate.enterWrite();
                        if (!in) {
                            if (quiet.get() || gate.isClosed()) {
                                return;
                            }
                            continue;
                        }
                        entered.incrementAndGet();
                        inside.incrementAndGet();
                        if (quiet.get()) {
                            violations.incrementAndGet(); // let in after the closer saw the gate quiet
                        }
                        Thread.onSpinWait();
                        inside.decrementAndGet();
                        if (notifier) {
                            gate.exitNotification();
                        } else {
                            gate.exitWrite();
                        }
                    }
                });
                threads.add(th);
                th.start();
            }
            assertTrue(started.await(10, TimeUnit.SECONDS));
            Thread.sleep(0, 200_000);
            assertTrue(gate.markClosed());
            gate.awaitQuiet(0);
            quiet.set(true);
            assertEquals(0, inside.get(), "round " + round + ": an operation was inside after awaitQuiet");
            for (Thread th : threads) {
                th.join(10_000);
                assertFalse(th.isAlive());
            }
            assertEquals(0, violations.get(), "round " + round + ": an operation entered after awaitQuiet");
            assertEquals(0, inside.get());
            totalEntered += entered.get();
        }
        assertTrue(totalEntered > 0, "the threads never got in: the race was not exercised");
    }
}
