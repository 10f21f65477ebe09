package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.etw4j.EtwException;
import org.etw4j.Guid;
import org.etw4j.ThreadActivityIds;
import org.etw4j.controller.IfSessionExists;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionInfo;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.JavaThreadActivityIds;
import org.etw4j.spi.ProviderRegistration;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.SessionControl;
import org.etw4j.spi.TraceConsumer;

/**
 * The etw4j backend for Windows, in plain Java over the jextract bindings of advapi32 and tdh (FFM): providers
 * (EventRegister with an upcall enable callback, EventWriteTransfer, EventSetInformation,
 * EventActivityIdControl), sessions (StartTraceW, EnableTraceEx2 with every filter type, ControlTraceW,
 * QueryAllTracesW) and real-time or file consumption (OpenTraceW, ProcessTrace, CloseTrace).
 *
 * <p>Thread-safe and long-lived (one per process in practice; {@link WindowsBackendFactory} makes it). The
 * library comes from {@link WindowsLibraries} (the system's, or a substitute named by
 * {@value WindowsLibraries#LIBRARY_PROPERTY}: the tests' stand-in). Native rules it keeps: no exception leaves
 * an upcall (caught, recorded as an {@link UpcallFailure} and reported after the downcall returns, on its
 * thread); native code receives ids, never object addresses; each native resource has one owner, one arena and
 * an idempotent close; event writes allocate nothing once warm. Sessions it started and that still run at JVM
 * exit are stopped by a shutdown hook. Control failures throw {@link EtwException} naming the ETW function, the
 * Win32 code and its symbol, with advice.
 *
 * <p>Differences from the simulated backend: event counts of a session (accepted, delivered, pending) are
 * {@link org.etw4j.controller.SessionStatistics#NOT_REPORTED} (ETW reports buffers and lost events only; the same
 * over the tests' stand-in, so the contract suite holds this backend to what Windows reports); payload filters are refused with ERROR_NOT_SUPPORTED
 * (TdhCreatePayloadFilter/TdhAggregatePayloadFilters are not bound yet; a substitute gets
 * {@link RawPayloadFilter}); real-time losses are reported as ETW announces them (see {@link FfmConsumer});
 * EnableTraceEx2 does not wait for enable callbacks unless asked ({@link
 * org.etw4j.controller.EnableParameters#callbackWait}; Timeout {@value FfmSession#DEFAULT_ENABLE_TIMEOUT_MS} by
 * default, so a provider, even one in this process, may see the change just after the call returns); when asked,
 * ERROR_TIMEOUT (some provider's callback was slower) is success with a warning, since the change was made.
 */
public final class WindowsBackend implements EtwBackend {
    /** The name that selects this backend ({@code -Detw4j.backend=windows-ffm}). */
    public static final String NAME = "windows-ffm";

    /** Sessions started by any instance and not yet stopped: the shutdown hook's list. */
    private static final Set<FfmSession> RUNNING = ConcurrentHashMap.newKeySet();
    private static volatile boolean hookInstalled;
    /** Failures caught in upcalls that could not be attributed to a backend (no registry entry). */
    private static final UpcallFailures ORPHANS = new UpcallFailures(null);

    private final UpcallFailures failures;
    private final JavaThreadActivityIds activityIds = new JavaThreadActivityIds(new FfmActivityIds(), new FfmActivityIds.OsThread());
    private final boolean systemEtw;

    private WindowsBackend(Consumer<UpcallFailure> reporter) {
        WindowsLibraries.load();
        this.systemEtw = WindowsLibraries.loadedSubstitute() == null;
        this.failures = new UpcallFailures(reporter);
    }

    /**
     * A backend over the library {@link WindowsLibraries} loads; upcall failures are logged.
     *
     * @throws UnsupportedOperationException off Windows without a substitute library
     */
    public static WindowsBackend create() {
        return new WindowsBackend(null);
    }

    /** Like {@link #create()}, handing each upcall failure to {@code reporter} (after the downcall returns). */
    public static WindowsBackend create(Consumer<UpcallFailure> reporter) {
        return new WindowsBackend(reporter);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** True over the system's advapi32, false over a substitute library. */
    @Override
    public boolean isNative() {
        return systemEtw;
    }

    boolean isSystemEtw() {
        return systemEtw;
    }

    UpcallFailures failures() {
        return failures;
    }

    /** Every failure caught in this backend's upcalls so far (at most {@value UpcallFailures#KEPT}). */
    public List<UpcallFailure> upcallFailures() {
        return failures.all();
    }

    /** Failures caught in upcalls whose context id named nothing known (should stay empty). */
    static List<UpcallFailure> orphanFailures() {
        return ORPHANS.all();
    }

    /** Inside an upcall whose owner is unknown: keeps the failure. Never throws. */
    static void recordOrphanFailure(String upcall, Throwable t) {
        ORPHANS.record(upcall, "unknown context", t);
    }

    // ---------------------------------------------------------------- providers

    @Override
    public ProviderRegistration registerProvider(Guid providerId, EnableCallback callback) {
        return FfmProviderRegistration.register(this, java.util.Objects.requireNonNull(providerId, "providerId"),
                java.util.Objects.requireNonNull(callback, "callback"));
    }

    @Override
    public ThreadActivityIds activityIds() {
        return activityIds;
    }

    // ---------------------------------------------------------------- sessions

    @Override
    public SessionControl startSession(SessionConfig config) {
        FfmSession.StartResult r = FfmSession.start(this, config);
        if (r.status() == Win32Errors.ERROR_ALREADY_EXISTS) {
            IfSessionExists policy = config.ifExists();
            if (policy == IfSessionExists.ATTACH) {
                return attachSession(config.name());
            }
            if (policy == IfSessionExists.REPLACE) {
                stopByName(config.name());
                r = FfmSession.start(this, config);
            }
        }
        if (r.status() != Win32Errors.ERROR_SUCCESS) {
            String detail = "session '" + config.name() + "'";
            if (r.status() == Win32Errors.ERROR_ALREADY_EXISTS) {
                detail += " is already running (policy " + config.ifExists() + ")";
            }
            throw Win32Errors.failure("StartTraceW", r.status(), detail);
        }
        FfmSession s = r.session();
        RUNNING.add(s);
        installShutdownHook();
        return s;
    }

    @Override
    public SessionControl attachSession(String name) {
        return FfmSession.attach(this, name);
    }

    /** {@code TdhEnumerateProviders}: the manifest and MOF providers registered on this machine (see {@link RegisteredProviders}). */
    @Override
    public java.util.Map<String, Guid> registeredProviders() {
        return RegisteredProviders.list();
    }

    @Override
    public List<SessionInfo> querySessions() {
        int capacity = 64; // Windows' default session limit; grown when ETW says there are more
        for (int attempt = 0; attempt < 5; attempt++) {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment array = call.allocate(ValueLayout.ADDRESS, capacity);
                List<MemorySegment> buffers = new ArrayList<>(capacity);
                for (int i = 0; i < capacity; i++) {
                    MemorySegment p = SessionProperties.forQuery(call);
                    buffers.add(p);
                    array.setAtIndex(ValueLayout.ADDRESS, i, p);
                }
                MemorySegment count = call.allocate(ValueLayout.JAVA_INT);
                int status = EtwNative.QueryAllTracesW(array, capacity, count);
                if (status == Win32Errors.ERROR_MORE_DATA) {
                    capacity *= 4;
                    continue;
                }
                Win32Errors.check("QueryAllTracesW", status, capacity + " entries");
                int n = Math.min(capacity, count.get(ValueLayout.JAVA_INT, 0));
                List<SessionInfo> out = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    out.add(SessionProperties.info(buffers.get(i)));
                }
                out.sort(Comparator.comparing(SessionInfo::name));
                return out;
            }
        }
        throw Win32Errors.failure("QueryAllTracesW", Win32Errors.ERROR_MORE_DATA, "more than " + capacity + " sessions");
    }

    @Override
    public void stopSession(String name) {
        stopByName(name);
    }

    /** ControlTraceW(STOP) by name; sessions of this process with that name learn they are stopped. */
    private void stopByName(String name) {
        int status;
        org.etw4j.controller.SessionStatistics last = null;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment props = SessionProperties.forQuery(call);
            status = EtwNative.ControlTraceW(0L, call.allocateFrom(name, StandardCharsets.UTF_16LE), props,
                    EtwNative.EVENT_TRACE_CONTROL_STOP());
            if (status == Win32Errors.ERROR_SUCCESS) {
                Guid stopped = SessionProperties.sessionId(props);
                last = SessionProperties.statistics(props);
                for (FfmSession s : RUNNING) {
                    if (s.name().equals(name) && s.sessionId().equals(stopped)) {
                        s.markStopped(last);
                    }
                }
            }
        } finally {
            failures.reportPending();
        }
        Win32Errors.check("ControlTraceW", status, "STOP session '" + name + "'");
    }

    /** A session stopped: it leaves the shutdown hook's list. */
    void forget(FfmSession s) {
        RUNNING.remove(s);
    }

    // ---------------------------------------------------------------- consumers

    @Override
    public TraceConsumer openRealTime(String sessionName, RecordSink sink) {
        return FfmConsumer.openRealTime(this, sessionName, sink);
    }

    /**
     * {@code OpenTraceW} on an .etl file: {@link TraceConsumer#process()} delivers its events (timestamps as
     * FILETIME) and returns at the end of the file.
     */
    public TraceConsumer openFile(Path etlFile, RecordSink sink) {
        return FfmConsumer.openFile(this, etlFile, sink);
    }

    private static void installShutdownHook() {
        if (hookInstalled) {
            return;
        }
        synchronized (WindowsBackend.class) {
            if (hookInstalled) {
                return;
            }
            hookInstalled = true;
            Runtime.getRuntime().addShutdownHook(new Thread(WindowsBackend::stopRunningSessions, "etw4j-ffm-stop-sessions"));
        }
    }

    /** Stops every session a WindowsBackend of this process started and nobody stopped (at JVM exit). */
    static void stopRunningSessions() {
        for (FfmSession s : RUNNING.toArray(new FfmSession[0])) {
            try {
                s.stop();
            } catch (RuntimeException ignored) {
                // best effort at exit: the next session start may need IfSessionExists.REPLACE
            }
        }
    }

    /** Sessions started here and still running (tests, diagnostics). */
    static int runningSessionCount() {
        return RUNNING.size();
    }

    @Override
    public String toString() {
        return "WindowsBackend[" + (systemEtw ? "advapi32" : "substitute " + WindowsLibraries.loadedSubstitute()) + "]";
    }
}
