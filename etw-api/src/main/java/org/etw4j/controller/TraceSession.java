package org.etw4j.controller;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.etw4j.Backend;
import org.etw4j.Guid;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackends;
import org.etw4j.spi.SessionControl;
import org.etw4j.tracelogging.ProviderIds;

/**
 * A trace session: start it, enable providers on it, flush, query, stop.
 *
 * <p>Thread-safe. A session this process started is stopped by {@link #close()} and, if still running at JVM
 * exit, by a shutdown hook (orphaned sessions are the most common complaint about ETW tools). A session obtained
 * with {@link #attach(String)} is not stopped by {@code close()}. {@code close()} and {@link #stop()} are
 * idempotent. Failures throw {@link org.etw4j.EtwException} naming the ETW function and the Win32 status.
 *
 * <pre>{@code
 * try (TraceSession session = TraceSession.start(SessionConfig.realTime("my-session").build())) {
 *     session.enable("MyCompany-MyService", EnableParameters.of(Level.INFORMATIONAL));
 *     ...
 * }
 * }</pre>
 */
public final class TraceSession implements AutoCloseable {
    private static final Set<TraceSession> OWNED = ConcurrentHashMap.newKeySet();
    private static volatile boolean hookInstalled;

    private final EtwBackend backend;
    private final SessionControl control;
    private final boolean owned;

    private TraceSession(EtwBackend backend, SessionControl control, boolean owned) {
        this.backend = backend;
        this.control = control;
        this.owned = owned;
        if (owned) {
            OWNED.add(this);
            installShutdownHook();
        }
    }

    /** Starts a session on the default backend. */
    public static TraceSession start(SessionConfig config) {
        return start(config, EtwBackends.getDefault());
    }

    /** Starts a session on {@code backend}. */
    public static TraceSession start(SessionConfig config, Backend backend) {
        EtwBackend spi = EtwBackends.spi(backend);
        Objects.requireNonNull(config, "config");
        SessionControl c = spi.startSession(config);
        boolean startedHere = config.ifExists() != IfSessionExists.ATTACH || c.config() == config;
        return new TraceSession(spi, c, startedHere);
    }

    /** Controls a running session without owning it. */
    public static TraceSession attach(String name) {
        return attach(name, EtwBackends.getDefault());
    }

    /** Controls a running session of {@code backend} without owning it. */
    public static TraceSession attach(String name, Backend backend) {
        EtwBackend spi = EtwBackends.spi(backend);
        return new TraceSession(spi, spi.attachSession(name), false);
    }

    public String name() {
        return control.name();
    }

    public Guid sessionId() {
        return control.sessionId();
    }

    public SessionConfig config() {
        return control.config();
    }

    public Backend backend() {
        return backend;
    }

    /** Whether this process started the session (and {@link #close()} stops it). */
    public boolean isOwned() {
        return owned;
    }

    /** Enables a provider by GUID. */
    public TraceSession enable(Guid providerId, EnableParameters parameters) {
        Objects.requireNonNull(providerId, "providerId");
        Objects.requireNonNull(parameters, "parameters");
        control.enableProvider(providerId, parameters);
        return this;
    }

    /**
     * Enables a provider by name or GUID text, resolved by {@link #resolve(String, Backend, Map)} against the
     * providers registered on this session's machine (no manifests): {@code "Microsoft-Windows-Kernel-Process"}
     * enables the GUID Windows registered for it, {@code "MyCompany-MyService"} (an EventSource or TraceLogging
     * name) the GUID hashed from the name. The GUID and the rule that chose it are logged at INFO; a
     * {@code Microsoft-Windows-} name the machine does not know is logged at WARNING ({@link ProviderResolution}).
     * Before issue 21 every name was hashed, and a Windows provider's name enabled a GUID nobody registered.
     */
    public TraceSession enable(String provider, EnableParameters parameters) {
        return enable(resolve(provider, backend, Map.of()).id(), parameters);
    }

    /**
     * Resolves a provider name or GUID text: a GUID; else a provider registered on {@code backend}'s machine
     * (TdhEnumerateProviders on Windows); else one of {@code manifests}
     * (name to GUID, from manifests the user gave); else the EventSource/TraceLogging hash of the name. Logs the
     * choice (INFO) and any warning (WARNING) of the {@link ProviderResolution}.
     */
    public static ProviderResolution resolve(String provider, Backend backend, Map<String, Guid> manifests) {
        Map<String, Guid> registered;
        try {
            registered = EtwBackends.spi(backend).registeredProviders();
        } catch (RuntimeException e) { // an enumeration that fails costs the rule, not the enable
            Log.LOG.log(System.Logger.Level.WARNING, "could not list the providers registered on this machine ("
                    + e.getMessage() + "); resolving '" + provider + "' without them");
            registered = Map.of();
        }
        ProviderResolution r = ProviderResolution.resolve(provider, registered, manifests);
        Log.LOG.log(System.Logger.Level.INFO, r.describe());
        if (r.warning() != null) {
            Log.LOG.log(System.Logger.Level.WARNING, r.warning());
        }
        return r;
    }

    /** Made on first use. */
    private static final class Log {
        static final System.Logger LOG = System.getLogger(TraceSession.class.getName());
    }

    /**
     * Disables a provider without waiting for its enable callbacks (EnableTraceEx2 with Timeout 0): the provider
     * may still write for a moment after this returns, as on Windows.
     */
    public TraceSession disable(Guid providerId) {
        return disable(providerId, java.time.Duration.ZERO);
    }

    /**
     * Disables a provider and waits, up to {@code callbackWait}, until every provider of the machine has seen the
     * change (EnableTraceEx2's Timeout; see {@link EnableParameters.Builder#waitForCallbacks} for what it means
     * and costs). Use it when the code after the call needs "disabled before return".
     */
    public TraceSession disable(Guid providerId, java.time.Duration callbackWait) {
        Objects.requireNonNull(providerId, "providerId");
        Objects.requireNonNull(callbackWait, "callbackWait");
        // the same range check as an enable's Timeout
        EnableParameters.of(org.etw4j.Level.VERBOSE).withCallbackWait(callbackWait);
        control.disableProvider(providerId, callbackWait);
        return this;
    }

    /** Asks a provider to log its state, with the level and keywords of {@code parameters}. */
    public TraceSession captureState(Guid providerId, EnableParameters parameters) {
        Objects.requireNonNull(providerId, "providerId");
        Objects.requireNonNull(parameters, "parameters");
        control.captureState(providerId, parameters);
        return this;
    }

    /** Delivers partially filled buffers now. */
    public void flush() {
        control.flush();
    }

    /** Counters. */
    public SessionStatistics statistics() {
        return control.query();
    }

    /**
     * ControlTrace UPDATE: changes the flush timer (to a nonzero value) and the maximum number of buffers; anything
     * else Windows would ignore is refused with an {@link org.etw4j.EtwException} (ERROR_INVALID_PARAMETER, see
     * {@code org.etw4j.spi.SessionUpdates}). Afterwards {@link #config()} is what the session runs with.
     */
    public void update(SessionConfig newConfig) {
        control.update(newConfig);
    }

    public boolean isRunning() {
        return control.isRunning();
    }

    /**
     * Stops the session (whoever started it); idempotent. The session's buffers are flushed first: every event it
     * holds reaches its log file and the real-time consumers still open (live streams), which then end by
     * themselves ({@code SessionControl.stop()}). So stop the session before closing a stream over it.
     */
    public void stop() {
        control.stop();
        OWNED.remove(this);
    }

    /** Stops the session if this process started it, flushing it first ({@link #stop()}); idempotent. */
    @Override
    public void close() {
        if (owned) {
            stop();
        }
    }

    /**
     * A provider GUID from a GUID text or a provider name, by the last rule only (the EventSource/TraceLogging
     * hash): right for providers written with etw4j, EventSource or TraceLogging; wrong for Windows' own providers,
     * which {@link #resolve(String, Backend, Map)} finds.
     */
    public static Guid resolve(String provider) {
        Objects.requireNonNull(provider, "provider");
        String p = provider.trim();
        try {
            return Guid.parse(p);
        } catch (IllegalArgumentException notAGuid) {
            return ProviderIds.fromName(p);
        }
    }

    private static void installShutdownHook() {
        if (hookInstalled) {
            return;
        }
        synchronized (TraceSession.class) {
            if (hookInstalled) {
                return;
            }
            hookInstalled = true;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                for (TraceSession s : OWNED.toArray(new TraceSession[0])) {
                    try {
                        s.stop();
                    } catch (RuntimeException ignored) {
                        // best effort at exit
                    }
                }
            }, "etw4j-stop-sessions"));
        }
    }

    @Override
    public String toString() {
        return "TraceSession[" + name() + (owned ? ", owned" : "") + "]";
    }
}
