package org.etw4j.jna.internal;

import com.sun.jna.Callback;
import com.sun.jna.Pointer;

/**
 * {@code PENABLECALLBACK} (MS Learn, PENABLECALLBACK callback function) as JNA sees it: ETW calls {@link #invoke} on its notification thread.
 *
 * <p>Implementations must be thread-safe, return quickly and never throw: JNA would only print the exception,
 * and the caller is native code that cannot handle one. The JNA backend has exactly one implementation, held
 * in a static field for the life of the process, so the native trampoline JNA creates for it is never freed
 * while ETW may still call it; which provider a call is for comes from {@code callbackContext}, an id.
 */
public interface NativeEnableCallback extends Callback {

    /**
     * One notification.
     *
     * @param sourceId        {@code LPCGUID}: the enabling session's SourceId (may be GUID_NULL)
     * @param isEnabled       {@code ULONG}: the control code (0 disable, 1 enable, 2 capture state, others)
     * @param level           {@code UCHAR}: the maximum level over the enabling sessions (unsigned)
     * @param matchAnyKeyword {@code ULONGLONG}
     * @param matchAllKeyword {@code ULONGLONG}
     * @param filterData      {@code PEVENT_FILTER_DESCRIPTOR}, or null; valid only during the call
     * @param callbackContext {@code PVOID}: the value given to EventRegister (a registry id, not an address)
     */
    void invoke(Pointer sourceId, int isEnabled, byte level, long matchAnyKeyword, long matchAllKeyword,
                Pointer filterData, long callbackContext);
}
