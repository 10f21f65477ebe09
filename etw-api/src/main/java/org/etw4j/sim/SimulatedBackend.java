package org.etw4j.sim;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.etw4j.EtwException;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.LogfileHeader;
import org.etw4j.ThreadActivityIds;
import org.etw4j.Win32Error;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.EnableProperty;
import org.etw4j.controller.EventFilter;
import org.etw4j.controller.IfSessionExists;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionInfo;
import org.etw4j.internal.ServiceProviders;
import org.etw4j.provider.EventData;
import org.etw4j.provider.FilterData;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackendFactory;
import org.etw4j.spi.JavaThreadActivityIds;
import org.etw4j.spi.LogFileSink;
import org.etw4j.spi.LogFileSinkFactory;
import org.etw4j.spi.ProviderRegistration;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.SessionControl;
import org.etw4j.spi.TraceConsumer;

/**
 * ETW simulated in pure Java, with Windows' semantics: the engine behind every API off Windows and in CI.
 *
 * <p>Thread-safe. One instance is one "machine": its sessions and providers see each other, no one else's
 * ({@link #shared()} is the process-wide one; tests create their own). What it follows:
 * <ul>
 *   <li>Enable notifications (MS Learn, PENABLECALLBACK callback function): level = maximum over the sessions enabling a provider, MatchAnyKeyword =
 *       their OR, MatchAllKeyword = their AND; DISABLE only when no session enables it; a provider registering
 *       after a session enabled it is notified at registration with a GUID_NULL source; CAPTURE_STATE leaves the
 *       state alone; a stopping session updates its providers. Notifications run on the process's notification
 *       thread, one at a time, as on Windows ({@link #SimulatedBackend()}). The maximum is numeric, as that page states it: a session at level 0 ("every
 *       level") beside one at level 4 gives the provider 4; whether Windows' kernel does the same is not
 *       documented, so this is the page's rule, not an observation.</li>
 *   <li>Per-session delivery (MS Learn, EVENT_DESCRIPTOR structure): each session applies its own level (0 admits every level), keyword,
 *       IGNORE_KEYWORD_0 and system filters ({@link SessionFilter}).</li>
 *   <li>Buffers and losses (MS Learn, EventWrite function): see {@link SimSession}.</li>
 *   <li>Real-time consumers (MS Learn, PEVENT_RECORD_CALLBACK callback function): see {@link SimConsumer}.</li>
 * </ul>
 * Simulated values, where Windows would ask the kernel: the SID item is S-1-5-21-0-0-0-(uid or 1000), the
 * terminal-session id is 1, stack items hash Java frames ({@link StackCapture}), the process start key is fixed
 * per process, and every event is logged on processor 0 by a 64-bit process.
 */
public final class SimulatedBackend implements EtwBackend {
    /** The name that selects this backend ({@code -Detw4j.backend=simulated}). */
    public static final String NAME = "simulated";
    /** Windows' default limit on concurrently running sessions. */
    public static final int MAX_SESSIONS = 64;
    /** Concurrent private in-process sessions per process (MS Learn, "Logging Mode Constants", EVENT_TRACE_PRIVATE_IN_PROC). */
    public static final int MAX_PRIVATE_SESSIONS = 3;

    private static final AtomicReference<SimulatedBackend> SHARED = new AtomicReference<>();

    private final Map<Guid, ProviderEntry> providers = new ConcurrentHashMap<>();
    private final Map<String, SimSession> sessions = new ConcurrentHashMap<>();
    private final Map<String, Guid> installedProviders = new ConcurrentHashMap<>();
    private final Object notifyLock = new Object();
    private final JavaThreadActivityIds activityIds = new JavaThreadActivityIds(new SimActivityIds());
    private final AtomicInteger nextLoggerId = new AtomicInteger(0x10);
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final int pid = (int) ProcessHandle.current().pid();
    private final String executable = ProcessHandle.current().info().command().orElse("java");
    private final long processStartKey = ((long) pid << 32) ^ ProcessHandle.current().info().startInstant()
            .map(java.time.Instant::toEpochMilli).orElse(0L);
    private final byte[] userSid = simulatedSid();
    private volatile LogFileSinkFactory logFileSinks;
    /** The process's notification thread: enable callbacks run there, as on Windows (issue 21, item 8 (1)). */
    private final EnableNotifier notifier = new EnableNotifier();

    /**
     * A new, empty simulated machine. Its enable callbacks run as on Windows: on a notification thread of the
     * process, one at a time in the order the controller's calls made them, after {@code EnableTraceEx2} (enable,
     * disable, capture-state) or a session's stop has returned, never on the enabling thread and never under a lock
     * the enabler holds (MS Learn, PENABLECALLBACK callback function / EnableCallback: the provider receives
     * enable and disable requests through it, delivered by ETW in the provider's process, not run by the
     * controller's call; EnableTraceEx2, Timeout: "If Timeout is 0, this function will start configuring the provider asynchronously
     * and will return immediately"). An enable or capture-state that asks to wait ({@link
     * EnableParameters#waitsForCallbacks()}, EnableTraceEx2's nonzero Timeout: it waits "for all provider
     * callbacks to complete") returns once the callbacks of every provider registered on this machine have run,
     * or after the wait with a warning, as EnableTraceEx2's ERROR_TIMEOUT. So code that writes right after
     * enabling must ask to wait, as it must on Windows. A callback that takes a lock the enabling thread holds
     * does not deadlock. The callback of a provider registering while a session enables it still runs inside
     * {@code EventRegister}, on the registering thread, as on Windows (issue 21, item 5). Before issue 21 item 8
     * the default ran callbacks synchronously on the enabling thread under the machine's lock.
     */
    public SimulatedBackend() {
    }

    /**
     * The same as {@link #SimulatedBackend()}: every simulated machine has delivered its enable callbacks on a
     * notification thread since issue 21, item 8 (1).
     *
     * @deprecated use {@code new SimulatedBackend()}
     */
    @Deprecated
    public static SimulatedBackend withNotificationThread() {
        return new SimulatedBackend();
    }

    /**
     * Waits up to {@code timeout} until every enable callback queued so far on this machine has run; false when
     * the time ran out first. For tests of the simulator after a change no Windows call can wait for: a session's
     * stop (ControlTrace STOP has no Timeout; the providers it enabled learn of it on their notification thread).
     * After an enable, disable or capture-state, ask that call to wait instead ({@link
     * EnableParameters.Builder#waitForCallbacks}), as a Windows program must. Not from inside a callback (it would
     * wait for itself: returns false at once).
     */
    public boolean awaitEnableCallbacks(java.time.Duration timeout) throws InterruptedException {
        return !notifier.isNotificationThread() && notifier.awaitQueued(timeout);
    }

    /** The process-wide simulated machine. */
    public static SimulatedBackend shared() {
        SimulatedBackend b = SHARED.get();
        if (b == null) {
            SHARED.compareAndSet(null, new SimulatedBackend());
            b = SHARED.get();
        }
        return b;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isNative() {
        return false;
    }

    @Override
    public ThreadActivityIds activityIds() {
        return activityIds;
    }

    /** Uses {@code factory} for file-mode sessions instead of the one found with ServiceLoader. */
    public void setLogFileSinkFactory(LogFileSinkFactory factory) {
        this.logFileSinks = factory;
    }

    /** Failures on background threads (file writes), for diagnostics. */
    public List<Throwable> backgroundErrors() {
        return List.copyOf(errors);
    }

    // ---------------------------------------------------------------- providers

    /**
     * Installs a provider's name on this simulated machine, as {@code wevtutil im} installs a manifest on Windows:
     * from now on {@link #registeredProviders()} lists it (TdhEnumerateProviders' view), so names resolve to its
     * GUID ({@link org.etw4j.controller.ProviderResolution}). Registering a provider does not list it, as on
     * Windows, where EventSource and TraceLogging providers are not enumerated.
     */
    public void installProvider(String name, Guid id) {
        installedProviders.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(id, "id"));
    }

    @Override
    public Map<String, Guid> registeredProviders() {
        return Map.copyOf(installedProviders);
    }

    @Override
    public ProviderRegistration registerProvider(Guid providerId, EnableCallback callback) {
        // An entry is never removed from the map, so the registration can keep it: writes skip the map lookup.
        ProviderEntry e = providers.computeIfAbsent(providerId, k -> new ProviderEntry());
        SimRegistration reg = new SimRegistration(this, providerId, callback, e);
        try {
            synchronized (notifyLock) {
                e.registrations.add(reg);
                if (e.targets.length > 0) {
                    // MS Learn, PENABLECALLBACK callback function: enabled before the provider started -> notified now, with no source id.
                    Aggregate a = aggregate(providerId);
                    notifyNow(reg, 1, Guid.NULL, a); // inside EventRegister, on the registering thread (issue 21, item 5)
                }
            }
        } finally {
            reg.opened();
        }
        return reg;
    }

    void unregister(SimRegistration reg) {
        synchronized (notifyLock) {
            ProviderEntry e = providers.get(reg.providerId());
            if (e != null) {
                e.registrations.remove(reg);
            }
        }
    }

    int write(SimRegistration reg, EventDescriptor d, Guid activity, Guid related, EventData data, boolean blockTypesHonoured) {
        SessionFilter[] targets = reg.entry.targets;
        if (targets.length == 0) {
            return 0; // MS Learn, EventWrite function: no session records the event -> nothing happens, ERROR_SUCCESS
        }
        int traitsIndex = -1;
        int metadataIndex = -1;
        int payloadSize = 0;
        for (int i = 0, n = data.count(); i < n; i++) {
            int type = blockTypesHonoured ? data.type(i) : EventData.TYPE_PAYLOAD;
            if (type == EventData.TYPE_PROVIDER_METADATA) {
                traitsIndex = traitsIndex < 0 ? i : traitsIndex;
            } else if (type == EventData.TYPE_EVENT_METADATA) {
                metadataIndex = metadataIndex < 0 ? i : metadataIndex;
            } else if (type == EventData.TYPE_PAYLOAD) {
                payloadSize += data.length(i);
            }
        }
        if ((long) payloadSize > org.etw4j.format.EventHeaderLayout.MAX_EVENT_SIZE) {
            return Win32Error.ERROR_ARITHMETIC_OVERFLOW.code();
        }
        Guid act = activity != null ? activity : activityIds.get();
        int tid = (int) Thread.currentThread().getId();
        int status = 0;
        for (SessionFilter f : targets) {
            if (f.accepts(d, data, metadataIndex)) {
                int s = f.session.append(f, reg.providerId(), d, act, related, data, traitsIndex, metadataIndex, payloadSize, tid);
                if (s != 0) {
                    status = s;
                }
            }
        }
        return status;
    }

    // ---------------------------------------------------------------- enabling

    void enable(SimSession session, Guid providerId, EnableParameters p) {
        enableNow(session, providerId, p);
        awaitCallbacks(providerId, p);
    }

    /**
     * EnableTraceEx2's Timeout (MS Learn, EnableTraceEx2: with a nonzero Timeout the function "will start
     * configuring the provider and will then begin waiting for the configuration to complete, including waiting
     * for all provider callbacks to complete"): when {@code p} asks to wait, returns once every callback queued so
     * far (every provider of this machine) has run, or when the wait ran out. Not from the notification thread
     * itself: a callback that enables would wait for itself.
     */
    private void awaitCallbacks(Guid providerId, EnableParameters p) {
        awaitCallbacks(providerId, p.callbackWait());
    }

    private void awaitCallbacks(Guid providerId, java.time.Duration wait) {
        if (!wait.isZero() && !notifier.isNotificationThread()) {
            boolean done;
            try {
                done = notifier.awaitQueued(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                done = false;
            }
            if (!done) {
                // As the Windows backend treats EnableTraceEx2's ERROR_TIMEOUT: the change was made, the wait ran out.
                System.getLogger(SimulatedBackend.class.getName()).log(System.Logger.Level.WARNING, "EnableTraceEx2 (simulated)"
                        + " timed out: an enable callback of provider " + providerId + " took longer than " + wait
                        + "; the change was made, but that provider may not have seen it yet");
            }
        }
    }

    private void enableNow(SimSession session, Guid providerId, EnableParameters p) {
        synchronized (notifyLock) {
            session.enabled.put(providerId, new SessionFilter(session, p, pid, executable));
            providers.computeIfAbsent(providerId, k -> new ProviderEntry());
            Guid source = p.sourceId() != null ? p.sourceId() : session.sessionId();
            for (Guid id : affectedBy(providerId)) {
                ProviderEntry e = providers.get(id);
                retarget(id, e);
                if (e.targets.length == 0) {
                    continue; // a group GUID enabled with PROVIDER_GROUP is not itself a provider
                }
                Aggregate a = aggregate(id);
                for (SimRegistration r : e.registrations) {
                    notify(r, 1, source, a);
                }
            }
        }
    }

    /**
     * The providers an enable or disable of {@code id} changes: the provider {@code id} and the members of the
     * provider group {@code id} (those whose traits name it). Which of them a session's filter applies to is
     * {@link #retarget}'s business (PROVIDER_GROUP or not). Caller holds notifyLock.
     */
    private List<Guid> affectedBy(Guid id) {
        List<Guid> ids = new ArrayList<>();
        ids.add(id);
        for (Map.Entry<Guid, ProviderEntry> en : providers.entrySet()) {
            if (id.equals(en.getValue().group) && !en.getKey().equals(id)) {
                ids.add(en.getKey());
            }
        }
        return ids;
    }

    /**
     * A registration set traits naming {@code group} (or none): the provider joins it, and if a session enables
     * that group with PROVIDER_GROUP, it is enabled now, as on Windows, where "members registered later join"
     * (issue 21, item 7).
     */
    void joinGroup(SimRegistration reg, Guid group) {
        synchronized (notifyLock) {
            ProviderEntry e = reg.entry;
            if (java.util.Objects.equals(e.group, group)) {
                return;
            }
            boolean wasEnabled = e.targets.length > 0;
            e.group = group;
            retarget(reg.providerId(), e);
            if (e.targets.length > 0 || wasEnabled) {
                Aggregate a = aggregate(reg.providerId());
                for (SimRegistration r : e.registrations) {
                    notify(r, e.targets.length == 0 ? 0 : 1, Guid.NULL, e.targets.length == 0 ? Aggregate.NONE : a);
                }
            }
        }
    }

    void disable(SimSession session, Guid providerId, java.time.Duration callbackWait) {
        disableNow(session, providerId);
        awaitCallbacks(providerId, callbackWait);
    }

    private void disableNow(SimSession session, Guid providerId) {
        synchronized (notifyLock) {
            SessionFilter removed = session.enabled.remove(providerId);
            if (removed == null) {
                return;
            }
            for (Guid id : affectedBy(providerId)) {
                ProviderEntry e = providers.get(id);
                if (e != null) {
                    SessionFilter[] before = e.targets;
                    retarget(id, e);
                    if (before.length != e.targets.length) {
                        notifyAfterRemoval(id, e, sourceOf(session, removed));
                    }
                }
            }
        }
    }

    void captureState(SimSession session, Guid providerId, EnableParameters p) {
        synchronized (notifyLock) {
            ProviderEntry e = providers.get(providerId);
            if (e == null) {
                return;
            }
            Aggregate a = new Aggregate(p.level(), p.matchAnyKeyword(), p.matchAllKeyword(), filtersOf(List.of(p)));
            Guid source = p.sourceId() != null ? p.sourceId() : session.sessionId();
            for (SimRegistration r : e.registrations) {
                notify(r, 2, source, a);
            }
        }
        awaitCallbacks(providerId, p); // EnableTraceEx2(CAPTURE_STATE) takes the same Timeout
    }

    /**
     * MS Learn, PENABLECALLBACK callback function: a stopping session updates the providers it enabled (and the
     * members of groups it enabled).
     */
    void sessionStopping(SimSession session) {
        synchronized (notifyLock) {
            for (Map.Entry<Guid, SessionFilter> en : session.enabled.entrySet()) {
                Guid enabledId = en.getKey();
                session.enabled.remove(enabledId);
                for (Guid id : affectedBy(enabledId)) {
                    ProviderEntry e = providers.get(id);
                    if (e != null) {
                        SessionFilter[] before = e.targets;
                        retarget(id, e);
                        if (before.length != e.targets.length) {
                            notifyAfterRemoval(id, e, sourceOf(session, en.getValue()));
                        }
                    }
                }
            }
            sessions.remove(session.name(), session);
        }
    }

    private static Guid sourceOf(SimSession s, SessionFilter f) {
        return f.parameters.sourceId() != null ? f.parameters.sourceId() : s.sessionId();
    }

    private void notifyAfterRemoval(Guid providerId, ProviderEntry e, Guid source) {
        Aggregate a = aggregate(providerId);
        int code = e.targets.length == 0 ? 0 : 1; // MS Learn, PENABLECALLBACK callback function: still ENABLE while another session enables it
        for (SimRegistration r : e.registrations) {
            notify(r, code, source, code == 0 ? Aggregate.NONE : a);
        }
    }

    /**
     * The session filters that apply to provider {@code providerId}: a session's enable of the provider itself
     * (without PROVIDER_GROUP), and a session's enable with PROVIDER_GROUP of the group the provider's traits
     * name, whose level, keywords and filters then apply to every member (MS Learn, ENABLE_TRACE_PARAMETERS,
     * EVENT_ENABLE_PROPERTY_PROVIDER_GROUP: the ProviderId given to EnableTraceEx2 is a provider group; "Provider
     * Traits": members join by their group trait).
     */
    private void retarget(Guid providerId, ProviderEntry e) {
        List<SessionFilter> list = new ArrayList<>();
        for (SimSession s : sessions.values()) {
            if (!s.isRunning()) {
                continue;
            }
            SessionFilter f = s.enabled.get(providerId);
            if (f != null && !f.parameters.has(EnableProperty.PROVIDER_GROUP)) {
                list.add(f);
            } else if (e.group != null) {
                SessionFilter g = s.enabled.get(e.group);
                if (g != null && g.parameters.has(EnableProperty.PROVIDER_GROUP)) {
                    list.add(g);
                }
            }
        }
        e.targets = list.toArray(SessionFilter.NONE);
    }

    private Aggregate aggregate(Guid providerId) {
        ProviderEntry e = providers.get(providerId);
        if (e == null || e.targets.length == 0) {
            return Aggregate.NONE;
        }
        int level = 0;
        long any = 0;
        long all = -1L;
        List<EnableParameters> ps = new ArrayList<>();
        for (SessionFilter f : e.targets) {
            level = Math.max(level, f.parameters.level());
            any |= f.parameters.matchAnyKeyword();
            all &= f.parameters.matchAllKeyword();
            ps.add(f.parameters);
        }
        return new Aggregate(level, any, all, filtersOf(ps));
    }

    private static List<FilterData> filtersOf(List<EnableParameters> ps) {
        List<FilterData> out = new ArrayList<>();
        for (EnableParameters p : ps) {
            EventFilter.Custom c = p.filter(EventFilter.Custom.class);
            if (c != null) {
                out.add(new FilterData(c.type(), c.data()));
            }
        }
        return out;
    }

    /** One enable callback, queued for the notification thread (see {@link #SimulatedBackend()}). */
    private void notify(SimRegistration r, int code, Guid source, Aggregate a) {
        notifier.submit(() -> notifyNow(r, code, source, a));
    }

    private void notifyNow(SimRegistration r, int code, Guid source, Aggregate a) {
        try {
            r.notify(code, source, a.level, a.any, a.all, a.filters);
        } catch (Throwable t) {
            // Same rule as the native backend: nothing thrown by a callback escapes into the engine.
            errors.add(t);
        }
    }

    // ---------------------------------------------------------------- sessions

    @Override
    public SessionControl startSession(SessionConfig config) {
        if (config.kernel() != null && config.realTime()) {
            // the simulated consumers read EVENT_HEADER records only; Windows converts kernel records for real-time
            // consumers inside ProcessTrace, which the simulator does not model
            throw new EtwException("StartTraceW", Win32Error.ERROR_NOT_SUPPORTED.code(), "session '" + config.name()
                    + "': the simulated ETW writes kernel events to an .etl file only; a real-time kernel session"
                    + " needs Windows");
        }
        synchronized (notifyLock) {
            SimSession existing = sessions.get(config.name());
            if (existing != null) {
                if (config.ifExists() == IfSessionExists.ATTACH) {
                    return existing;
                }
                if (config.ifExists() == IfSessionExists.FAIL) {
                    throw new EtwException("StartTraceW", Win32Error.ERROR_ALREADY_EXISTS.code(), "session '" + config.name() + "'");
                }
            }
            // A private session "does not count against the maximum of 64 event tracing sessions" (MS Learn,
            // "Configuring and Starting a Private Logger Session"); with EVENT_TRACE_PRIVATE_IN_PROC "you can have up
            // to three concurrent private sessions for a process" (MS Learn, "Logging Mode Constants"; the private
            // logger page says 8 per process since Windows 10 1703: the lower figure is modelled). Which status
            // Windows returns past the limit is not documented: ERROR_NO_SYSTEM_RESOURCES is this model's choice.
            long privates = sessions.values().stream().filter(x -> x.config().privateInProcess()).count();
            if (config.privateInProcess() && existing == null && privates >= MAX_PRIVATE_SESSIONS) {
                throw new EtwException("StartTraceW", Win32Error.ERROR_NO_SYSTEM_RESOURCES.code(),
                        MAX_PRIVATE_SESSIONS + " private in-process sessions running in this process");
            }
            if (!config.privateInProcess() && existing == null && sessions.size() - privates >= MAX_SESSIONS) {
                throw new EtwException("StartTraceW", Win32Error.ERROR_NO_SYSTEM_RESOURCES.code(), MAX_SESSIONS + " sessions running");
            }
        }
        if (config.ifExists() == IfSessionExists.REPLACE) {
            SimSession existing = sessions.get(config.name());
            if (existing != null) {
                existing.stop();
            }
        }
        synchronized (notifyLock) {
            if (sessions.containsKey(config.name())) {
                throw new EtwException("StartTraceW", Win32Error.ERROR_ALREADY_EXISTS.code(), "session '" + config.name() + "'");
            }
            SimSession s = new SimSession(this, config, nextLoggerId.getAndIncrement());
            sessions.put(config.name(), s);
            return s;
        }
    }

    @Override
    public SessionControl attachSession(String name) {
        SimSession s = sessions.get(name);
        if (s == null) {
            throw new EtwException("ControlTraceW", Win32Error.ERROR_WMI_INSTANCE_NOT_FOUND.code(), "session '" + name + "'");
        }
        return s;
    }

    @Override
    public List<SessionInfo> querySessions() {
        List<SessionInfo> out = new ArrayList<>();
        for (SimSession s : sessions.values()) {
            out.add(new SessionInfo(s.name(), s.sessionId(), s.loggerId(), s.config().realTime(), s.config().logFile()));
        }
        out.sort(java.util.Comparator.comparing(SessionInfo::name));
        return out;
    }

    @Override
    public void stopSession(String name) {
        attachSession(name).stop();
    }

    @Override
    public TraceConsumer openRealTime(String sessionName, RecordSink sink) {
        SimSession s = sessions.get(sessionName);
        if (s == null) {
            throw new EtwException("OpenTraceW", Win32Error.ERROR_WMI_INSTANCE_NOT_FOUND.code(), "session '" + sessionName + "'");
        }
        SimConsumer c = new SimConsumer(s, sink);
        s.attach(c);
        return c;
    }

    // ---------------------------------------------------------------- helpers for sessions

    LogfileHeader logfileHeader(SessionConfig c, SessionClock clock) {
        // REAL_TIME_MODE 0x100, the file mode's EVENT_TRACE_FILE_MODE_* bit, PRIVATE_LOGGER_MODE 0x800 | PRIVATE_IN_PROC
        // 0x20000 (evntrace.h): what TRACE_LOGFILE_HEADER.LogFileMode records
        int mode = (c.realTime() ? 0x100 : 0) | (c.logFile() != null ? c.fileMode().bit() : 0)
                | (c.privateInProcess() ? 0x800 | 0x2_0000 : 0);
        // nanoTime counts from boot on Linux and Windows; elsewhere this is only an approximation of BootTime
        long boot = clock.startFileTime() - System.nanoTime() / 100;
        int bias = -java.util.TimeZone.getDefault().getOffset(System.currentTimeMillis()) / 60_000;
        return new LogfileHeader(c.bufferSizeBytes(), 10, 0, 1, 5, 19045, Runtime.getRuntime().availableProcessors(), 0L,
                156_250, c.maximumFileSizeMb(), mode, 1, 8, 0, (int) SessionClock.CPU_MHZ, boot, SessionClock.QPC_FREQUENCY,
                clock.startFileTime(), clock.type().value(), 0, bias, c.name(),
                c.logFile() == null ? "" : c.logFile().toAbsolutePath().toString());
    }

    LogFileSink openLogFile(Path path, LogfileHeader header, long startRaw, boolean append) throws IOException {
        LogFileSinkFactory f = logFileSinks;
        List<String> tooNew = List.of();
        if (f == null) {
            ServiceProviders.Loaded<LogFileSinkFactory> found =
                    ServiceProviders.load(LogFileSinkFactory.class, SimulatedBackend.class.getClassLoader());
            f = found.providers().isEmpty() ? null : found.providers().get(0);
            tooNew = found.tooNew();
        }
        if (f == null && !tooNew.isEmpty()) {
            // issue 25: a Java 17 application with etw-consumer (Java 22+) on its class path starting a file session
            throw new IOException("the .etl writer (etw-consumer) needs Java 22 or newer to write log files: "
                    + String.join("; ", tooNew) + ". Run this application on Java 22+, or use a real-time session");
        }
        if (f == null) {
            throw new IOException("no .etl writer on the class path: add the etw-consumer module to write log files");
        }
        return append ? f.openForAppend(path, header, startRaw) : f.open(path, header, startRaw);
    }

    int pid() {
        return pid;
    }

    int terminalSessionId() {
        return 1;
    }

    long processStartKey() {
        return processStartKey;
    }

    byte[] userSid() {
        return userSid;
    }

    void recordError(Throwable t) {
        errors.add(t);
    }

    private static byte[] simulatedSid() {
        // S-1-5-21-0-0-0-<rid>: revision 1, 4 sub-authorities, identifier authority 5 (NT).
        long rid = 1000;
        try {
            Object uid = java.nio.file.Files.getAttribute(Path.of(System.getProperty("user.home")), "unix:uid");
            rid = ((Number) uid).longValue();
        } catch (Exception | Error ignored) {
            // not a Unix file system: keep 1000
        }
        byte[] sid = new byte[8 + 4 * 5];
        sid[0] = 1;
        sid[1] = 5;
        sid[7] = 5;
        int[] subs = {21, 0, 0, 0, (int) rid};
        for (int i = 0; i < subs.length; i++) {
            int v = subs[i];
            sid[8 + 4 * i] = (byte) v;
            sid[9 + 4 * i] = (byte) (v >>> 8);
            sid[10 + 4 * i] = (byte) (v >>> 16);
            sid[11 + 4 * i] = (byte) (v >>> 24);
        }
        return sid;
    }

    /** Registrations and the sessions enabling one provider GUID; created once per GUID and never removed. */
    static final class ProviderEntry {
        final List<SimRegistration> registrations = new CopyOnWriteArrayList<>();
        volatile SessionFilter[] targets = SessionFilter.NONE;
        /** The provider group its traits name (MS Learn, "Provider Traits"), or null; guarded by notifyLock. */
        Guid group;
    }

    /** The combined enable state of the sessions enabling a provider (MS Learn, PENABLECALLBACK callback function). */
    private record Aggregate(int level, long any, long all, List<FilterData> filters) {
        static final Aggregate NONE = new Aggregate(0, 0L, 0L, List.of());
    }

    /**
     * The ServiceLoader factory of the simulated backend: always supported, lowest priority; it returns the
     * process-wide {@link #shared()} instance.
     *
     * <p>Stateless; thread-safe.
     */
    public static final class Factory implements EtwBackendFactory {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public boolean isSupported() {
            return true;
        }

        @Override
        public int priority() {
            return 0;
        }

        @Override
        public EtwBackend create() {
            return shared();
        }

        @Override
        public boolean isSimulated() {
            return true;
        }
    }
}
