/*
 * etw4j stand-in: the activity id of the calling OS thread (see etw_standin_activity.h for what Windows does).
 *
 * Written for this repository. Built into libetw_standin.so by build-standin.sh.
 */
#include "etw_standin_activity.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

static _Thread_local GUID current; /* GUID_NULL for every new OS thread, as on Windows */
static uint64_t created;           /* accessed with __atomic builtins only */
static uint64_t salt;              /* set once, from the clock, at the first CREATE */

/* A new id, unique in this process: a per-process salt and a counter ("locally unique", MS Learn). */
static GUID createId(void) {
    uint64_t s = __atomic_load_n(&salt, __ATOMIC_ACQUIRE);
    if (s == 0) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        uint64_t fresh = ((uint64_t) now.tv_sec << 30) ^ (uint64_t) now.tv_nsec ^ 0x4554573441435449ull;
        uint64_t expected = 0;
        __atomic_compare_exchange_n(&salt, &expected, fresh == 0 ? 1 : fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
        s = __atomic_load_n(&salt, __ATOMIC_ACQUIRE);
    }
    uint64_t n = __atomic_add_fetch(&created, 1, __ATOMIC_RELAXED);
    GUID g;
    g.Data1 = (uint32_t) n;
    g.Data2 = (uint16_t) (n >> 32);
    g.Data3 = (uint16_t) (n >> 48);
    memcpy(g.Data4, &s, sizeof(g.Data4));
    return g;
}

ULONG EtwStandIn_EventActivityIdControlPerOsThread(ULONG ControlCode, LPGUID ActivityId) {
    if (ActivityId == NULL) {
        return ERROR_INVALID_PARAMETER;
    }
    GUID previous = current;
    switch (ControlCode) {
        case 1: /* EVENT_ACTIVITY_CTRL_GET_ID */
            *ActivityId = current;
            return ERROR_SUCCESS;
        case 2: /* EVENT_ACTIVITY_CTRL_SET_ID */
            current = *ActivityId;
            return ERROR_SUCCESS;
        case 3: /* EVENT_ACTIVITY_CTRL_CREATE_ID */
            *ActivityId = createId();
            return ERROR_SUCCESS;
        case 4: /* EVENT_ACTIVITY_CTRL_GET_SET_ID */
            current = *ActivityId;
            *ActivityId = previous;
            return ERROR_SUCCESS;
        case 5: /* EVENT_ACTIVITY_CTRL_CREATE_SET_ID */
            current = createId();
            *ActivityId = previous;
            return ERROR_SUCCESS;
        default:
            return ERROR_INVALID_PARAMETER;
    }
}

void EtwStandIn_OsThreadActivityId(LPGUID ActivityId) {
    if (ActivityId != NULL) {
        *ActivityId = current;
    }
}
