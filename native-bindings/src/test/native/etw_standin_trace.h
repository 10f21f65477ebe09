/*
 * etw4j stand-in for advapi32, consumer helpers for the FFM backend's tests (see etw_standin.h for the stand-in).
 *
 * Why: OpenTraceW is the one ETW function etw4j calls that reports failure through the thread's "last error"
 * (it returns INVALID_PROCESSTRACE_HANDLE and the caller asks GetLastError). The FFM backend reads that value
 * with Linker.Option.captureCallState, captured by the JVM right after the native function returns: on Windows
 * the "GetLastError" slot, on Linux (no GetLastError) the "errno" slot. An engine written with FFM upcalls
 * cannot set errno reliably itself (the JVM runs its own code between the upcall's return and the C caller),
 * so it installs an implementation that returns a Win32 status, and puts EtwStandIn_OpenTraceWithLastError in
 * the OpenTraceW slot of its ETW_STANDIN_ENGINE table: that function stores the status in errno in C, as the
 * last thing before returning, the way advapi32 calls SetLastError.
 *
 * Written for this repository; compiled into libetw_standin.so by build-standin.sh with etw_standin.c.
 */
#ifndef ETW_STANDIN_TRACE_H
#define ETW_STANDIN_TRACE_H

#include "etw_standin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* OpenTraceW's work, as an engine does it: returns a Win32 status; on ERROR_SUCCESS *handle is the trace. */
typedef ULONG (*ETW_STANDIN_OPEN_TRACE_IMPL)(PEVENT_TRACE_LOGFILEW Logfile, PTRACEHANDLE Handle);

/* Installs (NULL: removes) the implementation EtwStandIn_OpenTraceWithLastError calls. */
ETWSI_EXPORT void EtwStandIn_SetOpenTraceImpl(ETW_STANDIN_OPEN_TRACE_IMPL impl);

/* OpenTraceW's signature: calls the installed implementation; on success returns the handle, on failure sets
 * errno to the Win32 status and returns INVALID_PROCESSTRACE_HANDLE (no implementation: ERROR_NOT_SUPPORTED). */
ETWSI_EXPORT TRACEHANDLE EtwStandIn_OpenTraceWithLastError(PEVENT_TRACE_LOGFILEW Logfile);

#ifdef __cplusplus
}
#endif

#endif
