package org.etw4j.spi;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The close protocol of a native provider registration: writes and enable notifications pass the gate while it
 * is open, and closing waits until none that passed is still running, so the native handle is never used after
 * it is released.
 *
 * <p>Thread-safe; one per registration, never reopened. Any number of threads may enter and exit; every
 * successful {@code enter...} must be followed by its {@code exit...} on the same thread (in a {@code finally}).
 * Entering and exiting allocate nothing (a write costs one uncontended {@link LongAdder} increment and one
 * decrement).
 *
 * <p>Memory-ordering argument: each {@code enter...} first increments its counter (a CAS, i.e. a volatile
 * write) and only then reads the volatile {@code closed}; the closing thread first writes {@code closed}
 * ({@link #markClosed}) and only then reads the counters ({@link #awaitQuiet}). These are all synchronization
 * actions, so they have one total order consistent with each thread's program order: either an operation's
 * increment comes before the closer's read of the counters (the closer sees it and waits for its exit), or its
 * read of {@code closed} comes after the closer's write (it sees {@code true} and turns back). No operation can
 * both miss {@code closed} and be missed by the closer.
 *
 * <p>{@link #close(Runnable)} is the whole protocol for a backend: close the gate, wait until nothing is inside,
 * release the native registration. A notification may close its own registration (a provider closing itself
 * from its enable callback); it must not release there: Windows' {@code EventUnregister} waits for the
 * registration's callbacks in flight, its own included, so it would never return (MS Learn, EventUnregister
 * remarks: providers must be unregistered before their code unloads; dotnet/runtime issues 106087 and 131544
 * describe the same hang for EventSource). Such a close returns at once, with the gate closed, and the release
 * runs on the daemon thread {@code etw4j-deferred-unregister} once the notification has exited (and the
 * owner's register call has returned, see {@link #opened()}).
 * Waiting spins briefly, then parks in 50 us steps; it has no timeout (an operation that never returns keeps
 * close from returning, as it must: its handle is still in use).
 */
public final class CloseGate {
    private static final int SPINS_BEFORE_PARKING = 1_000;
    private static final long PARK_NANOS = 50_000;

    private final LongAdder writesInFlight = new LongAdder();
    private final AtomicInteger notificationsInFlight = new AtomicInteger();
    /** Notifications of this gate running on the current thread; [0] only, an int[] so updates allocate nothing. */
    private final ThreadLocal<int[]> notificationsOnThisThread = ThreadLocal.withInitial(() -> new int[1]);
    private volatile boolean closed;
    /** Counted down by {@link #opened()}: a deferred release waits for it (the handle is known only then). */
    private final java.util.concurrent.CountDownLatch registerReturned = new java.util.concurrent.CountDownLatch(1);

    /**
     * Lets a write in: true if the gate is open, and the caller must then call {@link #exitWrite()} when done;
     * false if it is closed (nothing to undo).
     */
    public boolean enterWrite() {
        writesInFlight.increment();
        if (closed) {
            writesInFlight.decrement();
            return false;
        }
        return true;
    }

    /** Ends a write {@link #enterWrite()} let in. */
    public void exitWrite() {
        writesInFlight.decrement();
    }

    /**
     * Lets a notification in: true if the gate is open, and the caller must then call
     * {@link #exitNotification()} on this thread when done; false if it is closed (nothing to undo).
     */
    public boolean enterNotification() {
        int[] onThisThread = notificationsOnThisThread.get();
        notificationsInFlight.incrementAndGet();
        onThisThread[0]++;
        if (closed) {
            onThisThread[0]--;
            notificationsInFlight.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Ends a notification {@link #enterNotification()} let in, on the thread that entered. */
    public void exitNotification() {
        notificationsOnThisThread.get()[0]--;
        notificationsInFlight.decrementAndGet();
    }

    /**
     * The owner's native register call (EventRegister) has returned, successfully or not: call it once, in a
     * {@code finally}. A release deferred by a notification that arrived during the register call (ETW notifies a
     * provider enabled before it registered from inside EventRegister) waits for it, so it sees the handle.
     */
    public void opened() {
        registerReturned.countDown();
    }

    /**
     * Closes the gate and releases the owner's native registration once, when no write and no notification is
     * inside any more. On any thread but one inside a notification of this gate, {@code release} has run when this
     * returns. On a thread inside one (a callback closing its own provider) this returns at once: the gate is
     * closed (writes and notifications are turned back from now on), and {@code release} runs on the daemon
     * thread {@code etw4j-deferred-unregister} after this thread's notification has exited and
     * {@link #opened()} was called; what it throws is logged there.
     *
     * @param release EventUnregister and the freeing of what native callbacks used; runs at most once
     * @return true for the one call that closed the gate, false if it was already closed (nothing done)
     */
    public boolean close(Runnable release) {
        if (!markClosed()) {
            return false;
        }
        if (notificationsOnThisThread() == 0) {
            awaitQuiet(0);
            release.run();
        } else {
            DeferredReleases.submit(() -> {
                awaitRegisterReturned();
                awaitQuiet(0);
                release.run();
            });
        }
        return true;
    }

    private void awaitRegisterReturned() {
        boolean interrupted = false;
        while (true) {
            try {
                registerReturned.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes the gate; true for the one call that closed it, false if it was already closed. */
    public boolean markClosed() {
        synchronized (this) {
            if (closed) {
                return false;
            }
            closed = true;
            return true;
        }
    }

    public boolean isClosed() {
        return closed;
    }

    /** Notifications of this gate the calling thread is inside (non-zero: a callback closing its own provider). */
    public int notificationsOnThisThread() {
        return notificationsOnThisThread.get()[0];
    }

    /**
     * After {@link #markClosed()}: waits until no write and no notification, other than {@code ownNotifications}
     * on the calling thread, is still inside the gate. New ones are turned back, so this returns once the ones
     * already inside have exited.
     *
     * @param ownNotifications what {@link #notificationsOnThisThread()} answered on this thread
     * @throws IllegalStateException if the gate is not closed (the wait could then never be trusted)
     */
    public void awaitQuiet(int ownNotifications) {
        if (!closed) {
            throw new IllegalStateException("awaitQuiet before markClosed");
        }
        int spins = 0;
        while (writesInFlight.sum() != 0 || notificationsInFlight.get() > ownNotifications) {
            if (++spins < SPINS_BEFORE_PARKING) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(PARK_NANOS);
            }
        }
    }
}
