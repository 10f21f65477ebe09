package org.etw4j.jna.internal;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Win32Error;
import org.etw4j.controller.EventFilter;
import org.etw4j.format.FilterHeaderChain;
import org.etw4j.provider.EnableState;
import org.etw4j.provider.EventData;
import org.etw4j.provider.FilterData;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.ProviderRegistration;

/**
 * The engine behind the stand-in advapi32 in these tests: JNA upcalls that route the provider functions into a
 * pure-Java {@link SimulatedBackend}, the way ETW would route them into the kernel.
 *
 * <p>Thread-safe; one per process (the stand-in has one engine table), {@link #route(SimulatedBackend) routed}
 * to the current test's simulated machine. What it does, per function:
 * <ul>
 *   <li>EventRegister: reads the GUID, registers with the simulator; every notification the simulator sends is
 *       passed to the provider's native PENABLECALLBACK through {@code EtwStandIn_InvokeEnableCallback}, with the
 *       source GUID and the EVENT_FILTER_DESCRIPTOR built in native memory (several filters, or a schematized one,
 *       as a chain of EVENT_FILTER_HEADER blocks: see {@link #encodeFilters}); returns a new REGHANDLE. The
 *       notification goes through {@code EtwStandIn_InvokeEnableCallbackFor}, so the stand-in's EventUnregister
 *       waits for it as Windows does;</li>
 *   <li>EventWrite/EventWriteTransfer/EventWriteEx: decodes the native EVENT_DESCRIPTOR and EVENT_DATA_DESCRIPTORs,
 *       copies the blocks into an {@link EventData} and writes through the simulator's registration (EventWriteEx's
 *       Filter and Flags are ignored);</li>
 *   <li>EventActivityIdControl: the stand-in's own C function, which keeps the id per OS thread as Windows
 *       does (etw_standin_activity.h); EventWrite* with a NULL ActivityId take that id;</li>
 *   <li>EventSetInformation, EventUnregister, EventEnabled, EventProviderEnabled: as named.</li>
 * </ul>
 * Unknown handles get ERROR_INVALID_HANDLE, as from ETW. Nothing thrown escapes an upcall: it is recorded in
 * {@link #errors()} (tests assert it stays empty) and answered with ERROR_INTERNAL_ERROR.
 */
public final class SimEngine {
    static final int ERROR_INTERNAL_ERROR = 1359;

    private static SimEngine instance;

    private final StandIn.Exports standIn;
    private final StandInEngineTable table = new StandInEngineTable();
    private final ConcurrentHashMap<Long, EngineRegistration> handles = new ConcurrentHashMap<>();
    private final AtomicLong lastHandle = new AtomicLong(0x5000);
    private final AtomicLong writes = new AtomicLong();
    private final ConcurrentHashMap<Guid, AtomicLong> unregistered = new ConcurrentHashMap<>();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private volatile SimulatedBackend sim = new SimulatedBackend();
    private volatile boolean noopWrites;

    private SimEngine(StandIn.Exports standIn) {
        this.standIn = standIn;
        // Fields of the table: they also keep the callback objects (and their native trampolines) alive.
        table.EventRegister = this::register;
        table.EventUnregister = this::unregister;
        table.EventEnabled = this::eventEnabled;
        table.EventProviderEnabled = this::providerEnabled;
        table.EventWrite = (h, d, n, data) -> writeTransfer(h, d, null, null, n, data);
        table.EventWriteTransfer = this::writeTransfer;
        table.EventWriteEx = (h, d, filter, flags, a, r, n, data) -> writeTransfer(h, d, a, r, n, data);
        // The stand-in's C function: the id per OS thread, as Windows keeps it (etw_standin_activity.h).
        table.EventActivityIdControl = StandIn.function("EtwStandIn_EventActivityIdControlPerOsThread");
        table.EventSetInformation = this::setInformation;
    }

    /** The engine, installed in the stand-in (again, if a test uninstalled it); skips without the stand-in. */
    public static synchronized SimEngine install() {
        if (instance == null) {
            instance = new SimEngine(StandIn.exports());
        }
        instance.reinstall();
        return instance;
    }

    /** Routes the provider functions into {@code backend} from now on (registrations keep their own machine). */
    public void route(SimulatedBackend backend) {
        this.sim = backend;
    }

    /** With {@code on}, the stand-in answers writes itself (ERROR_SUCCESS) without calling this engine. */
    synchronized void noopWrites(boolean on) {
        noopWrites = on;
        reinstall();
    }

    /** Uninstalls the table: every stand-in function returns ERROR_NOT_SUPPORTED until {@link #install()}. */
    synchronized void uninstall() {
        standIn.EtwStandIn_Install((Pointer) null);
    }

    private synchronized void reinstall() {
        table.Size = table.size();
        table.Flags = noopWrites ? StandInEngineTable.FLAG_NOOP_WRITES : 0;
        standIn.EtwStandIn_Install(table);
    }

    /** Failures inside the engine's upcalls (tests assert none). */
    List<Throwable> errors() {
        return List.copyOf(errors);
    }

    /** Writes that reached the engine (went through the stand-in's EventWrite* export). */
    long writes() {
        return writes.get();
    }

    /** EventUnregister calls that reached this engine for registrations of {@code providerId}. */
    long unregistrations(Guid providerId) {
        AtomicLong n = unregistered.get(providerId);
        return n == null ? 0 : n.get();
    }

    /** EventUnregister calls the stand-in saw inside a callback of the same registration (each hangs, as on Windows). */
    int selfUnregisterWaits() {
        return standIn.EtwStandIn_SelfUnregisterWaits();
    }

    /** The registration behind a REGHANDLE, or null. */
    EngineRegistration registration(long handle) {
        return handles.get(handle);
    }

    /** The table as installed, for layout checks. */
    StandInEngineTable table() {
        return table;
    }

    // ---------------------------------------------------------------- upcalls

    private int register(Pointer providerId, Pointer enableCallback, Pointer context, Pointer regHandle) {
        try {
            if (providerId == null || regHandle == null) {
                return Win32Error.ERROR_INVALID_PARAMETER.code();
            }
            Guid id = Guid.readFrom(providerId.getByteArray(0, Guid.BYTES), 0);
            long handle = lastHandle.incrementAndGet(); // before registering: the simulator may notify at once
            EngineRegistration r = new EngineRegistration(handle, id, enableCallback, context);
            // As on Windows: the callback may run inside this call, before the handle is returned.
            r.simRegistration = sim.registerProvider(id, r);
            handles.put(handle, r);
            regHandle.setLong(0, handle);
            return 0;
        } catch (Throwable t) {
            errors.add(t);
            return ERROR_INTERNAL_ERROR;
        }
    }

    private int unregister(long handle) {
        try {
            EngineRegistration r = handles.remove(handle);
            if (r == null) {
                return Win32Error.ERROR_INVALID_HANDLE.code();
            }
            r.simRegistration.close();
            unregistered.computeIfAbsent(r.providerId, k -> new AtomicLong()).incrementAndGet();
            return 0;
        } catch (Throwable t) {
            errors.add(t);
            return ERROR_INTERNAL_ERROR;
        }
    }

    private byte eventEnabled(long handle, Pointer descriptor) {
        try {
            EngineRegistration r = handles.get(handle);
            if (r == null || descriptor == null) {
                return 0;
            }
            EventDescriptor d = decodeDescriptor(descriptor);
            return (byte) (r.state.isEnabled(d.level(), d.keyword()) ? 1 : 0);
        } catch (Throwable t) {
            errors.add(t);
            return 0;
        }
    }

    private byte providerEnabled(long handle, byte level, long keyword) {
        try {
            EngineRegistration r = handles.get(handle);
            return (byte) (r != null && r.state.isEnabled(level & 0xFF, keyword) ? 1 : 0);
        } catch (Throwable t) {
            errors.add(t);
            return 0;
        }
    }

    private int writeTransfer(long handle, Pointer descriptor, Pointer activityId, Pointer relatedActivityId, int count,
                              Pointer userData) {
        try {
            writes.incrementAndGet();
            EngineRegistration r = handles.get(handle);
            if (r == null) {
                return Win32Error.ERROR_INVALID_HANDLE.code();
            }
            if (descriptor == null || count < 0 || count > EventData.MAX_BLOCKS || (count > 0 && userData == null)) {
                return Win32Error.ERROR_INVALID_PARAMETER.code();
            }
            EventData data = new EventData();
            for (int i = 0; i < count; i++) {
                long ptr = userData.getLong(16L * i);
                int size = userData.getInt(16L * i + 8);
                int type = userData.getByte(16L * i + 12) & 0xFF;
                if (size < 0 || type > 3 || (size > 0 && ptr == 0)) {
                    return Win32Error.ERROR_INVALID_PARAMETER.code();
                }
                data.add(size == 0 ? new byte[0] : new Pointer(ptr).getByteArray(0, size), 0, size, type);
            }
            // A NULL ActivityId: the calling OS thread's id, kept by the stand-in's EventActivityIdControl (as ETW does).
            Guid activity = activityId != null ? readGuid(activityId) : osThreadActivityId();
            return r.simRegistration.write(decodeDescriptor(descriptor), activity, readGuid(relatedActivityId), data);
        } catch (Throwable t) {
            errors.add(t);
            return ERROR_INTERNAL_ERROR;
        }
    }

    private int setInformation(long handle, int informationClass, Pointer information, int length) {
        try {
            EngineRegistration r = handles.get(handle);
            if (r == null) {
                return Win32Error.ERROR_INVALID_HANDLE.code();
            }
            if (length < 0 || (length > 0 && information == null)) {
                return Win32Error.ERROR_INVALID_PARAMETER.code();
            }
            byte[] bytes = length == 0 ? new byte[0] : information.getByteArray(0, length);
            return r.simRegistration.setInformation(informationClass, bytes);
        } catch (Throwable t) {
            errors.add(t);
            return ERROR_INTERNAL_ERROR;
        }
    }

    /** The calling OS thread's activity id in the stand-in (EventActivityIdControl's per-thread storage). */
    Guid osThreadActivityId() {
        Memory g = new Memory(Guid.BYTES);
        standIn.EtwStandIn_OsThreadActivityId(g);
        return readGuid(g);
    }

    // ---------------------------------------------------------------- native layouts

    static EventDescriptor decodeDescriptor(Pointer p) {
        return new EventDescriptor(p.getShort(0) & 0xFFFF, p.getByte(2) & 0xFF, p.getByte(3) & 0xFF, p.getByte(4) & 0xFF,
                p.getByte(5) & 0xFF, p.getShort(6) & 0xFFFF, p.getLong(8));
    }

    static Guid readGuid(Pointer p) {
        return p == null ? null : Guid.readFrom(p.getByteArray(0, Guid.BYTES), 0);
    }

    static void writeGuid(Pointer p, Guid g) {
        p.write(0, g.toWindowsBytes(), 0, Guid.BYTES);
    }

    /**
     * The EVENT_FILTER_DESCRIPTOR ETW would pass for {@code filters}, in native memory; null for none. One filter of
     * a provider-defined type is passed as given; a schematized filter, or several filters, become a chain of
     * EVENT_FILTER_HEADER blocks (24-byte header with InstanceId = 1-based session index, Size = header + data,
     * NextOffset to the next block, rounded up to 8 bytes, 0 for the last) under EVENT_FILTER_TYPE_SCHEMATIZED,
     * the layout Microsoft's EVENT_FILTER_HEADER page describes.
     *
     * @param keepAlive receives the native blocks, which must stay reachable until the callback returns
     */
    static Pointer encodeFilters(List<FilterData> filters, List<Memory> keepAlive) {
        if (filters == null || filters.isEmpty()) {
            return null;
        }
        byte[] bytes;
        int type;
        if (filters.size() == 1 && filters.get(0).type() != EventFilter.TYPE_SCHEMATIZED) {
            bytes = filters.get(0).data();
            type = filters.get(0).type();
        } else {
            bytes = FilterHeaderChain.encode(filters);
            type = EventFilter.TYPE_SCHEMATIZED;
        }
        Memory data = new Memory(Math.max(1, bytes.length));
        data.write(0, bytes, 0, bytes.length);
        Memory descriptor = new Memory(16);
        descriptor.setLong(0, bytes.length == 0 ? 0 : Pointer.nativeValue(data));
        descriptor.setInt(8, bytes.length);
        descriptor.setInt(12, type);
        keepAlive.add(data);
        keepAlive.add(descriptor);
        return descriptor;
    }

    /** One provider registered through the stand-in: its native callback and context, its simulator registration. */
    final class EngineRegistration implements EnableCallback {
        final long handle;
        final Guid providerId;
        final Pointer enableCallback;
        final Pointer context;
        volatile ProviderRegistration simRegistration;
        volatile EnableState state = EnableState.DISABLED;

        EngineRegistration(long handle, Guid providerId, Pointer enableCallback, Pointer context) {
            this.handle = handle;
            this.providerId = providerId;
            this.enableCallback = enableCallback;
            this.context = context;
        }

        @Override
        public void onNotification(int controlCode, Guid sourceId, int level, long any, long all, List<FilterData> filters) {
            if (controlCode == 1) {
                state = new EnableState(true, level, any, all);
            } else if (controlCode == 0) {
                state = EnableState.DISABLED;
            }
            invokeNative(controlCode, sourceId, level, any, all, filters);
        }

        /**
         * Calls the provider's PENABLECALLBACK from native code, as ETW's notification would, counted as in flight for
         * the stand-in's EventUnregister of this handle (which waits for it, as Windows does).
         */
        void invokeNative(int controlCode, Guid sourceId, int level, long any, long all, List<FilterData> filters) {
            List<Memory> keepAlive = new ArrayList<>();
            Memory source = new Memory(Guid.BYTES);
            writeGuid(source, sourceId == null ? Guid.NULL : sourceId);
            Pointer filter = encodeFilters(filters, keepAlive);
            try {
                standIn.EtwStandIn_InvokeEnableCallbackFor(handle, enableCallback, source, controlCode, (byte) level, any, all, filter,
                        context);
            } finally {
                Reference.reachabilityFence(source);
                Reference.reachabilityFence(keepAlive);
            }
        }
    }
}
