package org.etw4j.nativebindings.windows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Collects what upcalls caught and reports it after the downcall returns.
 *
 * <p>Thread-safe. {@link #record} is called inside upcalls: it never throws and does little (no logging, no
 * I/O). {@link #reportPending()} is called by the backend on the thread of a downcall after it returns, and
 * hands each new failure to the reporter (by default a {@link System.Logger} warning). At most
 * {@value #KEPT} failures are kept for {@link #all()}; the count of dropped ones is kept too.
 */
final class UpcallFailures {
    static final int KEPT = 1000;
    private static final System.Logger LOG = System.getLogger("org.etw4j.nativebindings.windows");

    private final ConcurrentLinkedQueue<UpcallFailure> pending = new ConcurrentLinkedQueue<>();
    private final List<UpcallFailure> kept = new CopyOnWriteArrayList<>();
    private final AtomicInteger dropped = new AtomicInteger();
    private final Consumer<UpcallFailure> reporter;

    UpcallFailures(Consumer<UpcallFailure> reporter) {
        this.reporter = reporter != null ? reporter : UpcallFailures::log;
    }

    /** Inside an upcall: remembers {@code error}. Never throws. */
    void record(String upcall, String subject, Throwable error) {
        try {
            UpcallFailure f = new UpcallFailure(upcall, subject, error, Thread.currentThread().getName());
            if (kept.size() < KEPT) {
                kept.add(f);
                pending.add(f);
            } else {
                dropped.incrementAndGet();
            }
        } catch (Throwable ignored) {
            // out of memory or worse while recording: the failure itself is lost, the upcall still returns
            dropped.incrementAndGet();
        }
    }

    /** After a downcall: reports the failures recorded since the last report, on the calling thread. */
    void reportPending() {
        for (UpcallFailure f; (f = pending.poll()) != null; ) {
            try {
                reporter.accept(f);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "upcall failure reporter failed", e);
            }
        }
    }

    /** Every failure kept so far. */
    List<UpcallFailure> all() {
        return new ArrayList<>(kept);
    }

    /** Failures not kept (beyond {@value #KEPT}, or lost while recording). */
    int dropped() {
        return dropped.get();
    }

    private static void log(UpcallFailure f) {
        LOG.log(System.Logger.Level.WARNING, "etw4j caught an exception in a native callback (it was not allowed to"
                + " reach native code): " + f, f.error());
    }
}
