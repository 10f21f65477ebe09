package org.etw4j.jna.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import org.etw4j.Guid;
import org.etw4j.ThreadActivityIds;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionInfo;
import org.etw4j.jna.CallbackFailure;
import org.etw4j.jna.JnaBackend;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.JavaThreadActivityIds;
import org.etw4j.spi.ProviderRegistration;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.SessionControl;
import org.etw4j.spi.TraceConsumer;

/**
 * The provider side of ETW through JNA, for services on Java 17 and 21: EventRegister, EventUnregister,
 * EventWriteTransfer, EventSetInformation, EventActivityIdControl (to create ids; the current id is kept in Java
 * and passed to every write, see {@link JavaThreadActivityIds}) and the enable callback.
 *
 * <p>The SPI implementation, not application API (its package is not exported): applications hold it as an
 * {@link org.etw4j.Backend} and read its callback failures through {@link JnaBackend}.
 *
 * <p>Thread-safe; normally one per process (from {@link JnaBackendFactory}, {@code -Detw4j.backend=jna}); nothing
 * to close (each {@link ProviderRegistration} is closed on its own). It cannot start, control or consume
 * sessions: {@link #supportsControl()} is false and those methods throw {@link UnsupportedOperationException}
 * (use the FFM backend of etw4j's native-bindings module, Java 22+, or any ETW controller such as
 * {@code logman}/{@code wpr} next to this provider).
 *
 * <p>Native safety: every notification enters through one static callback and finds its provider by an id (the
 * EventRegister context), never by an address; nothing thrown by a provider's {@link EnableCallback} goes back
 * to ETW: it is recorded and reported by {@link #callbackFailures()}; writes return Win32 statuses and never
 * throw, and allocate no native memory once a thread's scratch memory has grown to its largest event. The
 * native library is advapi32, or the library named by the system property {@value Advapi32#LIBRARY_PROPERTY}
 * (tests point it at a stand-in with the same exports).
 */
public final class JnaEtwBackend implements EtwBackend {
    /** The name that selects this backend ({@code -Detw4j.backend=jna}). */
    public static final String NAME = JnaBackend.NAME;
    /** Most failures {@link #callbackFailures()} keeps (the oldest are dropped; the count keeps counting). */
    public static final int FAILURES_KEPT = JnaBackend.FAILURES_KEPT;

    static final String CONTROL_UNSUPPORTED = "the JNA backend is provider-only (EventRegister/EventWrite): "
            + "starting, controlling and consuming sessions needs etw4j's FFM backend (native-bindings, Java 22+)";

    private final JavaThreadActivityIds activityIds = new JavaThreadActivityIds(new JnaActivityIds(), new JnaActivityIds.OsThread());
    private final Deque<CallbackFailure> failures = new ArrayDeque<>();
    private final LongAdder failureCount = new LongAdder();
    private final LongAdder ignoredAfterClose = new LongAdder();

    /**
     * Loads the native library (once per process).
     *
     * @throws IllegalStateException if the library or one of its functions cannot be found
     */
    public JnaEtwBackend() {
        try {
            Advapi32.bind();
        } catch (UnsatisfiedLinkError e) {
            throw new IllegalStateException("cannot load the ETW provider functions from '" + Advapi32.configuredLibrary()
                    + "' through JNA (set -D" + Advapi32.LIBRARY_PROPERTY + "=<library> to use another one): " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    /** True when the library is Windows' advapi32, false with a substitute (the tests' stand-in). */
    @Override
    public boolean isNative() {
        return Advapi32.isSystemLibrary();
    }

    @Override
    public boolean supportsControl() {
        return false;
    }

    /**
     * {@code EventRegister}.
     *
     * @throws org.etw4j.EtwException naming EventRegister, with the Win32 status, when ETW refuses
     */
    @Override
    public ProviderRegistration registerProvider(Guid providerId, EnableCallback callback) {
        Objects.requireNonNull(providerId, "providerId");
        Objects.requireNonNull(callback, "callback");
        return JnaRegistration.register(this, providerId, callback);
    }

    @Override
    public ThreadActivityIds activityIds() {
        return activityIds;
    }

    /** Not supported: always throws {@link UnsupportedOperationException}. */
    @Override
    public SessionControl startSession(SessionConfig config) {
        throw new UnsupportedOperationException(CONTROL_UNSUPPORTED);
    }

    /** Not supported: always throws {@link UnsupportedOperationException}. */
    @Override
    public SessionControl attachSession(String name) {
        throw new UnsupportedOperationException(CONTROL_UNSUPPORTED);
    }

    /** Not supported: always throws {@link UnsupportedOperationException}. */
    @Override
    public List<SessionInfo> querySessions() {
        throw new UnsupportedOperationException(CONTROL_UNSUPPORTED);
    }

    /** Not supported: always throws {@link UnsupportedOperationException}. */
    @Override
    public void stopSession(String name) {
        throw new UnsupportedOperationException(CONTROL_UNSUPPORTED);
    }

    /** Not supported: always throws {@link UnsupportedOperationException}. */
    @Override
    public TraceConsumer openRealTime(String sessionName, RecordSink sink) {
        throw new UnsupportedOperationException(CONTROL_UNSUPPORTED);
    }

    /** The most recent failures of enable-callback handling (at most {@link #FAILURES_KEPT}), oldest first. */
    public List<CallbackFailure> callbackFailures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    /** How many enable-callback failures were recorded since this backend was created. */
    public long callbackFailureCount() {
        return failureCount.sum();
    }

    /** Notifications for registrations of this backend that arrived after their close began, and were ignored. */
    public long notificationsIgnoredAfterClose() {
        return ignoredAfterClose.sum();
    }

    void recordCallbackFailure(CallbackFailure failure) {
        failureCount.increment();
        synchronized (failures) {
            if (failures.size() == FAILURES_KEPT) {
                failures.removeFirst();
            }
            failures.addLast(failure);
        }
    }

    void countIgnoredAfterClose() {
        ignoredAfterClose.increment();
    }

    @Override
    public String toString() {
        return "JnaBackend[" + Advapi32.configuredLibrary() + "]";
    }
}
