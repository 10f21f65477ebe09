package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.etw4j.EtwException;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.controller.ClockType;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.EnableProperty;
import org.etw4j.controller.EventFilter;
import org.etw4j.controller.IfSessionExists;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionInfo;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.format.FilterHeaderChain;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.generated._ENABLE_TRACE_PARAMETERS;
import org.etw4j.nativebindings.generated._ETW_BUFFER_CONTEXT;
import org.etw4j.nativebindings.generated._EVENT_DATA_DESCRIPTOR;
import org.etw4j.nativebindings.generated._EVENT_DESCRIPTOR;
import org.etw4j.nativebindings.generated._EVENT_FILTER_DESCRIPTOR;
import org.etw4j.nativebindings.generated._EVENT_HEADER;
import org.etw4j.nativebindings.generated._EVENT_RECORD;
import org.etw4j.nativebindings.generated._EVENT_TRACE_LOGFILEW;
import org.etw4j.nativebindings.generated._EVENT_TRACE_PROPERTIES;
import org.etw4j.nativebindings.generated._PROVIDER_ENUMERATION_INFO;
import org.etw4j.nativebindings.generated._TRACE_EVENT_INFO;
import org.etw4j.nativebindings.generated._TRACE_PROVIDER_INFO;
import org.etw4j.nativebindings.generated._WNODE_HEADER;
import org.etw4j.nativebindings.layout.EventHeaderExtendedDataItem;
import org.etw4j.nativebindings.layout.TdhSdkFields;
import org.etw4j.provider.EventData;
import org.etw4j.provider.FilterData;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.ProviderRegistration;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.SessionControl;
import org.etw4j.spi.TraceConsumer;
import org.etw4j.tracelogging.TraceLoggingSchema;

/**
 * The ETW behind the stand-in advapi32 in these tests: an {@code ETW_STANDIN_ENGINE} table of FFM upcalls that
 * decode what the FFM backend put in native memory and route it into a pure-Java {@link SimulatedBackend}, then
 * answer in native memory the way ETW would. So the backend runs its whole native path (structures built, symbols
 * called, callbacks received, records parsed from native memory) with the simulator as the kernel.
 *
 * <p>Thread-safe; one per process (the stand-in has one table), {@link #route routed} to the current test's
 * simulated machine: calls naming no handle (EventRegister, StartTraceW, control by name, OpenTraceW,
 * QueryAllTracesW) go to the current machine; handles keep the machine they were made
 * on. Per function:
 * <ul>
 *   <li>EventRegister: registers with the simulator; each notification it sends is passed to the provider's
 *       native PENABLECALLBACK through {@code EtwStandIn_InvokeEnableCallbackFor} (so the stand-in's
 *       EventUnregister waits for it, as Windows does) with the source GUID and an EVENT_FILTER_DESCRIPTOR built
 *       in native memory (schematized data as an EVENT_FILTER_HEADER chain);</li>
 *   <li>EventWrite/EventWriteTransfer: decodes EVENT_DESCRIPTOR and the EVENT_DATA_DESCRIPTORs into an
 *       {@link EventData} and writes through the simulator's registration, a NULL ActivityId replaced by the
 *       calling OS thread's id; EventSetInformation and EventUnregister as named; EventActivityIdControl is the
 *       stand-in's C function keeping the id per OS thread, as Windows does (etw_standin_activity.h);</li>
 *   <li>StartTraceW: decodes EVENT_TRACE_PROPERTIES (names at their offsets) into a {@link SessionConfig}; the
 *       session GUID given in Wnode.Guid is remembered and reported by later queries, as ETW does;</li>
 *   <li>EnableTraceEx2: decodes ENABLE_TRACE_PARAMETERS and its EVENT_FILTER_DESCRIPTORs into
 *       {@link EnableParameters} (payload filters in {@link RawPayloadFilter} form);</li>
 *   <li>ControlTraceW QUERY/FLUSH/UPDATE/STOP and QueryAllTracesW: the simulated session's operations, counters
 *       written back into EVENT_TRACE_PROPERTIES (only the counters Windows reports there: events lost, buffers
 *       written and lost, real-time buffers lost, buffers allocated and free);</li>
 *   <li>OpenTraceW (through {@code EtwStandIn_OpenTraceWithLastError}, which puts the status in errno),
 *       ProcessTrace, CloseTrace: a simulated real-time consumer; every record becomes an EVENT_RECORD (with
 *       EVENT_HEADER_EXTENDED_DATA_ITEMs and user data) in native memory, handed to the native
 *       PEVENT_RECORD_CALLBACK through {@code EtwStandIn_InvokeEventRecordCallback}; losses raise
 *       EVENT_TRACE_LOGFILEW.EventsLost and call the BufferCallback;</li>
 *   <li>TdhGetEventInformation: a minimal TRACE_EVENT_INFO for TraceLogging events (provider, descriptor,
 *       decoding source TLG, event name from the EVENT_SCHEMA_TL item); for other events the TRACE_EVENT_INFO a
 *       test {@link #registerTdhEvent registered} for (provider, id, version), as if its manifest were
 *       registered on the machine, else ERROR_NOT_FOUND; calls are counted
 *       ({@link #tdhEventInformationCalls});</li>
 *   <li>TdhGetEventMapInformation: the EVENT_MAP_INFO a test {@link #registerTdhMap registered} for the record's
 *       provider and the map name, else ERROR_NOT_FOUND.</li>
 * </ul>
 * Nothing thrown escapes an upcall: simulator refusals ({@link EtwException}) become their status, bad input
 * ERROR_INVALID_PARAMETER, anything else is kept in {@link #errors()} (tests assert it stays empty) and answered
 * with ERROR_INTERNAL_ERROR. {@link #failNext} makes a function fail once with a given status.
 */
final class SimEtwEngine {
    static final int ERROR_INTERNAL_ERROR = 1359;
    static final int ERROR_NOT_FOUND = 1168;
    static final int ERROR_TIMEOUT = 1460;
    /** INFINITE (winbase.h): 0xFFFFFFFF. */
    static final long INFINITE = 0xFFFF_FFFFL;

    private static SimEtwEngine instance;

    private final StandIn.Exports standIn;
    private final Arena global = Arena.global();
    private final MemorySegment table;
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final List<Long> enableTimeouts = new CopyOnWriteArrayList<>();
    private final AtomicLong closePending = new AtomicLong();
    private final AtomicLong bufferCallbacks = new AtomicLong();
    private final Map<String, ConcurrentLinkedQueue<Integer>> injected = new ConcurrentHashMap<>();
    private final AtomicLong lastHandle = new AtomicLong(0x1000);
    private final Map<Long, EngineProvider> providers = new ConcurrentHashMap<>();
    private final Map<Long, EngineSession> sessions = new ConcurrentHashMap<>();
    private final Map<SessionControl, EngineSession> sessionsByControl = new ConcurrentHashMap<>();
    private final Map<Long, EngineConsumer> consumers = new ConcurrentHashMap<>();
    private final AtomicLong writes = new AtomicLong();
    private final Map<Guid, AtomicLong> unregistered = new ConcurrentHashMap<>();
    private final Map<TdhKind, byte[]> tdhEvents = new ConcurrentHashMap<>();
    private final Map<TdhMap, byte[]> tdhMaps = new ConcurrentHashMap<>();
    private final Map<TdhKind, AtomicLong> tdhCalls = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicReference<Long> misdirected = new java.util.concurrent.atomic.AtomicReference<>();
    private volatile SimulatedBackend machine = new SimulatedBackend();
    private volatile Duration slowestCallback = Duration.ZERO;

    private SimEtwEngine(StandIn.Exports standIn) throws Throwable {
        this.standIn = standIn;
        int size = (int) standIn.engineSize.invokeExact();
        table = global.allocate(size, 8);
        table.set(ValueLayout.JAVA_INT, 0, size); // Size
        entry("EventRegister", "eventRegister", ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
        entry("EventUnregister", "eventUnregister", ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG);
        entry("EventWrite", "eventWrite", ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS);
        entry("EventWriteTransfer", "eventWriteTransfer", ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS);
        // EventActivityIdControl: the C function keeping the id per OS thread, as Windows does (etw_standin_activity.h).
        table.set(ValueLayout.ADDRESS, offsetOf("EventActivityIdControl"), standIn.activityIdControlPerOsThread);
        entry("EventSetInformation", "eventSetInformation", ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.JAVA_INT);
        entry("StartTraceW", "startTrace", ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
        entry("ControlTraceW", "controlTrace", ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                ValueLayout.JAVA_INT);
        entry("QueryAllTracesW", "queryAllTraces", ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS);
        entry("EnableTraceEx2", "enableTrace", ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_BYTE, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS);
        entry("ProcessTrace", "processTrace", ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                ValueLayout.ADDRESS);
        entry("CloseTrace", "closeTrace", ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG);
        entry("TdhGetEventInformation", "tdhGetEventInformation", ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
        entry("TdhGetEventMapInformation", "tdhGetEventMapInformation", ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
        entry("TdhEnumerateProviders", "tdhEnumerateProviders", ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
        // OpenTraceW: the C helper sets errno (the "last error" on Linux) from what openTrace returns.
        table.set(ValueLayout.ADDRESS, offsetOf("OpenTraceW"), standIn.openTraceWithLastError);
        MemorySegment openImpl = upcall("openTrace", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        standIn.setOpenTraceImpl.invokeExact(openImpl);
    }

    /** The engine, installed in the stand-in (again, after {@link #noopWrites}); skips the test without it. */
    static synchronized SimEtwEngine install() {
        StandIn.Exports exports = StandIn.require();
        try {
            if (instance == null) {
                instance = new SimEtwEngine(exports);
            }
            instance.noopWrites(false);
            return instance;
        } catch (Throwable t) {
            throw new IllegalStateException("cannot install the simulated ETW engine", t);
        }
    }

    /** Routes calls naming no handle into {@code backend} from now on. */
    SimEtwEngine route(SimulatedBackend backend) {
        this.machine = backend;
        errors.clear(); // each test starts with a clean record
        return this;
    }

    SimulatedBackend machine() {
        return machine;
    }

    /** Throwables caught in the engine's upcalls (should stay empty). */
    List<Throwable> errors() {
        return errors;
    }

    /** Events that reached the engine's EventWrite(Transfer). */
    long writes() {
        return writes.get();
    }

    /** EventUnregister calls that reached the engine for registrations of {@code provider}. */
    long unregistrations(Guid provider) {
        AtomicLong n = unregistered.get(provider);
        return n == null ? 0 : n.get();
    }

    /** EventUnregister calls made inside a callback of the same registration (each hangs, as on Windows). */
    int selfUnregisterWaits() {
        try {
            return (int) standIn.selfUnregisterWaits.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** TDH on this "machine" knows event (id, version) of {@code provider}: {@code traceEventInfo} (see TdhBlobs). */
    void registerTdhEvent(Guid provider, int id, int version, byte[] traceEventInfo) {
        tdhEvents.put(new TdhKind(provider, id, version), traceEventInfo.clone());
    }

    /** TDH on this "machine" knows map {@code name} of {@code provider}: {@code eventMapInfo} (see TdhBlobs). */
    void registerTdhMap(Guid provider, String name, byte[] eventMapInfo) {
        tdhMaps.put(new TdhMap(provider, name), eventMapInfo.clone());
    }

    /** TdhGetEventInformation calls made for records of (provider, id, version) so far. */
    long tdhEventInformationCalls(Guid provider, int id, int version) {
        AtomicLong n = tdhCalls.get(new TdhKind(provider, id, version));
        return n == null ? 0 : n.get();
    }

    /** The next call of {@code function} returns {@code status} without doing anything. */
    void failNext(String function, int status) {
        injected.computeIfAbsent(function, k -> new ConcurrentLinkedQueue<>()).add(status);
    }

    /**
     * From now on, some provider on this "machine" (another process's, say) takes {@code d} to return from its
     * enable callback: EnableTraceEx2 with a Timeout shorter than that answers ERROR_TIMEOUT (see enableTrace).
     */
    void providerCallbackTakes(Duration d) {
        slowestCallback = d;
    }

    /** BufferCallback calls made after a delivered buffer so far (all consumers). */
    long bufferCallbacks() {
        return bufferCallbacks.get();
    }

    /** CloseTrace calls answered ERROR_CTX_CLOSE_PENDING (ProcessTrace was running) so far. */
    long closePendingAnswers() {
        return closePending.get();
    }

    /** The Timeout argument of every EnableTraceEx2 call so far, in milliseconds, oldest first. */
    List<Long> enableTimeouts() {
        return List.copyOf(enableTimeouts);
    }

    /** The next enable notification carries {@code context} instead of its provider's CallbackContext. */
    void misdirectNextNotification(long context) {
        misdirected.set(context);
    }

    /** With {@code on}, EventWrite* return ERROR_SUCCESS in C without reaching the engine (stand-in flag 0x1). */
    void noopWrites(boolean on) {
        table.set(ValueLayout.JAVA_INT, 4, on ? 0x1 : 0); // Flags: ETW_STANDIN_FLAG_NOOP_WRITES
        try {
            standIn.install.invokeExact(table);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    // ------------------------------------------------------------------ table plumbing

    private long offsetOf(String name) throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            int off = (int) standIn.engineOffsetOf.invokeExact(a.allocateFrom(name));
            if (off < 0) {
                throw new IllegalStateException("the stand-in has no table entry " + name);
            }
            return off;
        }
    }

    private void entry(String function, String method, ValueLayout result, MemoryLayout... args) throws Throwable {
        table.set(ValueLayout.ADDRESS, offsetOf(function), upcall(method, FunctionDescriptor.of(result, args)));
    }

    private MemorySegment upcall(String method, FunctionDescriptor d) throws ReflectiveOperationException {
        MethodType type = d.toMethodType();
        MethodHandle target = MethodHandles.lookup().findVirtual(SimEtwEngine.class, method, type).bindTo(this);
        return Linker.nativeLinker().upcallStub(target, d, global);
    }

    private Integer injectedFailure(String function) {
        ConcurrentLinkedQueue<Integer> q = injected.get(function);
        return q == null ? null : q.poll();
    }

    /** What an upcall answers for a throwable. Never throws. */
    private int failure(Throwable t) {
        if (t instanceof EtwException e) {
            return e.status();
        }
        if (t instanceof IllegalArgumentException) {
            return Win32Errors.ERROR_INVALID_PARAMETER;
        }
        errors.add(t);
        return ERROR_INTERNAL_ERROR;
    }

    private long newHandle() {
        return lastHandle.incrementAndGet();
    }

    private static String wideString(MemorySegment pointer) {
        if (pointer == null || pointer.address() == 0) {
            return null;
        }
        return pointer.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.UTF_16LE);
    }

    private static byte[] bytesAt(long address, long size) {
        if (size == 0) {
            return new byte[0];
        }
        return MemorySegment.ofAddress(address).reinterpret(size).toArray(ValueLayout.JAVA_BYTE);
    }

    // ------------------------------------------------------------------ providers

    /** One EventRegister: its REGHANDLE, the simulator's registration and the native callback to notify. */
    private final class EngineProvider {
        final long handle;
        final MemorySegment callback;
        final MemorySegment context;
        volatile ProviderRegistration registration;

        EngineProvider(long handle, MemorySegment callback, MemorySegment context) {
            this.handle = handle;
            this.callback = callback;
            this.context = context;
        }

        /**
         * A simulator notification, passed to the native PENABLECALLBACK with native arguments, counted as in flight
         * for the stand-in's EventUnregister of this handle (which waits for it, as Windows does).
         */
        void notify(int code, Guid source, int level, long any, long all, List<FilterData> filters) {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment src = a.allocate(NativeGuids.BYTES, 8);
                NativeGuids.write(src, 0, source);
                MemorySegment filter = encodeFilters(a, filters);
                Long wrong = misdirected.getAndSet(null);
                MemorySegment ctx = wrong == null ? context : MemorySegment.ofAddress(wrong);
                standIn.invokeEnableCallbackFor.invokeExact(handle, callback, src, code, (byte) level, any, all, filter, ctx);
            } catch (Throwable t) {
                errors.add(t);
            }
        }
    }

    int eventRegister(MemorySegment providerId, MemorySegment callback, MemorySegment context, MemorySegment regHandle) {
        try {
            Integer fail = injectedFailure("EventRegister");
            if (fail != null) {
                return fail;
            }
            Guid id = NativeGuids.readPointer(providerId, null);
            if (id == null || regHandle.address() == 0) {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            long handle = newHandle(); // before registering: the simulator may notify at once, naming it
            EngineProvider p = new EngineProvider(handle, callback, context);
            p.registration = machine.registerProvider(id, p::notify);
            providers.put(handle, p);
            regHandle.reinterpret(8).set(ValueLayout.JAVA_LONG, 0, handle);
            return 0;
        } catch (Throwable t) {
            return failure(t);
        }
    }

    int eventUnregister(long regHandle) {
        try {
            EngineProvider p = providers.remove(regHandle);
            if (p == null) {
                return Win32Errors.ERROR_INVALID_HANDLE;
            }
            p.registration.close(); // the simulator waits for a notification in progress, as ETW does
            unregistered.computeIfAbsent(p.registration.providerId(), k -> new AtomicLong()).incrementAndGet();
            return 0;
        } catch (Throwable t) {
            return failure(t);
        }
    }

    int eventWrite(long regHandle, MemorySegment descriptor, int count, MemorySegment data) {
        return eventWriteTransfer(regHandle, descriptor, MemorySegment.NULL, MemorySegment.NULL, count, data);
    }

    int eventWriteTransfer(long regHandle, MemorySegment descriptor, MemorySegment activityId, MemorySegment relatedId,
                           int count, MemorySegment data) {
        try {
            writes.incrementAndGet();
            EngineProvider p = providers.get(regHandle);
            if (p == null) {
                return Win32Errors.ERROR_INVALID_HANDLE;
            }
            if (descriptor.address() == 0 || count < 0 || (count > 0 && data.address() == 0)) {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            MemorySegment d = descriptor.reinterpret(_EVENT_DESCRIPTOR.layout().byteSize());
            EventDescriptor ed = new EventDescriptor(Short.toUnsignedInt(_EVENT_DESCRIPTOR.Id(d)),
                    Byte.toUnsignedInt(_EVENT_DESCRIPTOR.Version(d)), Byte.toUnsignedInt(_EVENT_DESCRIPTOR.Channel(d)),
                    Byte.toUnsignedInt(_EVENT_DESCRIPTOR.Level(d)), Byte.toUnsignedInt(_EVENT_DESCRIPTOR.Opcode(d)),
                    Short.toUnsignedInt(_EVENT_DESCRIPTOR.Task(d)), _EVENT_DESCRIPTOR.Keyword(d));
            EventData blocks = new EventData();
            long ddBytes = _EVENT_DATA_DESCRIPTOR.layout().byteSize();
            MemorySegment dds = count == 0 ? MemorySegment.NULL : data.reinterpret(ddBytes * count);
            for (int i = 0; i < count; i++) {
                MemorySegment dd = dds.asSlice(ddBytes * i, ddBytes);
                long size = Integer.toUnsignedLong(_EVENT_DATA_DESCRIPTOR.Size(dd));
                int type = _EVENT_DATA_DESCRIPTOR.Reserved(dd) & 0xFF; // the SDK's Type byte
                blocks.add(bytesAt(_EVENT_DATA_DESCRIPTOR.Ptr(dd), size), 0, (int) size, type);
            }
            // A NULL ActivityId: the calling OS thread's id, kept by the stand-in's EventActivityIdControl (as ETW does).
            Guid activity = activityId.address() != 0 ? NativeGuids.readPointer(activityId, null) : osThreadActivityId();
            return p.registration.write(ed, activity, NativeGuids.readPointer(relatedId, null), blocks);
        } catch (Throwable t) {
            return failure(t);
        }
    }

    int eventSetInformation(long regHandle, int informationClass, MemorySegment information, int length) {
        try {
            EngineProvider p = providers.get(regHandle);
            if (p == null) {
                return Win32Errors.ERROR_INVALID_HANDLE;
            }
            return p.registration.setInformation(informationClass, bytesAt(information.address(), Integer.toUnsignedLong(length)));
        } catch (Throwable t) {
            return failure(t);
        }
    }

    /** The calling OS thread's activity id in the stand-in (EventActivityIdControl's per-thread storage). */
    private Guid osThreadActivityId() throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment g = a.allocate(NativeGuids.BYTES, 8);
            standIn.osThreadActivityId.invokeExact(g);
            return NativeGuids.read(g, 0);
        }
    }

    /**
     * The filters of one notification as ETW passes them: none, the single non-schematized filter as it is, or
     * every schematized filter as one chain of EVENT_FILTER_HEADER blocks (seed 000: one per session).
     */
    private static MemorySegment encodeFilters(Arena a, List<FilterData> filters) {
        if (filters == null || filters.isEmpty()) {
            return MemorySegment.NULL;
        }
        MemorySegment d = a.allocate(_EVENT_FILTER_DESCRIPTOR.layout());
        boolean schematized = filters.stream().allMatch(f -> f.type() == EventFilter.TYPE_SCHEMATIZED);
        if (!schematized) {
            FilterData f = filters.get(0); // one descriptor reaches the provider: the first session's
            MemorySegment data = a.allocate(Math.max(1, f.size()));
            MemorySegment.copy(MemorySegment.ofArray(f.data()), 0, data, 0, f.size());
            _EVENT_FILTER_DESCRIPTOR.Ptr(d, data.address());
            _EVENT_FILTER_DESCRIPTOR.Size(d, f.size());
            _EVENT_FILTER_DESCRIPTOR.Type(d, f.type());
            return d;
        }
        byte[] bytes = FilterHeaderChain.encode(filters);
        MemorySegment chain = a.allocate(bytes.length, FilterHeaderChain.BLOCK_ALIGNMENT);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, chain, 0, bytes.length);
        _EVENT_FILTER_DESCRIPTOR.Ptr(d, chain.address());
        _EVENT_FILTER_DESCRIPTOR.Size(d, bytes.length);
        _EVENT_FILTER_DESCRIPTOR.Type(d, EventFilter.TYPE_SCHEMATIZED);
        return d;
    }

    private static long align8(long n) {
        return (n + 7) & ~7L;
    }

    // ------------------------------------------------------------------ sessions

    /** One session as ETW knows it: its handle, the GUID the controller gave, the simulator's session. */
    private record EngineSession(long handle, Guid guid, SessionControl control) {
    }

    int startTrace(MemorySegment traceHandle, MemorySegment instanceName, MemorySegment properties) {
        try {
            Integer fail = injectedFailure("StartTraceW");
            if (fail != null) {
                return fail;
            }
            if (traceHandle.address() == 0 || properties.address() == 0) {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            MemorySegment p = properties(properties);
            MemorySegment wnode = _EVENT_TRACE_PROPERTIES.Wnode(p);
            String name = wideString(instanceName);
            String propsName = SessionProperties.name(p);
            if (name == null || (propsName != null && !propsName.equals(name))) {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            int mode = _EVENT_TRACE_PROPERTIES.LogFileMode(p);
            int clock = _WNODE_HEADER.ClientContext(wnode);
            SessionConfig config = new SessionConfig(name, (mode & EtwNative.EVENT_TRACE_REAL_TIME_MODE()) != 0,
                    SessionProperties.logFile(p), _EVENT_TRACE_PROPERTIES.BufferSize(p), _EVENT_TRACE_PROPERTIES.MinimumBuffers(p),
                    _EVENT_TRACE_PROPERTIES.MaximumBuffers(p), Duration.ofSeconds(_EVENT_TRACE_PROPERTIES.FlushTimer(p)),
                    ClockType.of(clock == 0 ? 1 : clock), IfSessionExists.FAIL,
                    SessionProperties.fileMode(mode), _EVENT_TRACE_PROPERTIES.MaximumFileSize(p),
                    (mode & EtwNative.EVENT_TRACE_PRIVATE_LOGGER_MODE()) != 0);
            SessionControl control = machine.startSession(config);
            Guid given = SessionProperties.sessionId(p);
            EngineSession s = new EngineSession(newHandle(), given.isNull() ? control.sessionId() : given, control);
            sessions.put(s.handle(), s);
            sessionsByControl.put(control, s);
            traceHandle.reinterpret(8).set(ValueLayout.JAVA_LONG, 0, s.handle());
            NativeGuids.write(wnode, _WNODE_HEADER.Guid$offset(), s.guid());
            _WNODE_HEADER.HistoricalContext(wnode, s.handle());
            return 0;
        } catch (Throwable t) {
            return failure(t);
        }
    }

    /** The properties buffer, as long as its Wnode.BufferSize says. */
    private static MemorySegment properties(MemorySegment pointer) {
        MemorySegment fixed = pointer.reinterpret(_EVENT_TRACE_PROPERTIES.layout().byteSize());
        int size = _WNODE_HEADER.BufferSize(_EVENT_TRACE_PROPERTIES.Wnode(fixed));
        if (size < fixed.byteSize()) {
            throw new IllegalArgumentException("Wnode.BufferSize " + size + " is smaller than EVENT_TRACE_PROPERTIES");
        }
        return pointer.reinterpret(size);
    }

    /** The engine session for a simulator session found by name (sessions started elsewhere get one now). */
    private EngineSession byName(String name) {
        SessionControl control = machine.attachSession(name); // ERROR_WMI_INSTANCE_NOT_FOUND when none
        return sessionsByControl.computeIfAbsent(control, c -> {
            EngineSession s = new EngineSession(newHandle(), c.sessionId(), c);
            sessions.put(s.handle(), s);
            return s;
        });
    }

    int controlTrace(long handle, MemorySegment instanceName, MemorySegment properties, int code) {
        try {
            Integer fail = injectedFailure("ControlTraceW");
            if (fail != null) {
                return fail;
            }
            if (properties.address() == 0) {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            EngineSession s = handle != 0 ? sessions.get(handle) : byName(wideString(instanceName));
            if (s == null || !s.control().isRunning()) {
                return Win32Errors.ERROR_WMI_INSTANCE_NOT_FOUND;
            }
            MemorySegment p = properties(properties);
            SessionControl c = s.control();
            if (code == EtwNative.EVENT_TRACE_CONTROL_FLUSH()) {
                c.flush();
            } else if (code == EtwNative.EVENT_TRACE_CONTROL_STOP()) {
                c.stop();
            } else if (code == EtwNative.EVENT_TRACE_CONTROL_UPDATE()) {
                // MS Learn, ControlTraceW, Properties with EVENT_TRACE_CONTROL_UPDATE: "You can update the following
                // properties": FlushTimer ("If this member is 0, the member is not updated"), LogFileNameOffset ("If
                // this member is 0, the file name is not updated"), LogFileMode ("To turn real time consuming off, set
                // this member to 0", EVENT_TRACE_REAL_TIME_MODE turns it on), MaximumBuffers ("If this member is 0, the
                // member is not updated"), EnableFlags (system loggers only, not modelled). Every other member
                // (BufferSize, MinimumBuffers, Wnode.ClientContext, ...) is not updated, whatever it holds.
                SessionConfig old = c.config();
                int mode = _EVENT_TRACE_PROPERTIES.LogFileMode(p);
                Path file = SessionProperties.logFile(p);
                c.update(new SessionConfig(old.name(), (mode & EtwNative.EVENT_TRACE_REAL_TIME_MODE()) != 0,
                        file != null ? file : old.logFile(), old.bufferSizeKb(), old.minimumBuffers(),
                        nonZero(_EVENT_TRACE_PROPERTIES.MaximumBuffers(p), old.maximumBuffers()),
                        _EVENT_TRACE_PROPERTIES.FlushTimer(p) != 0 ? Duration.ofSeconds(_EVENT_TRACE_PROPERTIES.FlushTimer(p))
                                : old.flushTimer(), old.clockType(), old.ifExists(), old.fileMode(), old.maximumFileSizeMb(),
                        old.privateInProcess()));
            } else if (code != EtwNative.EVENT_TRACE_CONTROL_QUERY()) {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            fill(p, s);
            return 0;
        } catch (Throwable t) {
            return failure(t);
        }
    }

    private static int nonZero(int v, int otherwise) {
        return v != 0 ? v : otherwise;
    }

    /** Writes a session's configuration and counters into a properties buffer, names where there is room. */
    private static void fill(MemorySegment p, EngineSession s) {
        SessionConfig c = s.control().config();
        SessionStatistics st = s.control().query();
        MemorySegment wnode = _EVENT_TRACE_PROPERTIES.Wnode(p);
        NativeGuids.write(wnode, _WNODE_HEADER.Guid$offset(), s.guid());
        _WNODE_HEADER.HistoricalContext(wnode, s.handle());
        _WNODE_HEADER.ClientContext(wnode, c.clockType().value());
        _EVENT_TRACE_PROPERTIES.BufferSize(p, c.bufferSizeKb());
        _EVENT_TRACE_PROPERTIES.MinimumBuffers(p, c.minimumBuffers());
        _EVENT_TRACE_PROPERTIES.MaximumBuffers(p, c.maximumBuffers());
        _EVENT_TRACE_PROPERTIES.FlushTimer(p, (int) c.flushTimer().toSeconds());
        _EVENT_TRACE_PROPERTIES.LogFileMode(p, SessionProperties.logFileMode(c));
        _EVENT_TRACE_PROPERTIES.NumberOfBuffers(p, st.numberOfBuffers());
        _EVENT_TRACE_PROPERTIES.FreeBuffers(p, st.freeBuffers());
        _EVENT_TRACE_PROPERTIES.EventsLost(p, (int) st.eventsLost());
        _EVENT_TRACE_PROPERTIES.BuffersWritten(p, (int) st.buffersWritten());
        _EVENT_TRACE_PROPERTIES.LogBuffersLost(p, (int) st.buffersLost());
        _EVENT_TRACE_PROPERTIES.RealTimeBuffersLost(p, (int) st.realTimeBuffersLost());
        putName(p, _EVENT_TRACE_PROPERTIES.LoggerNameOffset(p), c.name());
        putName(p, _EVENT_TRACE_PROPERTIES.LogFileNameOffset(p), c.logFile() == null ? "" : c.logFile().toString());
    }

    private static void putName(MemorySegment p, int offset, String name) {
        if (offset != 0 && offset + 2L * (name.length() + 1) <= p.byteSize()) {
            p.setString(offset, name, StandardCharsets.UTF_16LE);
        }
    }

    int queryAllTraces(MemorySegment propertyArray, int count, MemorySegment loggerCount) {
        try {
            if (loggerCount.address() == 0 || (count > 0 && propertyArray.address() == 0)) {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            List<SessionInfo> all = machine.querySessions();
            loggerCount.reinterpret(4).set(ValueLayout.JAVA_INT, 0, all.size());
            if (all.size() > count) {
                return Win32Errors.ERROR_MORE_DATA;
            }
            MemorySegment array = propertyArray.reinterpret(ValueLayout.ADDRESS.byteSize() * count);
            for (int i = 0; i < all.size(); i++) {
                fill(properties(array.getAtIndex(ValueLayout.ADDRESS, i)), byName(all.get(i).name()));
            }
            return 0;
        } catch (Throwable t) {
            return failure(t);
        }
    }

    int enableTrace(long handle, MemorySegment providerId, int code, byte level, long any, long all, int timeout,
                    MemorySegment parameters) {
        enableTimeouts.add(Integer.toUnsignedLong(timeout));
        try {
            Integer fail = injectedFailure("EnableTraceEx2");
            if (fail != null) {
                return fail;
            }
            EngineSession s = sessions.get(handle);
            if (s == null) {
                return Win32Errors.ERROR_INVALID_HANDLE;
            }
            Guid provider = NativeGuids.readPointer(providerId, null);
            if (provider == null) {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            long wait = Integer.toUnsignedLong(timeout);
            // the simulator waits for its notification thread as EnableTraceEx2 waits for callbacks (any control code)
            Duration callbackWait = wait == INFINITE ? EnableParameters.MAX_CALLBACK_WAIT : Duration.ofMillis(wait);
            if (code == EtwNative.EVENT_CONTROL_CODE_DISABLE_PROVIDER()) {
                s.control().disableProvider(provider, callbackWait);
                return waitedTooLong(timeout) ? ERROR_TIMEOUT : 0;
            }
            EnableParameters p = decodeParameters(Byte.toUnsignedInt(level), any, all, parameters, s.guid());
            if (wait != 0) {
                p = p.withCallbackWait(callbackWait);
            }
            if (code == EtwNative.EVENT_CONTROL_CODE_ENABLE_PROVIDER()) {
                s.control().enableProvider(provider, p);
            } else if (code == EtwNative.EVENT_CONTROL_CODE_CAPTURE_STATE()) {
                s.control().captureState(provider, p);
            } else {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            return waitedTooLong(timeout) ? ERROR_TIMEOUT : 0;
        } catch (Throwable t) {
            return failure(t);
        }
    }

    /**
     * EnableTraceEx2's Timeout (MS Learn, EnableTraceEx2, Timeout parameter): "If Timeout is 0, this function will
     * start configuring the provider asynchronously and will return immediately [...]. Otherwise, this function will
     * start configuring the provider and will then begin waiting for the configuration to complete, including
     * waiting for all provider callbacks to complete. If configuration completes before the specified timeout, this
     * function will return ERROR_SUCCESS. Otherwise, this function will return ERROR_TIMEOUT. To wait forever, set to
     * INFINITE." The configuration is applied either way (the caller above already did it); only the answer
     * differs when a callback ({@link #providerCallbackTakes}) outlasts a finite, nonzero timeout.
     */
    private boolean waitedTooLong(int timeoutMs) {
        long timeout = Integer.toUnsignedLong(timeoutMs);
        return timeout != 0 && timeout != INFINITE && slowestCallback.toMillis() > timeout;
    }

    /** ENABLE_TRACE_PARAMETERS and its EVENT_FILTER_DESCRIPTORs as {@link EnableParameters}. */
    static EnableParameters decodeParameters(int level, long any, long all, MemorySegment pointer, Guid sessionGuid) {
        Set<EnableProperty> properties = EnumSet.noneOf(EnableProperty.class);
        List<EventFilter> filters = new ArrayList<>();
        Guid source = sessionGuid;
        if (pointer.address() != 0) {
            MemorySegment p = pointer.reinterpret(_ENABLE_TRACE_PARAMETERS.layout().byteSize());
            int mask = _ENABLE_TRACE_PARAMETERS.EnableProperty(p);
            for (EnableProperty e : EnableProperty.values()) {
                if ((mask & e.bit()) != 0) {
                    properties.add(e);
                }
            }
            Guid given = NativeGuids.read(p, _ENABLE_TRACE_PARAMETERS.SourceId$offset());
            if (!given.isNull()) {
                source = given;
            }
            int n = _ENABLE_TRACE_PARAMETERS.FilterDescCount(p);
            long dBytes = _EVENT_FILTER_DESCRIPTOR.layout().byteSize();
            MemorySegment ds = n == 0 ? MemorySegment.NULL : _ENABLE_TRACE_PARAMETERS.EnableFilterDesc(p).reinterpret(dBytes * n);
            for (int i = 0; i < n; i++) {
                MemorySegment d = ds.asSlice(dBytes * i, dBytes);
                filters.add(decodeFilter(_EVENT_FILTER_DESCRIPTOR.Type(d),
                        bytesAt(_EVENT_FILTER_DESCRIPTOR.Ptr(d), Integer.toUnsignedLong(_EVENT_FILTER_DESCRIPTOR.Size(d)))));
            }
        }
        return new EnableParameters(level, any, all, properties, source, filters);
    }

    private static EventFilter decodeFilter(int type, byte[] data) {
        ByteBuffer b = ByteBuffer.wrap(data).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        switch (type) {
            case EventFilter.TYPE_EVENT_ID -> { // EVENT_FILTER_EVENT_ID: FilterIn, Reserved, Count, Events[]
                boolean filterIn = b.get(0) != 0;
                int count = Short.toUnsignedInt(b.getShort(2));
                Set<Integer> ids = new HashSet<>();
                for (int i = 0; i < count; i++) {
                    ids.add(Short.toUnsignedInt(b.getShort(4 + 2 * i)));
                }
                return new EventFilter.EventIds(filterIn, ids);
            }
            case EventFilter.TYPE_PID -> {
                Set<Integer> pids = new HashSet<>();
                for (int i = 0; i + 4 <= data.length; i += 4) {
                    pids.add(b.getInt(i));
                }
                return new EventFilter.ProcessIds(pids);
            }
            case EventFilter.TYPE_EXECUTABLE_NAME -> {
                String s = new String(data, StandardCharsets.UTF_16LE);
                int nul = s.indexOf('\0');
                return new EventFilter.ExecutableNames(List.of((nul >= 0 ? s.substring(0, nul) : s).split(";")));
            }
            case EventFilter.TYPE_PAYLOAD -> {
                return RawPayloadFilter.decode(data);
            }
            default -> {
                return new EventFilter.Custom(type, data);
            }
        }
    }

    // ------------------------------------------------------------------ consumers

    /** One OpenTraceW: a simulated consumer whose records become native EVENT_RECORDs. */
    private final class EngineConsumer implements RecordSink {
        final MemorySegment recordCallback;
        final MemorySegment bufferCallback;
        final MemorySegment context;
        final MemorySegment logfile; // the engine's copy, handed to the BufferCallback as ETW does
        final Arena memory = Arena.ofAuto();
        volatile TraceConsumer sim;
        volatile boolean stopRequested; // the BufferCallback returned FALSE: ProcessTrace stops at once
        volatile boolean closeRequested; // CloseTrace: ProcessTrace stops once the buffers it holds are processed
        volatile boolean processing;
        private MemorySegment buffer = MemorySegment.NULL;
        private long eventsLost;

        EngineConsumer(MemorySegment callerLogfile) {
            long size = _EVENT_TRACE_LOGFILEW.layout().byteSize();
            logfile = memory.allocate(size, 8);
            MemorySegment.copy(callerLogfile.reinterpret(size), 0, logfile, 0, size);
            recordCallback = _EVENT_TRACE_LOGFILEW.EventRecordCallback(logfile);
            bufferCallback = _EVENT_TRACE_LOGFILEW.BufferCallback(logfile);
            context = _EVENT_TRACE_LOGFILEW.Context(logfile);
        }

        @Override
        public void onRecord(RawEventRecord r) {
            if (stopRequested) {
                return;
            }
            try {
                MemorySegment record = build(r);
                standIn.invokeEventRecordCallback.invokeExact(recordCallback, record);
            } catch (Throwable t) {
                errors.add(t);
            }
        }

        @Override
        public void onLost(long events, long buffers) {
            eventsLost += events;
            _EVENT_TRACE_LOGFILEW.EventsLost(logfile, (int) eventsLost);
            callBufferCallback(); // the count is seen at once (losses after the last buffer have no buffer to follow)
        }

        /**
         * MS Learn, PEVENT_TRACE_BUFFER_CALLBACKW: "ETW calls this function after the events for each buffer are
         * delivered". Before issue 21, item 8, the stand-in called it only on losses.
         */
        @Override
        public void onBufferDelivered() {
            bufferCallbacks.incrementAndGet();
            callBufferCallback();
        }

        /** Calls the native BufferCallback; FALSE ends ProcessTrace ("Returning FALSE will terminate the ProcessTrace function"). */
        private void callBufferCallback() {
            if (stopRequested) {
                return;
            }
            try {
                int goOn = (int) standIn.invokeBufferCallback.invokeExact(bufferCallback, logfile);
                if (goOn == 0) {
                    stopRequested = true;
                    sim.close();
                }
            } catch (Throwable t) {
                errors.add(t);
            }
        }

        @Override
        public void onError(Throwable error) {
            errors.add(error);
        }

        /** The record as an EVENT_RECORD in this consumer's reusable native memory. */
        private MemorySegment build(RawEventRecord r) {
            int items = r.extendedDataCount();
            long itemBytes = EventHeaderExtendedDataItem.LAYOUT.byteSize();
            long recordBytes = _EVENT_RECORD.layout().byteSize();
            long need = recordBytes + itemBytes * items;
            for (int i = 0; i < items; i++) {
                need += align8(r.extendedData(i).remaining());
            }
            need += r.userDataLength();
            if (buffer.byteSize() < need) {
                buffer = memory.allocate(Math.max(need, 2 * buffer.byteSize()), 8);
            }
            buffer.fill((byte) 0);
            MemorySegment rec = buffer.asSlice(0, recordBytes);
            MemorySegment h = _EVENT_RECORD.EventHeader(rec);
            _EVENT_HEADER.Size(h, (short) Math.min(0xFFFF, EventHeaderLayout.HEADER_SIZE + r.userDataLength()));
            _EVENT_HEADER.HeaderType(h, (short) 0);
            _EVENT_HEADER.Flags(h, (short) r.flags());
            _EVENT_HEADER.EventProperty(h, (short) r.eventProperty());
            _EVENT_HEADER.ThreadId(h, r.threadId());
            _EVENT_HEADER.ProcessId(h, r.processId());
            h.set(ValueLayout.JAVA_LONG, _EVENT_HEADER.TimeStamp$offset(), r.timestamp());
            NativeGuids.write(h, _EVENT_HEADER.ProviderId$offset(), r.providerId());
            MemorySegment d = _EVENT_HEADER.EventDescriptor(h);
            _EVENT_DESCRIPTOR.Id(d, (short) r.id());
            _EVENT_DESCRIPTOR.Version(d, (byte) r.version());
            _EVENT_DESCRIPTOR.Channel(d, (byte) r.channel());
            _EVENT_DESCRIPTOR.Level(d, (byte) r.level());
            _EVENT_DESCRIPTOR.Opcode(d, (byte) r.opcode());
            _EVENT_DESCRIPTOR.Task(d, (short) r.task());
            _EVENT_DESCRIPTOR.Keyword(d, r.keyword());
            _EVENT_HEADER.KernelTime(h, r.kernelTime());
            _EVENT_HEADER.UserTime(h, r.userTime());
            NativeGuids.write(h, _EVENT_HEADER.ActivityId$offset(), r.activityId());
            MemorySegment ctx = _EVENT_RECORD.BufferContext(rec);
            _ETW_BUFFER_CONTEXT.ProcessorIndex(ctx, (short) r.processorIndex());
            _EVENT_RECORD.ExtendedDataCount(rec, (short) items);
            _EVENT_RECORD.UserDataLength(rec, (short) r.userDataLength());
            long at = recordBytes + itemBytes * items;
            MemorySegment itemArray = buffer.asSlice(recordBytes, itemBytes * items);
            for (int i = 0; i < items; i++) {
                ByteBuffer data = r.extendedData(i);
                int n = data.remaining();
                MemorySegment.copy(MemorySegment.ofBuffer(data), 0, buffer, at, n);
                MemorySegment item = itemArray.asSlice(itemBytes * i, itemBytes);
                item.set(ValueLayout.JAVA_SHORT, 2, (short) r.extendedDataType(i)); // ExtType
                item.set(ValueLayout.JAVA_SHORT, 6, (short) n);                     // DataSize
                item.set(ValueLayout.JAVA_LONG, 8, buffer.address() + at);          // DataPtr
                at += align8(n);
            }
            _EVENT_RECORD.ExtendedData(rec, items == 0 ? MemorySegment.NULL : itemArray);
            ByteBuffer user = r.userData();
            MemorySegment.copy(MemorySegment.ofBuffer(user), 0, buffer, at, r.userDataLength());
            _EVENT_RECORD.UserData(rec, r.userDataLength() == 0 ? MemorySegment.NULL : buffer.asSlice(at, r.userDataLength()));
            _EVENT_RECORD.UserContext(rec, context);
            return rec;
        }
    }

    int openTrace(MemorySegment logfilePointer, MemorySegment traceHandle) {
        try {
            Integer fail = injectedFailure("OpenTraceW");
            if (fail != null) {
                return fail;
            }
            if (logfilePointer.address() == 0) {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            MemorySegment logfile = logfilePointer.reinterpret(_EVENT_TRACE_LOGFILEW.layout().byteSize());
            int mode = _EVENT_TRACE_LOGFILEW.ProcessTraceMode(logfile);
            if (_EVENT_TRACE_LOGFILEW.LogFileName(logfile).address() != 0) {
                return openFile(logfile, mode, traceHandle);
            }
            if ((mode & EtwNative.PROCESS_TRACE_MODE_EVENT_RECORD()) == 0 || (mode & EtwNative.PROCESS_TRACE_MODE_REAL_TIME()) == 0) {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            String name = wideString(_EVENT_TRACE_LOGFILEW.LoggerName(logfile));
            EngineConsumer c = new EngineConsumer(logfile);
            c.sim = machine.openRealTime(name, c);
            long handle = newHandle();
            consumers.put(handle, c);
            traceHandle.reinterpret(8).set(ValueLayout.JAVA_LONG, 0, handle);
            return 0;
        } catch (Throwable t) {
            return failure(t);
        }
    }

    /**
     * OpenTraceW on a file (MS Learn, OpenTraceW: LogFileName set, LoggerName ignored, PROCESS_TRACE_MODE_REAL_TIME
     * not set; a missing file is ERROR_FILE_NOT_FOUND, 2). The records come from etw4j's own pure-Java reader
     * ({@link FileReplay}): this is no proof of what Windows' ProcessTrace delivers (RealEtwFidelityTest is), it
     * carries a file's records through the native EVENT_RECORD path of the FFM consumer, so the tests that compare
     * OpenTraceW with the pure-Java reader run their logic here.
     */
    private int openFile(MemorySegment logfile, int mode, MemorySegment traceHandle) {
        if ((mode & EtwNative.PROCESS_TRACE_MODE_EVENT_RECORD()) == 0 || (mode & EtwNative.PROCESS_TRACE_MODE_REAL_TIME()) != 0) {
            return Win32Errors.ERROR_INVALID_PARAMETER;
        }
        java.nio.file.Path file = java.nio.file.Path.of(wideString(_EVENT_TRACE_LOGFILEW.LogFileName(logfile)));
        if (!java.nio.file.Files.isRegularFile(file)) {
            return 2; // ERROR_FILE_NOT_FOUND
        }
        EngineConsumer c = new EngineConsumer(logfile);
        c.sim = new FileReplay(file, c);
        long handle = newHandle();
        consumers.put(handle, c);
        traceHandle.reinterpret(8).set(ValueLayout.JAVA_LONG, 0, handle);
        return 0;
    }

    /**
     * A file's records, in the order etw4j's reader returns them (time order), through the same sink as a
     * simulated real-time consumer: one record at a time, the BufferCallback after each buffer. CloseTrace stops it
     * at the next record. Reader warnings are errors of the engine (a file the tests write must read cleanly).
     */
    private final class FileReplay implements TraceConsumer {
        private final java.nio.file.Path file;
        private final RecordSink sink;
        private volatile boolean closed;

        FileReplay(java.nio.file.Path file, RecordSink sink) {
            this.file = file;
            this.sink = sink;
        }

        @Override
        public void process() {
            try (org.etw4j.consumer.etl.EtlFile etl = org.etw4j.consumer.etl.EtlFile.open(file)) {
                org.etw4j.consumer.etl.EtlCursor cursor = etl.cursor();
                long buffer = -1;
                while (!closed && cursor.advance()) {
                    long b = cursor.record().bufferIndex();
                    if (buffer >= 0 && b != buffer) {
                        sink.onBufferDelivered();
                    }
                    buffer = b;
                    sink.onRecord(cursor.record().asRawEventRecord());
                }
                if (buffer >= 0) {
                    sink.onBufferDelivered();
                }
                if (etl.warningCount() != 0) {
                    errors.add(new IllegalStateException(etl.warningCount() + " reader warnings in " + file));
                }
            } catch (java.io.IOException | RuntimeException e) {
                errors.add(e);
            }
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    int processTrace(MemorySegment handles, int count, MemorySegment start, MemorySegment end) {
        try {
            if (count != 1 || handles.address() == 0) {
                return Win32Errors.ERROR_INVALID_PARAMETER; // one trace per ProcessTrace is all etw4j needs
            }
            EngineConsumer c = consumers.get(handles.reinterpret(8).get(ValueLayout.JAVA_LONG, 0));
            if (c == null) {
                return Win32Errors.ERROR_INVALID_HANDLE;
            }
            c.processing = true;
            try {
                c.sim.process(); // records reach the native callback on this thread, as ETW does
            } finally {
                c.processing = false;
            }
            return c.stopRequested || c.closeRequested ? Win32Errors.ERROR_CANCELLED : 0;
        } catch (Throwable t) {
            return failure(t);
        }
    }

    int closeTrace(long handle) {
        try {
            EngineConsumer c = consumers.remove(handle);
            if (c == null) {
                return Win32Errors.ERROR_INVALID_HANDLE;
            }
            c.closeRequested = true;
            boolean pending = c.processing;
            c.sim.close();
            // MS Learn, CloseTrace: ERROR_CTX_CLOSE_PENDING when ProcessTrace runs: "The call was successful. The
            // ProcessTrace function will stop after it has processed all real-time events in its buffers (it will
            // not receive any new events)". Modelled: the status, and the delivery of the buffers already handed
            // to the consumer (the simulated consumer delivers them, then ends; issue 21, item 8).
            if (pending) {
                closePending.incrementAndGet();
            }
            return pending ? Win32Errors.ERROR_CTX_CLOSE_PENDING : 0;
        } catch (Throwable t) {
            return failure(t);
        }
    }

    // ------------------------------------------------------------------ tdh

    private record TdhKind(Guid provider, int id, int version) {
    }

    private record TdhMap(Guid provider, String name) {
    }

    /**
     * A TRACE_EVENT_INFO: for TraceLogging events the provider, descriptor, decoding source and event name; for
     * others the registered one. The size protocol is TDH's: too small a buffer gets ERROR_INSUFFICIENT_BUFFER and
     * the size needed.
     */
    int tdhGetEventInformation(MemorySegment eventRecord, int contextCount, MemorySegment context, MemorySegment buffer,
                               MemorySegment bufferSize) {
        try {
            if (eventRecord.address() == 0 || bufferSize.address() == 0) {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            EventRecordView view = new EventRecordView();
            view.attach(eventRecord);
            try {
                TdhKind kind = new TdhKind(view.providerId(), view.id(), view.version());
                tdhCalls.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
                Integer fail = injectedFailure("TdhGetEventInformation");
                if (fail != null) {
                    return fail;
                }
                ByteBuffer schema = view.extendedDataOfType(EventHeaderLayout.EXT_EVENT_SCHEMA_TL);
                if (schema == null) {
                    byte[] registered = tdhEvents.get(kind);
                    return registered == null ? ERROR_NOT_FOUND : answer(registered, buffer, bufferSize);
                }
                byte[] meta = new byte[schema.remaining()];
                schema.duplicate().get(meta);
                String name = TraceLoggingSchema.parse(meta).name();
                long fixed = _TRACE_EVENT_INFO.layout().byteSize();
                long need = fixed + 2L * (name.length() + 1);
                MemorySegment size = bufferSize.reinterpret(4);
                if (Integer.toUnsignedLong(size.get(ValueLayout.JAVA_INT, 0)) < need || buffer.address() == 0) {
                    size.set(ValueLayout.JAVA_INT, 0, (int) need);
                    return Win32Errors.ERROR_INSUFFICIENT_BUFFER;
                }
                MemorySegment info = buffer.reinterpret(need);
                info.fill((byte) 0);
                NativeGuids.write(info, _TRACE_EVENT_INFO.ProviderGuid$offset(), view.providerId());
                MemorySegment.copy(view.eventRecord(), _EVENT_HEADER.EventDescriptor$offset(), info,
                        _TRACE_EVENT_INFO.EventDescriptor$offset(), _EVENT_DESCRIPTOR.layout().byteSize());
                _TRACE_EVENT_INFO.DecodingSource(info, Tdh.DECODING_SOURCE_TLG);
                info.set(ValueLayout.JAVA_INT, TdhSdkFields.EVENT_NAME_OFFSET, (int) fixed);
                info.setString(fixed, name, StandardCharsets.UTF_16LE);
                size.set(ValueLayout.JAVA_INT, 0, (int) need);
                return 0;
            } finally {
                view.detach();
            }
        } catch (Throwable t) {
            return failure(t);
        }
    }

    /** The registered EVENT_MAP_INFO for the record's provider and {@code mapName}, else ERROR_NOT_FOUND. */
    int tdhGetEventMapInformation(MemorySegment eventRecord, MemorySegment mapName, MemorySegment buffer,
                                  MemorySegment bufferSize) {
        try {
            if (eventRecord.address() == 0 || mapName.address() == 0 || bufferSize.address() == 0) {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            EventRecordView view = new EventRecordView();
            view.attach(eventRecord);
            try {
                byte[] registered = tdhMaps.get(new TdhMap(view.providerId(), wideString(mapName)));
                return registered == null ? ERROR_NOT_FOUND : answer(registered, buffer, bufferSize);
            } finally {
                view.detach();
            }
        } catch (Throwable t) {
            return failure(t);
        }
    }

    /**
     * TdhEnumerateProviders over the routed machine's installed providers ({@link SimulatedBackend#installProvider}):
     * a PROVIDER_ENUMERATION_INFO (MS Learn, PROVIDER_ENUMERATION_INFO: NumberOfProviders, Reserved, then
     * TRACE_PROVIDER_INFO entries) whose entries' ProviderNameOffset is "from the beginning of the
     * PROVIDER_ENUMERATION_INFO buffer" to a NUL-terminated Unicode name (MS Learn, TRACE_PROVIDER_INFO),
     * SchemaSource 0 (a manifest); the size protocol of MS Learn, TdhEnumerateProviders: ERROR_INSUFFICIENT_BUFFER
     * with the size needed in pBufferSize when the buffer is NULL or too small. Layout offsets from the generated
     * bindings, which WindowsAbiTest checks against the mingw-w64 headers.
     */
    int tdhEnumerateProviders(MemorySegment buffer, MemorySegment bufferSize) {
        try {
            if (bufferSize.address() == 0) {
                return Win32Errors.ERROR_INVALID_PARAMETER;
            }
            java.util.Map<String, Guid> installed = machine.registeredProviders();
            long entry = _TRACE_PROVIDER_INFO.layout().byteSize();
            long first = _PROVIDER_ENUMERATION_INFO.TraceProviderInfoArray$offset();
            long namesAt = first + entry * installed.size();
            long total = namesAt;
            for (String name : installed.keySet()) {
                total += 2L * (name.length() + 1);
            }
            ByteBuffer b = ByteBuffer.allocate((int) total).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            b.putInt((int) _PROVIDER_ENUMERATION_INFO.NumberOfProviders$offset(), installed.size());
            long at = first;
            long nameAt = namesAt;
            for (java.util.Map.Entry<String, Guid> e : installed.entrySet()) {
                byte[] guid = e.getValue().toWindowsBytes();
                b.put((int) (at + _TRACE_PROVIDER_INFO.ProviderGuid$offset()), guid);
                b.putInt((int) (at + _TRACE_PROVIDER_INFO.SchemaSource$offset()), 0);
                b.putInt((int) (at + _TRACE_PROVIDER_INFO.ProviderNameOffset$offset()), (int) nameAt);
                byte[] name = (e.getKey() + "\0").getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
                b.put((int) nameAt, name);
                nameAt += name.length;
                at += entry;
            }
            return answer(b.array(), buffer, bufferSize);
        } catch (Throwable t) {
            return failure(t);
        }
    }

    /** TDH's size protocol: the blob when it fits (size set to what was used), else the size needed. */
    private static int answer(byte[] blob, MemorySegment buffer, MemorySegment bufferSize) {
        MemorySegment size = bufferSize.reinterpret(4);
        if (Integer.toUnsignedLong(size.get(ValueLayout.JAVA_INT, 0)) < blob.length || buffer.address() == 0) {
            size.set(ValueLayout.JAVA_INT, 0, blob.length);
            return Win32Errors.ERROR_INSUFFICIENT_BUFFER;
        }
        MemorySegment.copy(MemorySegment.ofArray(blob), 0, buffer.reinterpret(blob.length), 0, blob.length);
        size.set(ValueLayout.JAVA_INT, 0, blob.length);
        return 0;
    }
}
