package org.etw4j.spi;

import org.etw4j.Guid;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;

/**
 * A backend's control of one trace session ({@code TRACEHANDLE} plus {@code ControlTrace}/{@code EnableTraceEx2}).
 *
 * <p>Thread-safe. {@link #stop()} is idempotent. Failures throw {@link org.etw4j.EtwException}.
 */
public interface SessionControl {

    /** The session name. */
    String name();

    /** The session GUID (the default SourceId of its enable calls). */
    Guid sessionId();

    /** The configuration the session runs with. */
    SessionConfig config();

    /** {@code EnableTraceEx2(ENABLE_PROVIDER)}: enables or re-enables the provider with new parameters. */
    void enableProvider(Guid providerId, EnableParameters parameters);

    /** {@code EnableTraceEx2(DISABLE_PROVIDER)} with Timeout 0: returns without waiting for the providers' callbacks. */
    default void disableProvider(Guid providerId) {
        disableProvider(providerId, java.time.Duration.ZERO);
    }

    /**
     * {@code EnableTraceEx2(DISABLE_PROVIDER)} waiting up to {@code callbackWait} for the providers' callbacks
     * (EnableTraceEx2's Timeout, as {@link EnableParameters#callbackWait()} for an enable; zero does not wait).
     */
    void disableProvider(Guid providerId, java.time.Duration callbackWait);

    /** {@code EnableTraceEx2(CAPTURE_STATE)}: asks the provider to log its state; never disables it. */
    void captureState(Guid providerId, EnableParameters parameters);

    /** {@code ControlTrace(FLUSH)}: delivers partially filled buffers now. */
    void flush();

    /** {@code ControlTrace(QUERY)}. */
    SessionStatistics query();

    /** {@code ControlTrace(UPDATE)}: flush timer and maximum buffers; the rest is refused ({@link SessionUpdates}). */
    void update(SessionConfig newConfig);

    /**
     * {@code ControlTrace(STOP)}; idempotent. Providers it enabled are updated (MS Learn, PENABLECALLBACK callback
     * function). Flushes first: every event the session holds reaches the log file and the real-time consumers
     * still open, whose {@code process()} then returns (MS Learn, FlushTrace function: "By default, an event
     * tracing session will deliver events when the buffer is full, the session's FlushTimer expires, or the
     * session is closed"; the Windows backend also sends ControlTrace FLUSH before STOP, so that no buffer depends
     * on it).
     */
    void stop();

    /** Whether the session is still running. */
    boolean isRunning();
}
