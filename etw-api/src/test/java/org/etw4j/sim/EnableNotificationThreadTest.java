package org.etw4j.sim;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.ProviderRegistration;
import org.etw4j.spi.SessionControl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 8 (1): enable callbacks as Windows runs them, on a notification thread of the provider's process
 * (MS Learn, PENABLECALLBACK callback function; EnableTraceEx2, Timeout), in {@link new SimulatedBackend()}.
 * Before, the simulator called them synchronously on the enabling thread under its global lock: a callback that
 * takes a (non-reentrant) lock the enabling thread holds deadlocked, where on Windows it only waits for the lock.
 */
class EnableNotificationThreadTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private final SimulatedBackend backend = new SimulatedBackend();
    private final Guid provider = Guid.of(UUID.randomUUID());
    private SessionControl session;
    private ProviderRegistration registration;

    /** One notification as the callback saw it. */
    private record Seen(int code, String thread) {
    }

    @AfterEach
    void tearDown() {
        if (registration != null) {
            registration.close();
        }
        if (session != null) {
            session.stop();
        }
    }

    private SessionControl session() {
        session = backend.startSession(SessionConfig.realTime("notify-" + UUID.randomUUID()).build());
        return session;
    }

    private void register(EnableCallback callback) {
        registration = backend.registerProvider(provider, callback);
    }

    @Test
    void aCallbackTakingALockTheEnablingThreadHoldsRunsOnceTheLockIsReleased() throws Exception {
        Semaphore lock = new Semaphore(1); // not reentrant: on the enabling thread the callback would wait for itself
        List<Seen> seen = new CopyOnWriteArrayList<>();
        CountDownLatch called = new CountDownLatch(1);
        register((code, source, level, any, all, filters) -> {
            lock.acquireUninterruptibly();
            try {
                seen.add(new Seen(code, Thread.currentThread().getName()));
            } finally {
                lock.release();
            }
            called.countDown();
        });
        SessionControl s = session();
        lock.acquire();
        try {
            s.enableProvider(provider, EnableParameters.of(Level.VERBOSE)); // Timeout 0: returns without waiting
            assertEquals(List.of(), seen, "the callback waits for the lock the enabling thread holds");
        } finally {
            lock.release();
        }
        assertTrue(called.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the callback ran once the lock was released");
        assertEquals(1, seen.get(0).code());
        assertNotEquals(Thread.currentThread().getName(), seen.get(0).thread(), "not on the enabling thread");
    }

    @Test
    void waitingForCallbacksMeansEnabledBeforeReturn() {
        List<Seen> seen = new CopyOnWriteArrayList<>();
        register((code, source, level, any, all, filters) -> {
            sleep(50); // a slow callback: the enable still returns after it
            seen.add(new Seen(code, Thread.currentThread().getName()));
        });
        session().enableProvider(provider, EnableParameters.of(Level.VERBOSE).withCallbackWait(WAIT));
        assertEquals(1, seen.size(), "the callback ran before enableProvider returned");
        assertNotEquals(Thread.currentThread().getName(), seen.get(0).thread());
    }

    @Test
    void aWaitingEnableWhoseCallbackIsBlockedReturnsAfterItsWaitWithTheChangeMade() throws Exception {
        Semaphore lock = new Semaphore(1);
        CountDownLatch called = new CountDownLatch(1);
        register((code, source, level, any, all, filters) -> {
            lock.acquireUninterruptibly();
            lock.release();
            called.countDown();
        });
        SessionControl s = session();
        lock.acquire();
        long start = System.nanoTime();
        try {
            // as EnableTraceEx2 answers ERROR_TIMEOUT: the wait runs out, the enable is made, nothing deadlocks
            s.enableProvider(provider, EnableParameters.of(Level.VERBOSE).withCallbackWait(Duration.ofMillis(200)));
        } finally {
            lock.release();
        }
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(200), "it waited its 200 ms");
        assertTrue(called.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals(0, registration.write(org.etw4j.EventDescriptor.of(1, Level.INFORMATIONAL, 1), null, null,
                new org.etw4j.provider.EventData()));
        assertEquals(1, s.query().eventsAccepted(), "the session enables the provider: it accepted the event");
    }

    @Test
    void callbacksRunInTheOrderOfTheControllersCalls() throws Exception {
        List<Integer> codes = new CopyOnWriteArrayList<>();
        CountDownLatch three = new CountDownLatch(3);
        register((code, source, level, any, all, filters) -> {
            codes.add(code);
            three.countDown();
        });
        SessionControl s = session();
        s.enableProvider(provider, EnableParameters.of(Level.VERBOSE));
        s.captureState(provider, EnableParameters.of(Level.VERBOSE));
        s.disableProvider(provider);
        assertTrue(three.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals(List.of(1, 2, 0), codes, "ENABLE, CAPTURE_STATE, DISABLE");
    }

    @Test
    void aProviderRegisteringWhileEnabledIsCalledBackInsideEventRegisterOnItsOwnThread() {
        SessionControl s = session();
        s.enableProvider(provider, EnableParameters.of(Level.VERBOSE));
        List<Seen> seen = new CopyOnWriteArrayList<>();
        register((code, source, level, any, all, filters) -> seen.add(new Seen(code, Thread.currentThread().getName())));
        assertEquals(List.of(new Seen(1, Thread.currentThread().getName())), seen, "issue 21, item 5: inside EventRegister");
    }

    @Test
    void theSharedMachineCallsBackOnItsNotificationThreadToo() throws Exception {
        SimulatedBackend shared = SimulatedBackend.shared();
        List<Seen> seen = new CopyOnWriteArrayList<>();
        try (ProviderRegistration r = shared.registerProvider(provider, (code, source, level, any, all, filters) ->
                seen.add(new Seen(code, Thread.currentThread().getName())))) {
            SessionControl s = shared.startSession(SessionConfig.realTime("notify-shared-" + UUID.randomUUID()).build());
            try {
                s.enableProvider(provider, EnableParameters.of(Level.VERBOSE).withCallbackWait(WAIT));
                assertEquals(1, seen.size());
                assertNotEquals(Thread.currentThread().getName(), seen.get(0).thread());
            } finally {
                s.stop();
            }
        }
    }

    @Test
    void aWaitingDisableReturnsOnceTheProviderSawIt() {
        List<Integer> codes = new CopyOnWriteArrayList<>();
        register((code, source, level, any, all, filters) -> {
            sleep(20); // a slow callback: the disable still returns after it
            codes.add(code);
        });
        org.etw4j.controller.TraceSession s = org.etw4j.controller.TraceSession.start(
                SessionConfig.realTime("notify-disable-" + UUID.randomUUID()).build(), backend);
        try {
            s.enable(provider, EnableParameters.of(Level.VERBOSE).withCallbackWait(WAIT));
            s.disable(provider, WAIT);
            assertEquals(List.of(1, 0), codes, "ENABLE then DISABLE, both seen before disable returned");
        } finally {
            s.stop();
        }
    }

    /**
     * EventUnregister from inside the provider's own enable callback, on its notification thread. Windows'
     * EventUnregister waits for the registration's callbacks in flight (MS Learn, EventUnregister remarks:
     * unregister before the provider's code unloads; dotnet/runtime issues 106087 and 131544 describe the hang
     * for EventSource), so a blocking unregister there would wait for itself; the backends close the registration at once and finish the unregistration once the callback has
     * returned ({@link org.etw4j.spi.CloseGate}). Here: the enable that waits for callbacks returns, the
     * registration is closed inside its callback (its writes fail with ERROR_INVALID_HANDLE), and no later change
     * reaches it.
     */
    @Test
    void aProviderUnregisteringInsideItsOwnCallbackOnTheNotificationThreadDoesNotHang() throws Exception {
        AtomicReference<ProviderRegistration> self = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger writeAfterClose = new AtomicInteger(-1);
        AtomicReference<String> thread = new AtomicReference<>();
        CountDownLatch registered = new CountDownLatch(1);
        ProviderRegistration r = backend.registerProvider(provider, (code, source, level, any, all, filters) -> {
            calls.incrementAndGet();
            thread.set(Thread.currentThread().getName());
            awaitUninterruptibly(registered);
            self.get().close(); // EventUnregister inside its own callback
            writeAfterClose.set(self.get().write(org.etw4j.EventDescriptor.of(1, Level.ERROR, 0), null, null,
                    new org.etw4j.provider.EventData()));
        });
        self.set(r);
        registered.countDown();
        SessionControl s = session();
        assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> s.enableProvider(provider, EnableParameters.of(Level.VERBOSE).withCallbackWait(WAIT)),
                "EventUnregister inside its own callback must not wait for that callback");
        assertEquals(1, calls.get());
        assertNotEquals(Thread.currentThread().getName(), thread.get(), "the callback ran on the notification thread");
        assertEquals(org.etw4j.Win32Error.ERROR_INVALID_HANDLE.code(), writeAfterClose.get(), "closed at once");
        s.enableProvider(provider, EnableParameters.of(Level.ERROR).withCallbackWait(WAIT));
        s.disableProvider(provider, WAIT);
        assertEquals(1, calls.get(), "an unregistered provider hears nothing more");
        r.close(); // idempotent
    }

    @Test
    void eachProviderSeesItsChangesInTheControllersOrderWhileSessionsRaceOnOtherThreads() throws Exception {
        int providers = 4;
        int rounds = 200;
        List<List<Integer>> seen = new java.util.ArrayList<>();
        List<ProviderRegistration> regs = new java.util.ArrayList<>();
        List<Guid> ids = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < providers; i++) {
                List<Integer> mine = new CopyOnWriteArrayList<>();
                seen.add(mine);
                Guid id = Guid.of(UUID.randomUUID());
                ids.add(id);
                regs.add(backend.registerProvider(id, (code, source, level, any, all, filters) -> mine.add(code == 0 ? 0 : level)));
            }
            List<Thread> controllers = new java.util.ArrayList<>();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            for (int i = 0; i < providers; i++) {
                Guid id = ids.get(i);
                Thread controller = new Thread(() -> {
                    SessionControl c = backend.startSession(SessionConfig.realTime("notify-order-" + UUID.randomUUID()).build());
                    try {
                        for (int round = 0; round < rounds; round++) {
                            c.enableProvider(id, EnableParameters.of(Level.named(1 + round % 5))); // levels 1..5 in turn
                            c.disableProvider(id);
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    } finally {
                        c.stop();
                    }
                });
                controller.start();
                controllers.add(controller);
            }
            for (Thread t : controllers) {
                t.join(WAIT.toMillis() * 3);
                assertFalse(t.isAlive(), "a controller hung");
            }
            assertEquals(List.of(), failures);
            assertTrue(backend.awaitEnableCallbacks(WAIT));
            List<Integer> expected = new java.util.ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                expected.add(1 + round % 5);
                expected.add(0);
            }
            for (int i = 0; i < providers; i++) {
                assertEquals(expected, seen.get(i), "provider " + i + ": ENABLE(level)/DISABLE in its controller's order");
            }
        } finally {
            regs.forEach(ProviderRegistration::close);
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
