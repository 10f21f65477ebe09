/*
 * etw4j stand-in: enable callbacks in flight per registration, and EventUnregister waiting for them as Windows
 * does (the sources are cited in etw_standin_callbacks.h).
 *
 * Written for this repository. Built into libetw_standin.so by build-standin.sh.
 */
#include "etw_standin_callbacks.h"

#include <pthread.h>
#include <stdlib.h>

/* One registration that has (or had) a callback in flight, or whose EventUnregister has begun. */
typedef struct Registration {
    REGHANDLE handle;
    ULONG running;     /* callbacks of this registration running now */
    int unregistering; /* EventUnregister has begun: no new callback starts */
    struct Registration *next;
} Registration;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static Registration *registrations; /* guarded by lock */
static ULONG selfWaits;             /* guarded by lock */

/* The callbacks this thread is inside, innermost last (to recognise an EventUnregister waiting for itself). */
#define MAX_NESTED 32
static _Thread_local REGHANDLE insideCallbackOf[MAX_NESTED];
static _Thread_local int nested;

/* With lock held: the entry of `handle`, created when `create` and absent; NULL when absent (or no memory). */
static Registration *find(REGHANDLE handle, int create) {
    for (Registration *r = registrations; r != NULL; r = r->next) {
        if (r->handle == handle) {
            return r;
        }
    }
    if (!create) {
        return NULL;
    }
    Registration *r = calloc(1, sizeof(Registration));
    if (r != NULL) {
        r->handle = handle;
        r->next = registrations;
        registrations = r;
    }
    return r;
}

/* With lock held: unlinks and frees the entry of `handle`. */
static void forget(REGHANDLE handle) {
    for (Registration **p = &registrations; *p != NULL; p = &(*p)->next) {
        if ((*p)->handle == handle) {
            Registration *gone = *p;
            *p = gone->next;
            free(gone);
            return;
        }
    }
}

void EtwStandIn_InvokeEnableCallbackFor(REGHANDLE handle, PENABLECALLBACK callback, LPCGUID sourceId,
                                        ULONG isEnabled, UCHAR level, ULONGLONG matchAnyKeyword,
                                        ULONGLONG matchAllKeyword, PEVENT_FILTER_DESCRIPTOR filterData,
                                        PVOID callbackContext) {
    pthread_mutex_lock(&lock);
    Registration *r = find(handle, 1);
    if (r == NULL || r->unregistering) {
        pthread_mutex_unlock(&lock); /* unregistering: ETW starts no callback of it any more */
        return;
    }
    r->running++;
    pthread_mutex_unlock(&lock);
    if (nested < MAX_NESTED) {
        insideCallbackOf[nested] = handle;
    }
    nested++;
    EtwStandIn_InvokeEnableCallback(callback, sourceId, isEnabled, level, matchAnyKeyword, matchAllKeyword,
                                    filterData, callbackContext);
    nested--;
    pthread_mutex_lock(&lock);
    r = find(handle, 0);
    if (r != NULL) {
        r->running--;
        if (r->running == 0 && !r->unregistering) {
            forget(handle);
        }
    }
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

ULONG EtwStandIn_CallbacksInFlight(REGHANDLE handle) {
    pthread_mutex_lock(&lock);
    Registration *r = find(handle, 0);
    ULONG n = r == NULL ? 0 : r->running;
    pthread_mutex_unlock(&lock);
    return n;
}

ULONG EtwStandIn_SelfUnregisterWaits(void) {
    pthread_mutex_lock(&lock);
    ULONG n = selfWaits;
    pthread_mutex_unlock(&lock);
    return n;
}

void EtwStandIn_BeginUnregister(REGHANDLE handle) {
    int self = 0;
    for (int i = 0; i < nested && i < MAX_NESTED; i++) {
        self |= insideCallbackOf[i] == handle;
    }
    pthread_mutex_lock(&lock);
    Registration *r = find(handle, 1);
    if (r == NULL) {
        pthread_mutex_unlock(&lock);
        return; /* out of memory: nothing to wait for that we could track */
    }
    r->unregistering = 1;
    if (self) {
        selfWaits++; /* the wait below never ends, as on Windows */
    }
    while (r->running > 0) {
        pthread_cond_wait(&changed, &lock);
    }
    pthread_mutex_unlock(&lock);
}

void EtwStandIn_EndUnregister(REGHANDLE handle) {
    pthread_mutex_lock(&lock);
    forget(handle);
    pthread_mutex_unlock(&lock);
}
