package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import org.etw4j.EtwException;
import org.etw4j.Guid;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.IfSessionExists;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.spi.SessionControl;
import org.etw4j.spi.SessionIds;
import org.etw4j.spi.SessionUpdates;

/**
 * A trace session controlled through FFM: its {@code TRACEHANDLE} plus ControlTraceW and EnableTraceEx2.
 *
 * <p>Thread-safe. Owns no native memory between calls (each call uses a confined arena of its own); the handle
 * is a number ETW owns. A session this backend started ("owned") is stopped by {@link #stop()} and by the
 * backend's shutdown hook if still running at JVM exit; an attached one only when asked. {@link #stop()} is
 * idempotent and keeps the final counters that ControlTraceW STOP returns, so {@link #query()} still answers
 * afterwards (Windows forgets the session). A session is matched by handle and GUID: a handle ETW reused for a
 * newer session of the same name is not mistaken for this one.
 */
final class FfmSession implements SessionControl {
    /**
     * EnableTraceEx2's Timeout when the caller does not ask to wait ({@link EnableParameters#callbackWait}): 0, so
     * ETW notifies the providers asynchronously and the call returns at once (MS Learn, EnableTraceEx2: "If
     * Timeout is 0, this function will start configuring the provider asynchronously and will return
     * immediately"). What mature libraries pass: krabsetw (krabs/krabs/ut.hpp@6900de05,
     * {@code EnableTraceEx2(..., 0, &parameters)}), ferrisetw (src/native/evntrace.rs@48336cca, Timeout argument
     * 0) and TraceEvent (TraceEventSession.cs@f3ec1b38, {@code EnableProviderTimeoutMSec = 0} by default). Before
     * issue 21 this was 10 s on every enable, disable and capture-state, waiting for every process's callbacks.
     * A disable waits only when its caller asks ({@code TraceSession.disable(id, wait)}).
     */
    static final int DEFAULT_ENABLE_TIMEOUT_MS = 0;
    private static final System.Logger LOG = System.getLogger("org.etw4j.nativebindings.windows");

    private final WindowsBackend backend;
    private final String name;
    private final Guid sessionId;
    private final long handle;
    private final boolean owned;
    private final Object lock = new Object();
    private volatile SessionConfig config;
    private volatile boolean stopped;
    private volatile SessionStatistics finalStatistics;

    private FfmSession(WindowsBackend backend, String name, Guid sessionId, long handle, SessionConfig config, boolean owned) {
        this.backend = backend;
        this.name = name;
        this.sessionId = sessionId;
        this.handle = handle;
        this.config = config;
        this.owned = owned;
    }

    /**
     * {@code StartTraceW}; returns the status instead of throwing so that the backend can apply the
     * {@link IfSessionExists} policy to ERROR_ALREADY_EXISTS.
     */
    static StartResult start(WindowsBackend backend, SessionConfig config) {
        // A GUID naming this process, so that Sessions.stopStale can prove etw4j started the session (issue 21, 9).
        Guid id = SessionIds.newSessionId(config.name());
        if (ProfilePrivilege.needed(config.kernel())) {
            // Before StartTraceW, as TraceEvent does: no session is started that could not sample.
            ProfilePrivilege.enable(config.name());
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment props = SessionProperties.forStart(call, config, id);
            MemorySegment handleOut = call.allocate(ValueLayout.JAVA_LONG);
            MemorySegment name = call.allocateFrom(config.name(), java.nio.charset.StandardCharsets.UTF_16LE);
            int status = EtwNative.StartTraceW(handleOut, name, props);
            if (status != Win32Errors.ERROR_SUCCESS) {
                return new StartResult(status, null);
            }
            Guid actual = SessionProperties.sessionId(props);
            long handle = handleOut.get(ValueLayout.JAVA_LONG, 0);
            FfmSession session = new FfmSession(backend, config.name(), actual.isNull() ? id : actual, handle, config,
                    true);
            if (config.kernel() != null) {
                // MS Learn, TraceSetInformation: "Call this function after calling StartTrace"
                String[] what = new String[1];
                int set = KernelSetup.apply(handle, config.kernel(), what);
                if (set != Win32Errors.ERROR_SUCCESS) {
                    session.stop(); // a kernel session without the stacks or interval asked for is not what was asked
                    throw Win32Errors.failure("TraceSetInformation", set, what[0] + " of session '" + config.name()
                            + "'");
                }
            }
            return new StartResult(0, session);
        }
    }

    /** What StartTraceW gave: a status, and the session when it is ERROR_SUCCESS. */
    record StartResult(int status, FfmSession session) {
    }

    /**
     * Controls the running session {@code name} (ControlTraceW QUERY by name) without owning it.
     *
     * @throws EtwException naming ControlTraceW (ERROR_WMI_INSTANCE_NOT_FOUND when no such session runs)
     */
    static FfmSession attach(WindowsBackend backend, String name) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment props = SessionProperties.forQuery(call);
            int status = EtwNative.ControlTraceW(0L, call.allocateFrom(name, java.nio.charset.StandardCharsets.UTF_16LE), props,
                    EtwNative.EVENT_TRACE_CONTROL_QUERY());
            Win32Errors.check("ControlTraceW", status, "QUERY session '" + name + "'");
            SessionConfig c = SessionProperties.config(props, name, IfSessionExists.ATTACH);
            return new FfmSession(backend, c.name(), SessionProperties.sessionId(props), SessionProperties.loggerHandle(props), c, false);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Guid sessionId() {
        return sessionId;
    }

    @Override
    public SessionConfig config() {
        return config;
    }

    /** The session's TRACEHANDLE. */
    long handle() {
        return handle;
    }

    boolean isOwned() {
        return owned;
    }

    @Override
    public void enableProvider(Guid providerId, EnableParameters parameters) {
        enableTrace(providerId, EtwNative.EVENT_CONTROL_CODE_ENABLE_PROVIDER(), Objects.requireNonNull(parameters, "parameters"),
                (int) parameters.callbackWait().toMillis());
    }

    @Override
    public void disableProvider(Guid providerId, java.time.Duration callbackWait) {
        enableTrace(providerId, EtwNative.EVENT_CONTROL_CODE_DISABLE_PROVIDER(), null, (int) callbackWait.toMillis());
    }

    @Override
    public void captureState(Guid providerId, EnableParameters parameters) {
        enableTrace(providerId, EtwNative.EVENT_CONTROL_CODE_CAPTURE_STATE(), Objects.requireNonNull(parameters, "parameters"),
                (int) parameters.callbackWait().toMillis());
    }

    /** {@code timeoutMs}: EnableTraceEx2's Timeout, a ULONG (0 does not wait). */
    private void enableTrace(Guid providerId, int controlCode, EnableParameters p, int timeoutMs) {
        Objects.requireNonNull(providerId, "providerId");
        String what = "provider " + providerId + " on session '" + name + "'";
        if (stopped) {
            throw Win32Errors.failure("EnableTraceEx2", Win32Errors.ERROR_WMI_INSTANCE_NOT_FOUND, what + ": the session is stopped");
        }
        int status;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment guid = call.allocate(NativeGuids.BYTES, 8);
            NativeGuids.write(guid, 0, providerId);
            MemorySegment params = p == null ? MemorySegment.NULL
                    : EnableTraceParameters.build(call, p, sessionId, backend.isSystemEtw());
            int level = p == null ? 0 : p.level();
            long any = p == null ? 0 : p.matchAnyKeyword();
            long all = p == null ? 0 : p.matchAllKeyword();
            status = EtwNative.EnableTraceEx2(handle, guid, controlCode, (byte) level, any, all, timeoutMs, params);
        } finally {
            backend.failures().reportPending(); // the callbacks of this process's providers ran during the call
        }
        if (status == Win32Errors.ERROR_WMI_INSTANCE_NOT_FOUND || status == Win32Errors.ERROR_INVALID_HANDLE) {
            markStopped(null);
            status = Win32Errors.ERROR_WMI_INSTANCE_NOT_FOUND;
        }
        if (status == Win32Errors.ERROR_TIMEOUT) {
            // MS Learn, EnableTraceEx2, Timeout: with a nonzero timeout the function "will start configuring the
            // provider and will then begin waiting for the configuration to complete, including waiting for all
            // provider callbacks to complete"; ERROR_TIMEOUT only says the wait ran out (a slow callback, possibly
            // in another process). The change was made, so this is success, with a warning.
            LOG.log(System.Logger.Level.WARNING, "EnableTraceEx2 returned ERROR_TIMEOUT (" + status + ") for " + what
                    + ": a provider's enable callback took longer than " + Integer.toUnsignedLong(timeoutMs) + " ms; the change was made,"
                    + " but that provider may not have seen it yet");
            return;
        }
        Win32Errors.check("EnableTraceEx2", status, what);
    }

    @Override
    public void flush() {
        if (stopped) {
            return;
        }
        int status = control(EtwNative.EVENT_TRACE_CONTROL_FLUSH(), null);
        if (status == Win32Errors.ERROR_WMI_INSTANCE_NOT_FOUND) {
            markStopped(null);
            return;
        }
        Win32Errors.check("ControlTraceW", status, "FLUSH session '" + name + "'");
    }

    @Override
    public SessionStatistics query() {
        SessionStatistics last = finalStatistics;
        if (stopped && last != null) {
            return last;
        }
        SessionStatistics[] out = new SessionStatistics[1];
        int status = control(EtwNative.EVENT_TRACE_CONTROL_QUERY(), out);
        if (status == Win32Errors.ERROR_WMI_INSTANCE_NOT_FOUND) {
            markStopped(null);
            last = finalStatistics;
            if (last != null) {
                return last;
            }
        }
        Win32Errors.check("ControlTraceW", status, "QUERY session '" + name + "'");
        return out[0];
    }

    @Override
    public void update(SessionConfig newConfig) {
        Objects.requireNonNull(newConfig, "newConfig");
        if (stopped) {
            throw Win32Errors.failure("ControlTraceW", Win32Errors.ERROR_WMI_INSTANCE_NOT_FOUND, "UPDATE session '" + name + "': stopped");
        }
        SessionConfig old = config;
        // ETW would silently ignore these changes (ControlTraceW remarks, see SessionUpdates); refusing them keeps
        // config() truthful.
        SessionUpdates.check(old, newConfig);
        int status;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment props = SessionProperties.forUpdate(call, newConfig);
            status = EtwNative.ControlTraceW(handle, MemorySegment.NULL, props, EtwNative.EVENT_TRACE_CONTROL_UPDATE());
        }
        Win32Errors.check("ControlTraceW", status, "UPDATE session '" + name + "'");
        config = runningConfig(old.ifExists(), newConfig);
    }

    /**
     * The configuration as ETW now reports it (QUERY by handle), so that config() shows what Windows applied,
     * not what was asked; {@code otherwise} when the query fails.
     */
    private SessionConfig runningConfig(IfSessionExists policy, SessionConfig otherwise) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment props = SessionProperties.forQuery(call);
            int status = EtwNative.ControlTraceW(handle, MemorySegment.NULL, props, EtwNative.EVENT_TRACE_CONTROL_QUERY());
            return status == Win32Errors.ERROR_SUCCESS ? SessionProperties.config(props, name, policy) : otherwise;
        }
    }

    @Override
    public void stop() {
        synchronized (lock) {
            if (stopped) {
                return;
            }
            if (!matchesRunningSession()) {
                markStopped(null);
                return;
            }
            // FLUSH, then STOP: every buffered event reaches the log file and the real-time consumers before they
            // end (MS Learn, FlushTrace function: a session delivers events "when the buffer is full, the session's
            // FlushTimer expires, or the session is closed"; the explicit FLUSH makes it independent of how STOP
            // treats partly filled buffers). A failed FLUSH does not prevent the STOP. Issue 24, item 4.
            control(EtwNative.EVENT_TRACE_CONTROL_FLUSH(), null);
            SessionStatistics[] out = new SessionStatistics[1];
            int status;
            try {
                status = control(EtwNative.EVENT_TRACE_CONTROL_STOP(), out);
            } finally {
                backend.failures().reportPending(); // providers were told the session stopped (MS Learn, PENABLECALLBACK callback function)
            }
            if (status != Win32Errors.ERROR_SUCCESS && status != Win32Errors.ERROR_WMI_INSTANCE_NOT_FOUND) {
                throw Win32Errors.failure("ControlTraceW", status, "STOP session '" + name + "'");
            }
            markStopped(status == Win32Errors.ERROR_SUCCESS ? out[0] : null);
        }
    }

    /** The session was stopped (here, by name elsewhere, or found gone); {@code last} its final counters if known. */
    void markStopped(SessionStatistics last) {
        if (last != null && finalStatistics == null) {
            finalStatistics = last;
        }
        stopped = true;
        backend.forget(this);
    }

    @Override
    public boolean isRunning() {
        if (stopped) {
            return false;
        }
        if (!matchesRunningSession()) {
            markStopped(null);
            return false;
        }
        return true;
    }

    /** QUERY by handle: true when a session answers and it carries this session's GUID. */
    private boolean matchesRunningSession() {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment props = SessionProperties.forQuery(call);
            int status = EtwNative.ControlTraceW(handle, MemorySegment.NULL, props, EtwNative.EVENT_TRACE_CONTROL_QUERY());
            return status == Win32Errors.ERROR_SUCCESS && SessionProperties.sessionId(props).equals(sessionId);
        }
    }

    /** ControlTraceW by handle with a query-sized buffer; on success puts the counters in {@code statistics[0]}. */
    private int control(int code, SessionStatistics[] statistics) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment props = SessionProperties.forQuery(call);
            int status = EtwNative.ControlTraceW(handle, MemorySegment.NULL, props, code);
            if (status == Win32Errors.ERROR_SUCCESS && statistics != null) {
                statistics[0] = SessionProperties.statistics(props);
            }
            return status;
        }
    }

    @Override
    public String toString() {
        return "FfmSession[" + name + ", " + sessionId + (owned ? ", owned" : "") + (stopped ? ", stopped" : "") + "]";
    }
}
