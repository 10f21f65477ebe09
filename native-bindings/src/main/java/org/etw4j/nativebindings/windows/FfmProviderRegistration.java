package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.generated.PENABLECALLBACK;
import org.etw4j.provider.EventData;
import org.etw4j.provider.FilterData;
import org.etw4j.spi.CloseGate;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.ProviderRegistration;

/**
 * A provider registered with ETW through FFM: one {@code REGHANDLE}, one registry id (the CallbackContext ETW
 * passes back), one enable-callback upcall stub in the registration's own arena.
 *
 * <p>Thread-safe: writes from any number of threads, each through its own {@link WriteBuffers}. {@link #close()}
 * is idempotent; when it returns (on any thread but ETW's, inside this provider's own enable callback): the
 * registry no longer knows the id (a late notification finds nothing and is ignored); no write still uses the
 * handle (writes after close return ERROR_INVALID_HANDLE without a native call, writes already past that check
 * are waited for: those counted by the gate and those that marked their thread, see {@link WriteBuffers#enter});
 * no notification is still running in Java; EventUnregister has returned; and only then is the
 * stub's arena closed. The protocol is a {@link CloseGate}.
 *
 * <p>Closed from inside its own enable callback, close() returns at once without calling EventUnregister:
 * Windows' EventUnregister waits for the registration's callbacks in flight, so on the callback's own thread it
 * would never return (modelled by the stand-in, etw_standin_callbacks.h). The registration is closed at once
 * (writes return ERROR_INVALID_HANDLE, notifications are ignored), and EventUnregister, then the arena's close,
 * run on the gate's deferred-release thread once the callback has returned.
 *
 * <p>What this relies on: that EventUnregister does not return while ETW is still inside a callback of the
 * registration (the gate sees a thread only once it runs Java code, not in the stub's first and last
 * instructions). The stand-in models it; for Windows it is the behaviour the sources in etw_standin_callbacks.h
 * describe (the one that makes a self-unregister hang), not verified here.
 */
final class FfmProviderRegistration implements ProviderRegistration {
    static final CallbackRegistry<FfmProviderRegistration> REGISTRY = new CallbackRegistry<>();
    private static final String UPCALL = "PENABLECALLBACK";
    private static final System.Logger LOG = System.getLogger("org.etw4j.nativebindings.windows");

    private final WindowsBackend backend;
    private final Guid providerId;
    private final EnableCallback callback;
    private final long id;
    private final Arena arena = Arena.ofShared();
    private final CloseGate gate = new CloseGate();
    private volatile long handle;

    private FfmProviderRegistration(WindowsBackend backend, Guid providerId, EnableCallback callback) {
        this.backend = backend;
        this.providerId = providerId;
        this.callback = callback;
        this.id = REGISTRY.add(this); // before EventRegister: ETW may call back before it returns (MS Learn, PENABLECALLBACK callback function)
    }

    /**
     * {@code EventRegister}.
     *
     * @throws org.etw4j.EtwException naming EventRegister when it fails
     */
    static FfmProviderRegistration register(WindowsBackend backend, Guid providerId, EnableCallback callback) {
        FfmProviderRegistration r = new FfmProviderRegistration(backend, providerId, callback);
        int status;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment stub = PENABLECALLBACK.allocate(FfmProviderRegistration::enableUpcall, r.arena);
            MemorySegment guid = call.allocate(NativeGuids.BYTES, 8);
            NativeGuids.write(guid, 0, providerId);
            MemorySegment regHandle = call.allocate(ValueLayout.JAVA_LONG);
            status = EtwNative.EventRegister(guid, stub, MemorySegment.ofAddress(r.id), regHandle);
            if (status == Win32Errors.ERROR_SUCCESS) {
                r.handle = regHandle.get(ValueLayout.JAVA_LONG, 0);
            }
        } catch (RuntimeException | Error e) {
            r.abandon();
            throw e;
        } finally {
            r.gate.opened();
            backend.failures().reportPending();
        }
        if (status != Win32Errors.ERROR_SUCCESS) {
            r.abandon();
            throw Win32Errors.failure("EventRegister", status, "provider " + providerId);
        }
        return r;
    }

    /**
     * Registration failed: nothing native refers to the stub, so it can go at once (unless a notification during
     * EventRegister closed the registration: then its deferred release does it).
     */
    private void abandon() {
        if (gate.markClosed()) {
            REGISTRY.remove(id);
            arena.close();
        }
    }

    /**
     * The enable-callback upcall, shared by all registrations: finds the registration by the context id. Nothing
     * thrown leaves it (an exception unwinding into ETW would end the JVM).
     */
    private static void enableUpcall(MemorySegment sourceId, int isEnabled, byte level, long matchAny, long matchAll,
                                     MemorySegment filterData, MemorySegment context) {
        try {
            FfmProviderRegistration r = REGISTRY.lookup(context.address());
            if (r != null) { // null: a stale id (closed provider), ignored
                r.onNotification(sourceId, isEnabled, Byte.toUnsignedInt(level), matchAny, matchAll, filterData);
            }
        } catch (Throwable t) {
            WindowsBackend.recordOrphanFailure(UPCALL, t);
        }
    }

    private void onNotification(MemorySegment sourceId, int code, int level, long any, long all, MemorySegment filterData) {
        if (!gate.enterNotification()) {
            return;
        }
        try {
            Guid source = NativeGuids.readPointer(sourceId, Guid.NULL);
            List<FilterData> filters;
            try {
                filters = EnableFilterData.decode(filterData);
            } catch (RuntimeException e) {
                backend.failures().record(UPCALL, providerId.toString(), e);
                filters = List.of(); // the state change itself still reaches the provider
            }
            callback.onNotification(code, source, level, any, all, filters);
        } catch (Throwable t) {
            backend.failures().record(UPCALL, providerId.toString(), t);
        } finally {
            gate.exitNotification();
        }
    }

    @Override
    public Guid providerId() {
        return providerId;
    }

    /** The registry id handed to EventRegister as CallbackContext. */
    long contextId() {
        return id;
    }

    @Override
    public int setInformation(int informationClass, byte[] data) {
        if (!gate.enterWrite()) {
            return Win32Errors.ERROR_INVALID_HANDLE;
        }
        try {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment info = data == null || data.length == 0 ? MemorySegment.NULL
                        : call.allocateFrom(ValueLayout.JAVA_BYTE, data);
                return EtwNative.EventSetInformation(handle, informationClass, info, data == null ? 0 : data.length);
            }
        } finally {
            gate.exitWrite();
        }
    }

    @Override
    public int write(EventDescriptor descriptor, Guid activityId, Guid relatedActivityId, EventData data) {
        if (descriptor == null || data == null) {
            return Win32Errors.ERROR_INVALID_PARAMETER;
        }
        WriteBuffers buffers;
        try {
            buffers = WriteBuffers.current();
        } catch (OutOfMemoryError e) {
            return Win32Errors.ERROR_NOT_ENOUGH_MEMORY; // writes never throw (MS Learn, EventWrite function)
        }
        // The close protocol's write side: the thread's own mark (one fenced store, see WriteBuffers.enter), or,
        // for a write nested in another on this thread, the gate's shared counter. unregister() waits for both.
        boolean marked = buffers.enter(this);
        if (marked ? gate.isClosed() : !gate.enterWrite()) {
            if (marked) {
                buffers.exit();
            }
            return Win32Errors.ERROR_INVALID_HANDLE;
        }
        try {
            // No id named: NULL on a platform thread (ETW uses the OS thread's id, which etw4j's activities set and
            // native code may have set), the Java-kept id on a virtual thread (see JavaThreadActivityIds).
            Guid activity = activityId != null ? activityId : backend.activityIds().forWrite();
            return buffers.writeTransfer(handle, descriptor, activity, relatedActivityId, data);
        } catch (OutOfMemoryError e) {
            return Win32Errors.ERROR_NOT_ENOUGH_MEMORY; // writes never throw (MS Learn, EventWrite function)
        } finally {
            if (marked) {
                buffers.exit();
            } else {
                gate.exitWrite();
            }
        }
    }

    boolean isClosed() {
        return gate.isClosed();
    }

    /** {@code EventUnregister}; idempotent; see the class comment for what holds when it returns. */
    @Override
    public void close() {
        gate.close(this::unregister);
    }

    /** Runs once, when no write and no notification of this registration is inside the gate any more. */
    private void unregister() {
        WriteBuffers.awaitNoWriter(this); // the writes that marked their thread instead of entering the gate
        REGISTRY.remove(id);
        long h = handle;
        // A zero handle (EventRegister failed) needs no EventUnregister (MS Learn: it accepts one and does nothing).
        int status = h == 0 ? Win32Errors.ERROR_SUCCESS : EtwNative.EventUnregister(h);
        arena.close(); // EventUnregister has returned: ETW runs no callback of this registration, the stub is unused
        if (status != Win32Errors.ERROR_SUCCESS) {
            LOG.log(System.Logger.Level.WARNING, Win32Errors.failure("EventUnregister", status, "provider " + providerId).getMessage());
        }
        backend.failures().reportPending();
    }

    @Override
    public String toString() {
        return "FfmProviderRegistration[" + providerId + ", context " + id + (gate.isClosed() ? ", closed" : "") + "]";
    }
}
