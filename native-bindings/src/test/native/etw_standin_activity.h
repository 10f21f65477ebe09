/*
 * etw4j stand-in for advapi32: EventActivityIdControl with the activity id kept per OS thread, as Windows does
 * (see etw_standin.h for the stand-in itself).
 *
 * What Windows does (MS Learn, EventActivityIdControl function (evntprov.h), Parameters and Remarks):
 * "user-mode threads have a thread-local 128-bit activity ID value (the thread's activity ID)", initialised to
 * GUID_NULL when the thread is created; GET_ID (1) reads it, SET_ID (2) writes it, CREATE_ID (3) returns a new
 * locally-unique id and leaves the thread's alone, GET_SET_ID (4) swaps the buffer and the thread's id,
 * CREATE_SET_ID (5) returns the thread's id and sets a new one. The thread's id is what EventWrite, and
 * EventWriteTransfer with a NULL ActivityId, put in the event.
 * The thread is the OS thread: a JVM virtual thread runs on whichever carrier OS thread the scheduler gives it,
 * so it sees the carrier's id, and leaves its own behind on the carrier when it parks. That is the point of
 * modelling it in C (thread-local storage of the calling OS thread) rather than in the Java engines (where
 * ThreadLocal would follow the virtual thread).
 *
 * Written for this repository; compiled into libetw_standin.so by build-standin.sh with etw_standin.c.
 */
#ifndef ETW_STANDIN_ACTIVITY_H
#define ETW_STANDIN_ACTIVITY_H

#include "etw_standin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* EventActivityIdControl's signature and meaning, with the id in the calling OS thread's storage; engines put it
 * in the EventActivityIdControl slot of their table. Unknown codes and a NULL buffer: ERROR_INVALID_PARAMETER. */
ETWSI_EXPORT ULONG EtwStandIn_EventActivityIdControlPerOsThread(ULONG ControlCode, LPGUID ActivityId);

/* The calling OS thread's activity id (what EventWriteTransfer with a NULL ActivityId uses), for engines. */
ETWSI_EXPORT void EtwStandIn_OsThreadActivityId(LPGUID ActivityId);

#ifdef __cplusplus
}
#endif

#endif
