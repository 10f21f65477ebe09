/*
 * etw4j stand-in: the process-token functions that enable a privilege (advapi32 OpenProcessToken,
 * LookupPrivilegeValueW, AdjustTokenPrivileges; kernel32 GetCurrentProcess, CloseHandle), modelled for the FFM
 * backend's SeSystemProfilePrivilege step before a CPU-sampling kernel session.
 *
 * Written for this repository; compiled into libetw_standin.so by build-standin.sh with etw_standin.c. The model is
 * one process token that holds SeSystemProfilePrivilege disabled (an elevated Administrator's token) or not at all
 * (a standard user's); tests choose with EtwStandIn_SetProfilePrivilegeHeld and read what happened back. Failures
 * are reported as Windows reports them, through the thread's last error, which on Linux is errno (the slot the
 * backend's captureCallState reads off Windows, see etw_standin_trace.h).
 */
#ifndef ETW_STANDIN_TOKEN_H
#define ETW_STANDIN_TOKEN_H

#include "etw_standin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t BOOL;
typedef uint32_t DWORD, *PDWORD;
typedef int32_t LONG;
typedef void *HANDLE, **PHANDLE;

/* winnt.h */
typedef struct _LUID {
    DWORD LowPart;
    LONG HighPart;
} LUID, *PLUID;

typedef struct _LUID_AND_ATTRIBUTES {
    LUID Luid;
    DWORD Attributes;
} LUID_AND_ATTRIBUTES;

typedef struct _TOKEN_PRIVILEGES {
    DWORD PrivilegeCount;
    LUID_AND_ATTRIBUTES Privileges[1];
} TOKEN_PRIVILEGES, *PTOKEN_PRIVILEGES;

#define TOKEN_QUERY 0x0008u
#define TOKEN_ADJUST_PRIVILEGES 0x0020u
#define SE_PRIVILEGE_ENABLED 0x00000002u
#define ERROR_ACCESS_DENIED 5u
#define ERROR_NOT_ALL_ASSIGNED 1300u
#define ERROR_NO_SUCH_PRIVILEGE 1313u

ETWSI_EXPORT HANDLE GetCurrentProcess(void);
ETWSI_EXPORT BOOL OpenProcessToken(HANDLE ProcessHandle, DWORD DesiredAccess, PHANDLE TokenHandle);
ETWSI_EXPORT BOOL LookupPrivilegeValueW(LPCWSTR lpSystemName, LPCWSTR lpName, PLUID lpLuid);
ETWSI_EXPORT BOOL AdjustTokenPrivileges(HANDLE TokenHandle, BOOL DisableAllPrivileges, PTOKEN_PRIVILEGES NewState,
                                        DWORD BufferLength, PTOKEN_PRIVILEGES PreviousState, PDWORD ReturnLength);
ETWSI_EXPORT BOOL CloseHandle(HANDLE hObject);

/* Test controls: whether the token holds SeSystemProfilePrivilege (1 by default: an elevated Administrator), and
 * resets what was recorded (privilege disabled, no token open). */
ETWSI_EXPORT void EtwStandIn_SetProfilePrivilegeHeld(ULONG held);
/* 1 once AdjustTokenPrivileges enabled SeSystemProfilePrivilege. */
ETWSI_EXPORT ULONG EtwStandIn_ProfilePrivilegeEnabled(void);
/* Tokens OpenProcessToken opened and CloseHandle has not closed. */
ETWSI_EXPORT ULONG EtwStandIn_OpenTokens(void);

#ifdef __cplusplus
}
#endif

#endif
