package org.etw4j.consumer;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The life of one {@link EventStream}: started at most once, closed from any thread any number of times, finished
 * exactly once (whoever comes first: the source's end or a close before the start), then terminated for the threads
 * waiting on it. {@link AbstractEventStream} keeps what a stream does at each step; this class keeps only the state,
 * so that the rules "start once" and "finish once" are written once.
 *
 * <p>Thread-safe: the state changes under one lock, finishing is claimed by one compare-and-set, waiting is a latch.
 */
final class StreamLifecycle {
    /** What {@link #requestClose()} found. */
    enum CloseRequest {
        /** {@code close()} ran before: nothing to do. */
        REPEATED,
        /** The stream runs (or ran): its source is asked to stop and its loop finishes the stream. */
        WHILE_RUNNING,
        /** The stream never started: the closing thread finishes it, since no loop will. */
        BEFORE_START
    }

    private enum State { NEW, RUNNING, DONE }

    private final Object lock = new Object();
    private State state = State.NEW;
    private boolean closeCalled;
    private final AtomicBoolean finished = new AtomicBoolean();
    private final CountDownLatch terminated = new CountDownLatch(1);

    /** Marks the stream running; throws when it was started or closed before. */
    void begin(String description) {
        synchronized (lock) {
            if (state != State.NEW || closeCalled) {
                throw new IllegalStateException("the stream over " + description + " was "
                        + (closeCalled ? "closed" : "started") + " already");
            }
            state = State.RUNNING;
        }
    }

    /** Records a close request and says what the closing thread must do. */
    CloseRequest requestClose() {
        synchronized (lock) {
            if (closeCalled) {
                return CloseRequest.REPEATED;
            }
            closeCalled = true;
            if (state == State.NEW) {
                state = State.DONE;
                return CloseRequest.BEFORE_START;
            }
            return CloseRequest.WHILE_RUNNING;
        }
    }

    /** True for the one caller that finishes the stream; false for every later one. */
    boolean claimFinish() {
        return finished.compareAndSet(false, true);
    }

    /** The source is released: the stream can neither start nor be closed any more. */
    void markDone() {
        synchronized (lock) {
            state = State.DONE;
            closeCalled = true;
        }
    }

    /** Wakes every thread waiting for the stream's end; called last, after the close actions. */
    void terminate() {
        terminated.countDown();
    }

    boolean awaitTermination(Duration timeout) throws InterruptedException {
        return terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    void awaitTermination() throws InterruptedException {
        terminated.await();
    }
}
