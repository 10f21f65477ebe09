package org.etw4j.spi;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one daemon thread that releases registrations closed from inside their own enable callback (see
 * {@link CloseGate#close(Runnable)}): there, EventUnregister would wait for the callback that calls it.
 *
 * <p>Thread-safe. The thread exists only while there is work (it ends after 10 s idle). Releases run one after
 * another; each first waits for its callback to return, which callbacks do promptly (the
 * {@link EnableCallback} contract). What a release throws is logged (WARNING, logger {@code org.etw4j.spi}),
 * never propagated. Releases still queued when the JVM exits do not run: process exit unregisters every
 * provider of the process anyway.
 */
final class DeferredReleases {
    static final String THREAD_NAME = "etw4j-deferred-unregister";
    private static final System.Logger LOG = System.getLogger("org.etw4j.spi");
    private static final ThreadPoolExecutor EXECUTOR = new ThreadPoolExecutor(0, 1, 10, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, THREAD_NAME);
                t.setDaemon(true);
                return t;
            });

    private DeferredReleases() {
    }

    static void submit(Runnable release) {
        EXECUTOR.execute(() -> {
            try {
                release.run();
            } catch (Throwable t) {
                LOG.log(System.Logger.Level.WARNING, "releasing a provider registration closed from its own enable callback failed", t);
            }
        });
    }
}
