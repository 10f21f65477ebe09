/*
 * etw4j stand-in: the process-token functions (see etw_standin_token.h).
 *
 * Written for this repository. Built into libetw_standin.so by build-standin.sh. Every rule cites its source.
 */
#include "etw_standin_token.h"

#include <errno.h>
#include <stddef.h>

/* winnt.h: the Windows x64 layouts (checked against mingw-w64 by PrivilegeAbiTest). */
_Static_assert(sizeof(LUID) == 8, "LUID");
_Static_assert(sizeof(LUID_AND_ATTRIBUTES) == 12, "LUID_AND_ATTRIBUTES");
_Static_assert(offsetof(LUID_AND_ATTRIBUTES, Attributes) == 8, "LUID_AND_ATTRIBUTES.Attributes");
_Static_assert(sizeof(TOKEN_PRIVILEGES) == 16, "TOKEN_PRIVILEGES");
_Static_assert(offsetof(TOKEN_PRIVILEGES, Privileges) == 4, "TOKEN_PRIVILEGES.Privileges");

/* MS Learn, GetCurrentProcess: "A pseudo handle is a special constant, currently (HANDLE)-1". */
#define CURRENT_PROCESS ((HANDLE) (intptr_t) -1)
/* winnt.h SE_SYSTEM_PROFILE_PRIVILEGE: the LUID LookupPrivilegeValueW returns on Windows (LowPart 11). */
#define SYSTEM_PROFILE_LUID_LOW 11u
/* The one token this model hands out (any non-NULL value the test can recognise). */
#define TOKEN ((HANDLE) (intptr_t) 0x7E4)

static ULONG held = 1;          /* __atomic builtins only */
static ULONG enabled;           /* __atomic builtins only */
static ULONG openTokens;        /* __atomic builtins only */
static DWORD grantedAccess;     /* __atomic builtins only */

static BOOL fail(ULONG status) {
    errno = (int) status; /* last, as etw_standin_trace.c: nothing may overwrite it before captureCallState */
    return 0;
}

void EtwStandIn_SetProfilePrivilegeHeld(ULONG h) {
    __atomic_store_n(&held, h != 0, __ATOMIC_RELEASE);
    __atomic_store_n(&enabled, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&openTokens, 0, __ATOMIC_RELEASE);
}

ULONG EtwStandIn_ProfilePrivilegeEnabled(void) {
    return __atomic_load_n(&enabled, __ATOMIC_ACQUIRE);
}

ULONG EtwStandIn_OpenTokens(void) {
    return __atomic_load_n(&openTokens, __ATOMIC_ACQUIRE);
}

HANDLE GetCurrentProcess(void) {
    return CURRENT_PROCESS;
}

/* MS Learn, OpenProcessToken: nonzero on success, *TokenHandle receives the token opened with DesiredAccess; zero
 * and GetLastError on failure. The model knows only the current process. */
BOOL OpenProcessToken(HANDLE ProcessHandle, DWORD DesiredAccess, PHANDLE TokenHandle) {
    if (ProcessHandle != CURRENT_PROCESS || TokenHandle == NULL) {
        return fail(ProcessHandle != CURRENT_PROCESS ? ERROR_INVALID_HANDLE : ERROR_INVALID_PARAMETER);
    }
    __atomic_store_n(&grantedAccess, DesiredAccess, __ATOMIC_RELEASE);
    __atomic_add_fetch(&openTokens, 1, __ATOMIC_ACQ_REL);
    *TokenHandle = TOKEN;
    errno = 0;
    return 1;
}

/* MS Learn, LookupPrivilegeValueW: lpSystemName NULL is the local system; an unknown name fails with
 * ERROR_NO_SUCH_PRIVILEGE. The model knows one name, compared as UTF-16. */
BOOL LookupPrivilegeValueW(LPCWSTR lpSystemName, LPCWSTR lpName, PLUID lpLuid) {
    static const char expected[] = "SeSystemProfilePrivilege";
    if (lpSystemName != NULL || lpName == NULL || lpLuid == NULL) {
        return fail(ERROR_INVALID_PARAMETER);
    }
    for (size_t i = 0; i < sizeof(expected); i++) { /* the terminating NUL included */
        if (lpName[i] != (WCHAR) (unsigned char) expected[i]) {
            return fail(ERROR_NO_SUCH_PRIVILEGE);
        }
    }
    lpLuid->LowPart = SYSTEM_PROFILE_LUID_LOW;
    lpLuid->HighPart = 0;
    errno = 0;
    return 1;
}

/* MS Learn, AdjustTokenPrivileges: the token needs TOKEN_ADJUST_PRIVILEGES (else ERROR_ACCESS_DENIED, FALSE); a
 * privilege the token does not hold is not added: the function still returns nonzero and GetLastError returns
 * ERROR_NOT_ALL_ASSIGNED ("To determine whether the function adjusted all of the specified privileges, call
 * GetLastError, which returns one of the following values when the function succeeds: ERROR_SUCCESS,
 * ERROR_NOT_ALL_ASSIGNED"). PreviousState may be NULL when BufferLength is 0. */
BOOL AdjustTokenPrivileges(HANDLE TokenHandle, BOOL DisableAllPrivileges, PTOKEN_PRIVILEGES NewState,
                           DWORD BufferLength, PTOKEN_PRIVILEGES PreviousState, PDWORD ReturnLength) {
    (void) BufferLength;
    (void) PreviousState;
    (void) ReturnLength;
    if (TokenHandle != TOKEN || __atomic_load_n(&openTokens, __ATOMIC_ACQUIRE) == 0) {
        return fail(ERROR_INVALID_HANDLE);
    }
    if ((__atomic_load_n(&grantedAccess, __ATOMIC_ACQUIRE) & TOKEN_ADJUST_PRIVILEGES) == 0) {
        return fail(ERROR_ACCESS_DENIED);
    }
    if (DisableAllPrivileges) {
        __atomic_store_n(&enabled, 0, __ATOMIC_RELEASE);
        errno = 0;
        return 1;
    }
    if (NewState == NULL) {
        return fail(ERROR_INVALID_PARAMETER);
    }
    ULONG status = 0;
    for (DWORD i = 0; i < NewState->PrivilegeCount; i++) {
        const LUID_AND_ATTRIBUTES *p = &NewState->Privileges[i];
        int isProfile = p->Luid.LowPart == SYSTEM_PROFILE_LUID_LOW && p->Luid.HighPart == 0;
        if (!isProfile || !__atomic_load_n(&held, __ATOMIC_ACQUIRE)) {
            status = ERROR_NOT_ALL_ASSIGNED;
        } else {
            __atomic_store_n(&enabled, (p->Attributes & SE_PRIVILEGE_ENABLED) != 0, __ATOMIC_RELEASE);
        }
    }
    errno = (int) status;
    return 1;
}

/* MS Learn, CloseHandle: nonzero on success; closing a handle twice is an invalid handle. */
BOOL CloseHandle(HANDLE hObject) {
    if (hObject != TOKEN) {
        return fail(ERROR_INVALID_HANDLE);
    }
    ULONG open = __atomic_load_n(&openTokens, __ATOMIC_ACQUIRE);
    if (open == 0) {
        return fail(ERROR_INVALID_HANDLE);
    }
    __atomic_sub_fetch(&openTokens, 1, __ATOMIC_ACQ_REL);
    errno = 0;
    return 1;
}
