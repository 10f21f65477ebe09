package org.etw4j.opentelemetry;

import io.opentelemetry.sdk.common.CompletableResultCode;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One exporter's or processor's hold on an {@link EtwTarget}: taken at construction, given back once at shutdown.
 * Thread-safe; {@link #shutdown()} is idempotent.
 */
final class TargetLease {
    private final EtwTarget target;
    private final AtomicBoolean shutdown = new AtomicBoolean();

    TargetLease(EtwTarget target) {
        this.target = target;
        target.hold();
    }

    EtwTarget target() {
        return target;
    }

    boolean isShutdown() {
        return shutdown.get();
    }

    /** Gives the hold back (the last one unregisters a provider the target owns). */
    CompletableResultCode shutdown() {
        if (shutdown.compareAndSet(false, true)) {
            target.release();
        }
        return CompletableResultCode.ofSuccess();
    }
}
