package org.etw4j.jna;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.etw4j.Backend;
import org.etw4j.jna.internal.JnaEtwBackend;

/**
 * What an application sees of etw-jna's backend: the {@link Backend} to run providers on and what the backend
 * reports about enable notifications (a provider's enable callback must not throw into ETW, so what it threw is
 * kept here).
 *
 * <p>Entry points: {@link #of(Backend)} for the backend providers already run on (normally
 * {@code Backend.getDefault()}, which is the JNA backend on Windows with Java 17-22 or with
 * {@code -Detw4j.backend=jna}); {@link #create()} for a new JNA backend to pass to
 * {@code EtwProvider.Builder.backend}. The backend itself implements etw-api's service-provider interface in an
 * internal package; this view only reads it.
 *
 * <p>Immutable view; thread-safe. Nothing to close: the backend lives as long as the JVM, and each provider's
 * registration is closed by {@code EtwProvider.close()}.
 */
public final class JnaBackend {
    /** The name that selects this backend ({@code -Detw4j.backend=jna}); also {@code Backend.name()}. */
    public static final String NAME = "jna";
    /** Most failures {@link #callbackFailures()} keeps (the oldest are dropped; the count keeps counting). */
    public static final int FAILURES_KEPT = 64;

    private final JnaEtwBackend backend;

    private JnaBackend(JnaEtwBackend backend) {
        this.backend = backend;
    }

    /**
     * A new JNA backend; loads the native library (once per process). Most applications use
     * {@code Backend.getDefault()} instead, which chooses this backend where it is the one that can run.
     *
     * @throws IllegalStateException if the library or one of its functions cannot be found
     */
    public static JnaBackend create() {
        return new JnaBackend(new JnaEtwBackend());
    }

    /** {@code backend}'s JNA view when it is etw-jna's backend; empty for any other backend. */
    public static Optional<JnaBackend> of(Backend backend) {
        return Objects.requireNonNull(backend, "backend") instanceof JnaEtwBackend b
                ? Optional.of(new JnaBackend(b)) : Optional.empty();
    }

    /** The backend, for {@code EtwProvider.Builder.backend} and wherever etw4j takes a {@link Backend}. */
    public Backend backend() {
        return backend;
    }

    /** The most recent failures of enable-callback handling (at most {@link #FAILURES_KEPT}), oldest first. */
    public List<CallbackFailure> callbackFailures() {
        return backend.callbackFailures();
    }

    /** How many enable-callback failures were recorded since this backend was created. */
    public long callbackFailureCount() {
        return backend.callbackFailureCount();
    }

    /** Notifications for registrations of this backend that arrived after their close began, and were ignored. */
    public long notificationsIgnoredAfterClose() {
        return backend.notificationsIgnoredAfterClose();
    }

    /** Equal when both view the same backend. */
    @Override
    public boolean equals(Object o) {
        return o instanceof JnaBackend other && other.backend == backend;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(backend);
    }

    @Override
    public String toString() {
        return backend.toString();
    }
}
