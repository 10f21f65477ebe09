package org.etw4j.provider;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.etw4j.Backend;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Opcode;
import org.etw4j.ThreadActivityIds;
import org.etw4j.Win32Error;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackends;
import org.etw4j.spi.ProviderRegistration;
import org.etw4j.tracelogging.ProviderIds;
import org.etw4j.tracelogging.ProviderTraits;
import org.etw4j.tracelogging.TraceLoggingEvent;

/**
 * A registered ETW event provider: writes manifest-style and TraceLogging events, tracks its enable state.
 *
 * <p>Thread-safe: register once, share it, write from any thread. {@link #isEnabled(int, long)} reads the
 * state the last enable notification published (MS Learn, PENABLECALLBACK callback function) with no lock, native call or allocation, and a write
 * for an event no session wants does nothing. Writes never throw into application code: they return a Win32
 * status, count failures ({@link #statistics()}) and tell the optional {@link WriteErrorListener} (MS Learn, EventWrite function).
 * {@link #close()} unregisters, is idempotent, and later writes return ERROR_INVALID_HANDLE. It may be called
 * from any thread, {@link EnableListener}s included (they run on the provider's own notifier thread, never on
 * ETW's); on ETW's notification thread inside this provider's own enable callback, where Windows'
 * EventUnregister would wait for itself, the unregistration completes on a background thread right after the
 * callback (see {@code org.etw4j.spi.ProviderRegistration}).
 *
 * <pre>{@code
 * try (EtwProvider provider = EtwProvider.register("MyCompany-MyService")) {
 *     if (provider.isEnabled(Level.INFORMATIONAL.value(), 0x1)) {
 *         provider.event(REQUEST).int32(status).string(path).float64(millis).write();
 *     }
 * }
 * }</pre>
 */
public final class EtwProvider implements AutoCloseable {
    /** {@code EventProviderSetTraits}, the EVENT_INFO_CLASS for the TraceLogging provider metadata. */
    public static final int EVENT_PROVIDER_SET_TRAITS = 2;

    private final Guid id;
    private final String name;
    private final Guid group;
    private final EtwBackend backend;
    private final byte[] traits;
    private final List<EnableListener> enableListeners;
    private final WriteErrorListener errorListener;
    private final ProviderRegistration registration;
    private final WriteTarget target = new Target();
    private final ThreadLocal<EventWriter> writers = ThreadLocal.withInitial(this::newWriter);
    private final LongAdder writes = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder listenerErrors = new LongAdder();
    private final Map<Integer, LongAdder> failuresByStatus = new ConcurrentHashMap<>();
    private final ExecutorService notifier;

    /**
     * Listener notifications that arrived before registration and traits were done (Windows calls the enable
     * callback inside EventRegister when a session already enables the provider); guarded by itself, null once
     * the constructor released them. Until then a listener would see a provider whose write() has no
     * registration, and whose TraceLogging events ETW would read without traits (MS Learn, EVENT_INFO_CLASS:
     * EventProviderSetTraits).
     */
    private List<EnableNotification> held = new ArrayList<>();
    private final Object heldLock = new Object();

    private volatile EnableState state = EnableState.DISABLED;
    /** {@code state.enabled()}, kept apart so that the disabled case costs one load, not two dependent ones. */
    private volatile boolean anyEnabled;
    private volatile boolean closed;

    private EtwProvider(Builder b) {
        this.name = b.name != null ? b.name : b.guid.toString();
        this.id = b.guid != null ? b.guid : ProviderIds.fromName(b.name);
        this.group = b.group;
        this.backend = b.backend != null ? EtwBackends.spi(b.backend) : EtwBackends.getDefault();
        this.traits = ProviderTraits.encode(name, group);
        this.enableListeners = List.copyOf(b.listeners);
        this.errorListener = b.errorListener;
        this.notifier = enableListeners.isEmpty() ? null : newNotifier(name);
        try {
            this.registration = backend.registerProvider(id, new Callback());
        } catch (RuntimeException | Error e) {
            if (notifier != null) {
                notifier.shutdownNow(); // held notifications are dropped with the provider that never was
            }
            throw e;
        }
        // TraceLogging: tell ETW the provider traits; failure is ignored, as TraceLoggingDynamic.h does
        // (etw-formats.md 1.1): events still carry the traits in their first data block.
        registration.setInformation(EVENT_PROVIDER_SET_TRAITS, traits);
        releaseHeldNotifications();
    }

    /** Hands the notifications that came during registration to the listeners, in order; later ones go directly. */
    private void releaseHeldNotifications() {
        synchronized (heldLock) {
            List<EnableNotification> pending = held;
            held = null;
            for (EnableNotification n : pending) {
                schedule(n);
            }
        }
    }

    private void schedule(EnableNotification n) {
        try {
            notifier.execute(() -> deliver(n));
        } catch (RuntimeException rejectedAfterClose) {
            listenerErrors.increment();
        }
    }

    /** Registers a provider whose GUID is derived from its name, the EventSource/TraceLogging way. */
    public static EtwProvider register(String name) {
        return builder(name).register();
    }

    /** Registers a provider by GUID (its name, for TraceLogging traits, is the GUID text). */
    public static EtwProvider register(Guid id) {
        return builder(id).register();
    }

    /** A builder for a provider named {@code name} (GUID derived from it unless {@link Builder#guid} is set). */
    public static Builder builder(String name) {
        if (name == null || name.isEmpty() || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("provider name must be non-empty and contain no NUL");
        }
        return new Builder(name, null);
    }

    /** A builder for a provider registered by GUID. */
    public static Builder builder(Guid id) {
        return new Builder(null, Objects.requireNonNull(id, "provider id"));
    }

    /** The provider GUID. */
    public Guid id() {
        return id;
    }

    /** The provider name. */
    public String name() {
        return name;
    }

    /** The provider group GUID, or null. */
    public Guid group() {
        return group;
    }

    /** The backend this provider is registered with. */
    public Backend backend() {
        return backend;
    }

    /** The enable state published by the last notification. */
    public EnableState enableState() {
        return state;
    }

    /** Whether any session enables this provider (any level, any keyword). */
    public boolean isEnabled() {
        return anyEnabled;
    }

    /** Whether an event of this level and keyword would be wanted by some session (the formula of MS Learn, PENABLECALLBACK callback function). */
    public boolean isEnabled(int level, long keyword) {
        return anyEnabled && state.isEnabled(level, keyword);
    }

    /** Whether the event described would be wanted by some session. */
    public boolean isEnabled(EventDescriptor descriptor) {
        return anyEnabled && state.isEnabled(descriptor.level(), descriptor.keyword());
    }

    /** The calling thread's activity id control, for this provider's backend. */
    public ThreadActivityIds activityIds() {
        return backend.activityIds();
    }

    /**
     * The calling thread's reusable writer for a manifest-style event. Returns at once when the event is not
     * enabled: the writer then ignores values and {@code write()} returns ERROR_SUCCESS. One event at a time per
     * thread: a new call resets the writer.
     */
    public EventWriter event(EventDescriptor descriptor) {
        return writers.get().begin(descriptor, null, wanted(descriptor));
    }

    /** The calling thread's reusable writer for a TraceLogging event (same contract as {@link #event(EventDescriptor)}). */
    public EventWriter event(TraceLoggingEvent event) {
        return writers.get().begin(event.descriptor(), event, wanted(event.descriptor()));
    }

    private boolean wanted(EventDescriptor d) {
        boolean on = !closed && state.isEnabled(d.level(), d.keyword());
        if (!on && !closed) {
            skipped.increment();
        }
        return on;
    }

    /** Writes an event with no payload ({@code EventWrite}). */
    public int write(EventDescriptor descriptor) {
        return write(descriptor, null, null, null);
    }

    /** Writes an event whose payload is the concatenation of {@code data}'s blocks ({@code EventWrite}). */
    public int write(EventDescriptor descriptor, EventData data) {
        return write(descriptor, null, null, data);
    }

    /**
     * {@code EventWriteTransfer}: writes with an explicit activity id (null: the thread's) and related activity
     * id (null: none).
     *
     * @return a Win32 status; ERROR_SUCCESS when no session wants the event (nothing native happens then)
     */
    public int write(EventDescriptor descriptor, Guid activityId, Guid relatedActivityId, EventData data) {
        Objects.requireNonNull(descriptor, "descriptor");
        if (closed) {
            return failed(descriptor, Win32Error.ERROR_INVALID_HANDLE.code());
        }
        if (!state.isEnabled(descriptor.level(), descriptor.keyword())) {
            skipped.increment();
            return 0;
        }
        writes.increment();
        int status = registration.write(descriptor, activityId, relatedActivityId, data == null ? EMPTY.get() : data);
        return status == 0 ? 0 : failed(descriptor, status);
    }

    private static final ThreadLocal<EventData> EMPTY = ThreadLocal.withInitial(EventData::new);

    private EventWriter newWriter() {
        return new EventWriter(target, traits);
    }

    /** Where this provider's {@link EventWriter}s write: enablement was checked when they began their event. */
    private final class Target implements WriteTarget {
        @Override
        public int write(EventDescriptor descriptor, Guid activityId, Guid relatedActivityId, EventData data) {
            if (closed) {
                return failed(descriptor, Win32Error.ERROR_INVALID_HANDLE.code());
            }
            writes.increment();
            int status = registration.write(descriptor, activityId, relatedActivityId, data);
            return status == 0 ? 0 : failed(descriptor, status);
        }

        @Override
        public int notWritten(EventDescriptor descriptor) {
            return closed ? failed(descriptor, Win32Error.ERROR_INVALID_HANDLE.code()) : 0;
        }

        @Override
        public int rejected(EventDescriptor descriptor, int status) {
            return failed(descriptor, status);
        }
    }

    /**
     * Starts an activity (MS Learn, EVENT_DESCRIPTOR structure): creates a new activity id, writes {@code start} with opcode START, that id
     * and the thread's current id as related id, and makes the new id the thread's. Closing the scope writes the
     * same descriptor with opcode STOP and restores the previous id.
     */
    public ActivityScope startActivity(EventDescriptor start) {
        return ActivityScope.start(this, start.withOpcode(Opcode.START.value()), null);
    }

    /** Starts an activity whose start and stop events are the TraceLogging event {@code event}. */
    public ActivityScope startActivity(TraceLoggingEvent event) {
        return ActivityScope.start(this, event.descriptor().withOpcode(Opcode.START.value()), event);
    }

    /** Write counters. */
    public ProviderStatistics statistics() {
        Map<Integer, Long> byStatus = new TreeMap<>();
        failuresByStatus.forEach((k, v) -> byStatus.put(k, v.sum()));
        return new ProviderStatistics(writes.sum(), skipped.sum(), failures.sum(), byStatus, listenerErrors.sum());
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Unregisters ({@code EventUnregister}); idempotent; writes return ERROR_INVALID_HANDLE from now on. Never
     * blocks on ETW's own notification thread (see the class comment).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        registration.close();
        publish(EnableState.DISABLED);
        if (notifier != null) {
            notifier.shutdown();
        }
    }

    private void publish(EnableState next) {
        // state first: a reader that sees anyEnabled == true then reads a state at least this new
        state = next;
        anyEnabled = next.enabled();
    }

    private int failed(EventDescriptor descriptor, int status) {
        failures.increment();
        failuresByStatus.computeIfAbsent(status, k -> new LongAdder()).increment();
        WriteErrorListener l = errorListener;
        if (l != null) {
            try {
                l.onWriteError(this, descriptor, status);
            } catch (RuntimeException e) {
                listenerErrors.increment();
            }
        }
        return status;
    }

    @Override
    public String toString() {
        return "EtwProvider[" + name + " " + id + (closed ? ", closed" : "") + "]";
    }

    private static ExecutorService newNotifier(String name) {
        ThreadPoolExecutor ex = new ThreadPoolExecutor(0, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "etw4j-enable-" + name);
            t.setDaemon(true);
            return t;
        });
        return ex;
    }

    /** Receives the backend's notifications: publishes the state at once, hands listeners to the notifier. */
    private final class Callback implements EnableCallback {
        @Override
        public void onNotification(int controlCode, Guid sourceId, int level, long any, long all, List<FilterData> filters) {
            ControlCode code = ControlCode.of(controlCode);
            if (code == null || closed) {
                return; // MS Learn, PENABLECALLBACK callback function: ignore notifications with an IsEnabled value we do not know
            }
            EnableState next;
            switch (code) {
                case ENABLE_PROVIDER:
                    next = new EnableState(true, level, any, all);
                    break;
                case DISABLE_PROVIDER:
                    next = EnableState.DISABLED;
                    break;
                default:
                    next = state; // CAPTURE_STATE never changes (and never disables) the provider
                    break;
            }
            publish(next);
            if (notifier != null) {
                EnableNotification n = new EnableNotification(code, sourceId == null ? Guid.NULL : sourceId, level, any, all,
                        filters == null ? List.of() : filters, next);
                synchronized (heldLock) { // held only for a list add or an execute: never blocks ETW's thread
                    if (held != null) {
                        held.add(n); // inside registerProvider: delivered when the constructor is done
                        return;
                    }
                    schedule(n);
                }
            }
        }
    }

    private void deliver(EnableNotification n) {
        for (EnableListener l : enableListeners) {
            try {
                l.onNotification(this, n);
            } catch (RuntimeException e) {
                listenerErrors.increment();
            }
        }
    }

    /**
     * Configures and registers an {@link EtwProvider}.
     *
     * <p>Not thread-safe; use once.
     */
    public static final class Builder {
        private final String name;
        private Guid guid;
        private Guid group;
        private Backend backend;
        private final List<EnableListener> listeners = new ArrayList<>();
        private WriteErrorListener errorListener;

        private Builder(String name, Guid guid) {
            this.name = name;
            this.guid = guid;
        }

        /** An explicit provider GUID instead of the one derived from the name. */
        public Builder guid(Guid id) {
            this.guid = Objects.requireNonNull(id, "guid");
            return this;
        }

        /** The provider group GUID (a provider trait). */
        public Builder group(Guid groupId) {
            this.group = groupId;
            return this;
        }

        /** The backend to register with; default {@link Backend#getDefault()}. */
        public Builder backend(Backend b) {
            this.backend = Objects.requireNonNull(b, "backend");
            return this;
        }

        /** Adds a listener for enable notifications. */
        public Builder onEnable(EnableListener l) {
            listeners.add(Objects.requireNonNull(l, "listener"));
            return this;
        }

        /** Sets the listener told about failed writes. */
        public Builder onWriteError(WriteErrorListener l) {
            this.errorListener = l;
            return this;
        }

        /** Registers the provider ({@code EventRegister}). */
        public EtwProvider register() {
            return new EtwProvider(this);
        }
    }
}
