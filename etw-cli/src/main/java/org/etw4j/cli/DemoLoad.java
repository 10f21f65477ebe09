package org.etw4j.cli;

import java.util.concurrent.atomic.AtomicLong;
import org.etw4j.provider.ActivityScope;
import org.etw4j.provider.EtwProvider;
import org.etw4j.spi.EtwBackend;

/**
 * Generated events for {@code etw record --demo-load} and {@code etw live --demo-load}: the {@code etw4j-Demo}
 * provider of {@code etw demo}, writing its per-round event mix at a steady rate from one thread, a
 * {@code Job} activity around every 100 rounds, until closed.
 *
 * <p>Thread-safe to close from any thread; {@link #close()} is idempotent, stops the writer thread, waits for
 * it, and unregisters the provider.
 */
final class DemoLoad implements AutoCloseable {
    private final EtwProvider provider;
    private final Thread writer;
    private final long roundsPerSecond;
    private final AtomicLong rounds = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean stop;

    private DemoLoad(EtwBackend backend, long roundsPerSecond) {
        this.roundsPerSecond = roundsPerSecond;
        this.provider = EtwProvider.builder(DemoEvents.PROVIDER_NAME).backend(backend).register();
        this.writer = new Thread(this::run, "etw-demo-load");
        writer.setDaemon(true);
    }

    /** Registers the demo provider on {@code backend} and starts writing {@code roundsPerSecond} rounds a second. */
    static DemoLoad start(EtwBackend backend, long roundsPerSecond) {
        DemoLoad d = new DemoLoad(backend, roundsPerSecond);
        d.writer.start();
        return d;
    }

    /** Rounds written so far (each round writes up to six events, those some session wants). */
    long rounds() {
        return rounds.get();
    }

    /** Writes that returned an error status. */
    long failures() {
        return failures.get();
    }

    private void run() {
        long start = System.nanoTime();
        long r = 0;
        while (!stop) {
            try (ActivityScope job = provider.startActivity(DemoEvents.JOB)) {
                count(job.startStatus());
                for (int i = 0; i < 100 && !stop; i++, r++) {
                    writeRound(r);
                    rounds.incrementAndGet();
                    long due = start + (r + 1) * 1_000_000_000L / roundsPerSecond;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        try {
                            Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
            }
        }
    }

    private void writeRound(long round) {
        int r = (int) round;
        count(provider.event(DemoEvents.REQUEST_RECEIVED).int32(r).string("/api/items/" + r).write());
        count(provider.event(DemoEvents.REQUEST_DETAIL).int32(r).string("parsed").write());
        count(provider.event(DemoEvents.CACHE_MISS).string("item-" + r).uint32(16L * (r & 0xFFFF)).write());
        count(provider.event(DemoEvents.SLOW_REQUEST).int32(r).float64(r * 0.5).write());
        count(provider.event(DemoEvents.TICK).int32(0).string("load").float64(r / 10.0).write());
        count(provider.event(DemoEvents.SAMPLE).int32(0).int32(r).float64(r % 100 / 100.0).write());
    }

    private void count(int status) {
        if (status != 0) {
            failures.incrementAndGet();
        }
    }

    @Override
    public void close() {
        if (stop) {
            return;
        }
        stop = true;
        writer.interrupt();
        try {
            writer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        provider.close();
    }
}
