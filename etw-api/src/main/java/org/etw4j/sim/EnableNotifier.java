package org.etw4j.sim;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The simulated process's notification thread: enable callbacks run here, one at a time, in the order the
 * controller's calls made them, never on the thread that called {@code EnableTraceEx2}.
 *
 * <p>Windows runs a provider's enable callback on a thread of the provider's process that ETW's notification
 * delivers to, not on the controller's thread (MS Learn, PENABLECALLBACK callback function; EnableCallback; and
 * EnableTraceEx2, Timeout: with 0 the function "will start configuring the provider and will then return
 * immediately"; with a nonzero Timeout it waits "for all provider callbacks to complete"). So a callback that takes
 * a lock the enabling thread holds does not deadlock there; it runs once the lock is released, and a waiting enable
 * times out. Issue 21, item 8 (1). Thread-safe; the thread is a daemon and ends after a second without work.
 */
final class EnableNotifier {
    /** The current notification thread (the pool replaces it after an idle second). */
    private volatile Thread thread;
    private final ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
            r -> {
                Thread t = new Thread(r, "etw4j-sim-enable-notifications");
                t.setDaemon(true);
                thread = t;
                return t;
            });

    EnableNotifier() {
        executor.allowCoreThreadTimeOut(true);
    }

    /** Queues one callback invocation after those queued before. */
    void submit(Runnable notification) {
        executor.execute(notification);
    }

    /** Whether the thread calling this is the notification thread (a callback enabling from inside itself). */
    boolean isNotificationThread() {
        return Thread.currentThread() == thread;
    }

    /** Waits until every callback queued before this call has returned; false when {@code timeout} ran out first. */
    boolean awaitQueued(Duration timeout) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        executor.execute(done::countDown);
        return done.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }
}
