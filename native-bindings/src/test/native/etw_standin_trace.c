/*
 * etw4j stand-in: OpenTraceW with a "last error" for FFM engines (see etw_standin_trace.h).
 *
 * Written for this repository. Built into libetw_standin.so by build-standin.sh.
 */
#include "etw_standin_trace.h"

#include <errno.h>

static ETW_STANDIN_OPEN_TRACE_IMPL openTraceImpl; /* accessed with __atomic builtins only */

void EtwStandIn_SetOpenTraceImpl(ETW_STANDIN_OPEN_TRACE_IMPL impl) {
    __atomic_store_n(&openTraceImpl, impl, __ATOMIC_RELEASE);
}

TRACEHANDLE EtwStandIn_OpenTraceWithLastError(PEVENT_TRACE_LOGFILEW Logfile) {
    ETW_STANDIN_OPEN_TRACE_IMPL impl = __atomic_load_n(&openTraceImpl, __ATOMIC_ACQUIRE);
    TRACEHANDLE handle = INVALID_PROCESSTRACE_HANDLE;
    ULONG status = impl == NULL ? ERROR_NOT_SUPPORTED : impl(Logfile, &handle);
    if (status != ERROR_SUCCESS) {
        /* Last, so that nothing can overwrite it before the caller's captureCallState reads it. */
        errno = (int) status;
        return INVALID_PROCESSTRACE_HANDLE;
    }
    return handle;
}
