package org.etw4j.sim;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
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
 * (MS Learn, PENABLECALLBACK callback function; EnableTraceEx2, Timeout), in {@link SimulatedBackend#withNotificationThread()}.
 * Before, the simulator called them synchronously on the enabling thread under its global lock: a callback that
 * takes a (non-reentrant) lock the enabling thread holds deadlocked, where on Windows it only waits for the lock.
 */
class EnableNotificationThreadTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private final SimulatedBackend backend = SimulatedBackend.withNotificationThread();
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

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
