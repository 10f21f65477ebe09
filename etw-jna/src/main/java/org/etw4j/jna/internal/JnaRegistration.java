package org.etw4j.jna.internal;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.lang.ref.Reference;
import java.util.List;
import org.etw4j.EtwException;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Win32Error;
import org.etw4j.jna.CallbackFailure;
import org.etw4j.provider.EventData;
import org.etw4j.provider.FilterData;
import org.etw4j.spi.CloseGate;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.ProviderRegistration;

/**
 * A provider registered through JNA: one REGHANDLE, one registry id, one {@link EnableCallback}.
 *
 * <p>Thread-safe; writes from any number of threads. {@link #close()} is idempotent and, when it returns (on any
 * thread but ETW's, inside this provider's own enable callback): no write is still using the handle (writes after
 * close return ERROR_INVALID_HANDLE without reaching native code, writes already past that check are waited for,
 * so the handle is never used after EventUnregister); no call of the provider's callback is running or will
 * start (notifications already past their check are waited for); EventUnregister has returned; and only then
 * does the registry drop its strong reference. The protocol is a {@link CloseGate}: one uncontended LongAdder
 * increment and decrement per write.
 *
 * <p>Closed from inside its own enable callback, close() returns at once: Windows' EventUnregister waits for
 * the registration's callbacks in flight, so on the callback's own thread it would never return (modelled by the
 * stand-in, etw_standin_callbacks.h). The registration is closed at once (writes return ERROR_INVALID_HANDLE,
 * notifications are ignored), and EventUnregister runs on the gate's deferred-release thread once the callback
 * has returned.
 */
final class JnaRegistration implements ProviderRegistration {
    private final JnaEtwBackend backend;
    private final Guid providerId;
    private final EnableCallback callback;
    private final long id;
    private final CloseGate gate = new CloseGate();
    private volatile long handle;

    private JnaRegistration(JnaEtwBackend backend, Guid providerId, EnableCallback callback, long id) {
        this.backend = backend;
        this.providerId = providerId;
        this.callback = callback;
        this.id = id;
    }

    /**
     * {@code EventRegister}.
     *
     * @throws EtwException naming EventRegister when it fails
     */
    static JnaRegistration register(JnaEtwBackend backend, Guid providerId, EnableCallback callback) {
        ProviderRegistry registry = ProviderRegistry.INSTANCE;
        long id = registry.newId();
        JnaRegistration r = new JnaRegistration(backend, providerId, callback, id);
        // In the table before EventRegister: ETW may call back before EventRegister returns (MS Learn, PENABLECALLBACK callback function: a provider
        // registered after a session enabled it is notified at once).
        registry.put(id, r);
        Memory guid = new Memory(Guid.BYTES);
        Memory regHandle = new Memory(Long.BYTES);
        int status;
        try {
            guid.write(0, providerId.toWindowsBytes(), 0, Guid.BYTES);
            regHandle.setLong(0, 0);
            status = Advapi32.EventRegister(guid, registry.callback(), id, regHandle);
            if (status == 0) {
                r.handle = regHandle.getLong(0);
            }
        } catch (RuntimeException | Error e) {
            r.abandon();
            throw e;
        } finally {
            r.gate.opened();
            Reference.reachabilityFence(guid);
            Reference.reachabilityFence(regHandle);
        }
        if (status != 0) {
            r.abandon();
            throw new EtwException("EventRegister", status, "provider " + providerId);
        }
        return r;
    }

    @Override
    public Guid providerId() {
        return providerId;
    }

    /** The registry id passed to EventRegister as CallbackContext. */
    long contextId() {
        return id;
    }

    /** The REGHANDLE EventRegister returned. */
    long handle() {
        return handle;
    }

    boolean isClosed() {
        return gate.isClosed();
    }

    @Override
    public int setInformation(int informationClass, byte[] data) {
        if (!gate.enterWrite()) {
            return Win32Error.ERROR_INVALID_HANDLE.code();
        }
        try {
            return WriteStaging.forThisThread().setInformation(handle, informationClass, data);
        } finally {
            gate.exitWrite();
        }
    }

    @Override
    public int write(EventDescriptor descriptor, Guid activityId, Guid relatedActivityId, EventData data) {
        if (descriptor == null || data == null) {
            return Win32Error.ERROR_INVALID_PARAMETER.code();
        }
        if (!gate.enterWrite()) {
            return Win32Error.ERROR_INVALID_HANDLE.code();
        }
        try {
            // No id named: NULL on a platform thread (ETW uses the OS thread's id, which etw4j's activities set and
            // native code may have set), the Java-kept id on a virtual thread (see JavaThreadActivityIds).
            Guid activity = activityId != null ? activityId : backend.activityIds().forWrite();
            return WriteStaging.forThisThread().writeTransfer(handle, descriptor, activity, relatedActivityId, data);
        } catch (OutOfMemoryError e) {
            return Win32Error.ERROR_NOT_ENOUGH_MEMORY.code(); // writes never throw (MS Learn, EventWrite function)
        } finally {
            gate.exitWrite();
        }
    }

    /**
     * A notification from the native callback: copies its arguments (valid only during the call) and hands them
     * to the provider's callback. Never throws: failures are recorded on the backend.
     */
    void onNativeNotification(Pointer sourceId, int controlCode, int level, long any, long all, Pointer filterData) {
        if (!gate.enterNotification()) {
            backend.countIgnoredAfterClose();
            return;
        }
        try {
            Guid source = sourceId == null ? Guid.NULL : Guid.readFrom(sourceId.getByteArray(0, Guid.BYTES), 0);
            List<FilterData> filters;
            try {
                filters = FilterDescriptors.decode(filterData);
            } catch (RuntimeException e) {
                backend.recordCallbackFailure(new CallbackFailure(providerId, controlCode, e));
                filters = List.of(); // the state change itself still reaches the provider
            }
            callback.onNotification(controlCode, source, level, any, all, filters);
        } catch (Throwable t) {
            backend.recordCallbackFailure(new CallbackFailure(providerId, controlCode, t));
        } finally {
            gate.exitNotification();
        }
    }

    /**
     * Registration failed: nothing to unregister (unless a notification during EventRegister closed the
     * registration: then its deferred release does it).
     */
    private void abandon() {
        if (gate.markClosed()) {
            ProviderRegistry.INSTANCE.remove(id);
        }
    }

    /** {@code EventUnregister}; idempotent; see the class comment for what holds when it returns. */
    @Override
    public void close() {
        gate.close(this::unregister);
    }

    /** Runs once, when no write and no notification of this registration is inside the gate any more. */
    private void unregister() {
        long h = handle;
        if (h != 0) { // zero: EventRegister failed (MS Learn: EventUnregister would accept it and do nothing)
            Advapi32.EventUnregister(h);
        }
        ProviderRegistry.INSTANCE.remove(id);
    }

    @Override
    public String toString() {
        return "JnaRegistration[" + providerId + ", context " + id + (gate.isClosed() ? ", closed" : "") + "]";
    }
}
