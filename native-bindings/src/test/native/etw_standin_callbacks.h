/*
 * etw4j stand-in for advapi32: EventUnregister waits for the registration's enable callbacks in flight, as
 * Windows does (see etw_standin.h for the stand-in itself).
 *
 * What Windows does, and where that is written down:
 *   - MS Learn, EventUnregister (evntprov.h), Remarks: every provider a component registered must be unregistered
 *     before the component unloads, or the process may crash. So once EventUnregister has returned, ETW runs no
 *     callback of that registration any more, and it cannot return while one is still running.
 *   - ETW runs a provider's enable callback with the registration locked: ntdll!EtwpLockRegistration (an SRW
 *     lock) is held by the notifying thread in the stacks of dotnet/runtime issue 70870.
 *   - The .NET runtime documents the consequence: disposing an EventSource (EventUnregister) from inside its own
 *     OnEventCommand callback hangs (dotnet/runtime issue 106087; PR 106040 made EventPipe block the same way "to
 *     align with ETW which blocks disposal for in-flight callbacks"; PR 131544's review: ETW "has had the same
 *     deadlock potential for a long time"); PR 56453 fixes a lock-order deadlock around EventUnregister and ETW's
 *     notification lock.
 * The model: an engine calls a provider's PENABLECALLBACK through EtwStandIn_InvokeEnableCallbackFor, naming
 * the REGHANDLE; EventUnregister(h) first stops new callbacks of h, then waits until none of h is running (also
 * when the waiting thread is itself inside one: it then waits forever, as on Windows), then calls the engine.
 *
 * Written for this repository; compiled into libetw_standin.so by build-standin.sh with etw_standin.c.
 */
#ifndef ETW_STANDIN_CALLBACKS_H
#define ETW_STANDIN_CALLBACKS_H

#include "etw_standin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* EtwStandIn_InvokeEnableCallback for the registration `handle`: counted as in flight for EventUnregister(handle)
 * while it runs; not called at all once EventUnregister(handle) has begun. */
ETWSI_EXPORT void EtwStandIn_InvokeEnableCallbackFor(REGHANDLE handle, PENABLECALLBACK callback, LPCGUID sourceId,
                                                     ULONG isEnabled, UCHAR level, ULONGLONG matchAnyKeyword,
                                                     ULONGLONG matchAllKeyword,
                                                     PEVENT_FILTER_DESCRIPTOR filterData, PVOID callbackContext);

/* Callbacks of `handle` running now (tests). */
ETWSI_EXPORT ULONG EtwStandIn_CallbacksInFlight(REGHANDLE handle);

/* How many EventUnregister calls were made by a thread inside a callback of the same registration: each of
 * them waits forever, as on Windows (tests assert it stays 0; the test that hangs reads it first). */
ETWSI_EXPORT ULONG EtwStandIn_SelfUnregisterWaits(void);

/* Called by EventUnregister (etw_standin.c) before it forwards to the engine: stops new callbacks of `handle`
 * and waits until none is running. Not exported. */
void EtwStandIn_BeginUnregister(REGHANDLE handle);

/* Called by EventUnregister after the engine returned: forgets `handle`. Not exported. */
void EtwStandIn_EndUnregister(REGHANDLE handle);

#ifdef __cplusplus
}
#endif

#endif
