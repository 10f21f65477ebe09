package org.etw4j.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ends a recording or live session on the first of: Ctrl-C (or any JVM shutdown), a time limit, or a call to
 * {@link #stop()} (e.g. after enough events).
 *
 * <p>Thread-safe. While open it holds a shutdown hook; on shutdown the hook asks the command to stop and waits
 * (up to 30 s) until the command says it has finished cleaning up ({@link #close()}), so that a Ctrl-C still
 * leaves a complete .etl file and a final report. {@link #close()} removes the hook and is idempotent.
 */
final class StopSignal implements AutoCloseable {
    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;
    private volatile boolean interrupted;

    StopSignal() {
        hook = new Thread(() -> {
            interrupted = true;
            stop.countDown();
            try {
                finished.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "etw-stop-on-exit");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Asks the waiting command to stop. */
    void stop() {
        stop.countDown();
    }

    /** Waits for a stop request, at most {@code limit} (null: no limit). */
    void await(Duration limit) throws InterruptedException {
        if (limit == null) {
            stop.await();
        } else {
            stop.await(limit.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    /** Whether the stop came from a JVM shutdown (Ctrl-C). */
    boolean byShutdown() {
        return interrupted;
    }

    /** The command has finished: release a waiting shutdown hook, or remove the hook. */
    @Override
    public void close() {
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: nothing to remove
        }
    }
}
