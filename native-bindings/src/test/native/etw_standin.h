/*
 * etw4j stand-in for advapi32.dll / tdh.dll, for tests on Linux.
 *
 * What it is: a shared library (libetw_standin.so) exporting the ETW function names of advapi32 and tdh with
 * their Windows x64 argument and structure layouts (ULONG = 32 bits, REGHANDLE = 64 bits, WCHAR = 16 bits,
 * GUID and the descriptors as in evntprov.h), so that a backend written for Windows (JNA, FFM) runs its real
 * native path on Linux: it builds the same native structures, calls the same symbols, receives the same
 * callbacks. Only the calling convention is Linux's (System V x86-64); on Windows x64 there is only one.
 *
 * What it is not: ETW. Every exported function forwards to a function pointer of an engine table installed at
 * run time with EtwStandIn_Install (normally by test code: the JNA tests route it into the pure-Java simulated
 * engine through upcalls). Entries the engine leaves NULL, and every function while no engine is installed,
 * return ERROR_NOT_SUPPORTED (50) (FALSE for the BOOLEAN ones, INVALID_PROCESSTRACE_HANDLE for OpenTraceW)
 * instead of crashing.
 *
 * Extending it (for controller, consumer and TDH tests): every advapi32/tdh function etw4j binds already has
 * its exported forwarder and its table entry below, in the order of jextract/include/functions.txt; an engine
 * only sets the entries it implements. New functions are appended at the END of ETW_STANDIN_ENGINE (never
 * inserted), with a forwarder in etw_standin.c; the Size field keeps engines built against an older, shorter
 * table working (entries past Size count as NULL). Structures the stand-in does not need to look into
 * (EVENT_TRACE_PROPERTIES, EVENT_TRACE_LOGFILEW, EVENT_RECORD, TRACE_EVENT_INFO...) are incomplete types here:
 * the forwarders pass the pointers through untouched, and the engine reads them with its own layouts.
 *
 * Thread safety: the installed table is copied and published atomically; calls in flight keep using the table
 * they loaded (old copies are never freed: installs are rare and test-only).
 */
#ifndef ETW_STANDIN_H
#define ETW_STANDIN_H

#include <stddef.h>
#include <stdint.h>

#include "etw_standin_layout.h"

#if defined(__GNUC__)
#define ETWSI_EXPORT __attribute__((visibility("default")))
#else
#define ETWSI_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ Windows x64 (LLP64) scalar types */

typedef uint8_t UCHAR;
typedef uint8_t BOOLEAN;
typedef uint8_t BYTE, *PBYTE;
typedef uint16_t USHORT, *PUSHORT;
typedef uint16_t WCHAR, *PWCHAR, *LPWSTR, *PWSTR; /* UTF-16 code unit: not Linux's 4-byte wchar_t */
typedef const uint16_t *LPCWSTR, *PCWSTR;
typedef uint32_t ULONG, *PULONG;
typedef uint64_t ULONGLONG, ULONG64;
typedef void *PVOID;
typedef uint64_t REGHANDLE, *PREGHANDLE;
typedef uint64_t TRACEHANDLE, *PTRACEHANDLE;

#define ERROR_SUCCESS 0u
#define ERROR_INVALID_HANDLE 6u
#define ERROR_NOT_SUPPORTED 50u
#define ERROR_INVALID_PARAMETER 87u
#define INVALID_PROCESSTRACE_HANDLE ((TRACEHANDLE) UINT64_MAX)

/* ------------------------------------------------------------------ evntprov.h structures */

typedef struct _GUID {
    uint32_t Data1;
    uint16_t Data2;
    uint16_t Data3;
    uint8_t Data4[8];
} GUID, *LPGUID;
typedef const GUID *LPCGUID;

typedef struct _EVENT_DESCRIPTOR {
    USHORT Id;
    UCHAR Version;
    UCHAR Channel;
    UCHAR Level;
    UCHAR Opcode;
    USHORT Task;
    ULONGLONG Keyword;
} EVENT_DESCRIPTOR, *PEVENT_DESCRIPTOR;
typedef const EVENT_DESCRIPTOR *PCEVENT_DESCRIPTOR;

typedef struct _EVENT_DATA_DESCRIPTOR {
    ULONGLONG Ptr; /* an address, as a 64-bit integer */
    ULONG Size;
    UCHAR Type; /* EVENT_DATA_DESCRIPTOR_TYPE_*: 0 payload, 1 event metadata, 2 provider metadata */
    UCHAR Reserved1;
    USHORT Reserved2;
} EVENT_DATA_DESCRIPTOR, *PEVENT_DATA_DESCRIPTOR;

typedef struct _EVENT_FILTER_DESCRIPTOR {
    ULONGLONG Ptr;
    ULONG Size;
    ULONG Type; /* EVENT_FILTER_TYPE_* */
} EVENT_FILTER_DESCRIPTOR, *PEVENT_FILTER_DESCRIPTOR;

/* Precedes each block of schematized filter data; ETW chains the blocks of several sessions with NextOffset. */
typedef struct _EVENT_FILTER_HEADER {
    USHORT Id;
    UCHAR Version;
    UCHAR Reserved[5];
    ULONGLONG InstanceId;
    ULONG Size;       /* this header and the data after it */
    ULONG NextOffset; /* from this header to the next one; 0 for the last */
} EVENT_FILTER_HEADER, *PEVENT_FILTER_HEADER;

#define EVENT_FILTER_TYPE_SCHEMATIZED 0x80000000u

/* PENABLECALLBACK (seed 000). */
typedef void (*PENABLECALLBACK)(LPCGUID SourceId, ULONG IsEnabled, UCHAR Level, ULONGLONG MatchAnyKeyword,
                                ULONGLONG MatchAllKeyword, PEVENT_FILTER_DESCRIPTOR FilterData,
                                PVOID CallbackContext);

/* ------------------------------------------------------------------ incomplete types (engine-defined views) */

typedef struct _EVENT_TRACE_PROPERTIES EVENT_TRACE_PROPERTIES, *PEVENT_TRACE_PROPERTIES;
typedef struct _EVENT_TRACE_LOGFILEW EVENT_TRACE_LOGFILEW, *PEVENT_TRACE_LOGFILEW;
typedef struct _ENABLE_TRACE_PARAMETERS ENABLE_TRACE_PARAMETERS, *PENABLE_TRACE_PARAMETERS;
typedef struct _EVENT_RECORD EVENT_RECORD, *PEVENT_RECORD;
typedef struct _FILETIME FILETIME, *LPFILETIME;
typedef struct _TDH_CONTEXT TDH_CONTEXT, *PTDH_CONTEXT;
typedef struct _TRACE_EVENT_INFO TRACE_EVENT_INFO, *PTRACE_EVENT_INFO;
typedef struct _EVENT_MAP_INFO EVENT_MAP_INFO, *PEVENT_MAP_INFO;
typedef struct _PROPERTY_DATA_DESCRIPTOR PROPERTY_DATA_DESCRIPTOR, *PPROPERTY_DATA_DESCRIPTOR;
typedef struct _PROVIDER_ENUMERATION_INFO PROVIDER_ENUMERATION_INFO, *PPROVIDER_ENUMERATION_INFO;
typedef struct _PROVIDER_FIELD_INFOARRAY PROVIDER_FIELD_INFOARRAY, *PPROVIDER_FIELD_INFOARRAY;

/* Enumerations are 4-byte ints in the Windows x64 ABI. */
typedef ULONG EVENT_INFO_CLASS;
typedef ULONG TRACE_INFO_CLASS;
typedef ULONG TRACE_QUERY_INFO_CLASS;
typedef ULONG EVENT_FIELD_TYPE;

/* Consumer callbacks found in EVENT_TRACE_LOGFILEW (for EtwStandIn_Invoke* below). */
typedef void (*PEVENT_RECORD_CALLBACK)(PEVENT_RECORD EventRecord);
typedef ULONG (*PEVENT_TRACE_BUFFER_CALLBACKW)(PEVENT_TRACE_LOGFILEW Logfile);

/* ------------------------------------------------------------------ the engine table */

/* The current table version: entries up to and including TdhLoadManifest. */
#define ETW_STANDIN_ENGINE_VERSION 1

/* Flags: EventWrite, EventWriteTransfer, EventWriteEx and EventWriteString return ERROR_SUCCESS at once
 * without calling the engine (a "no-op ETW", for measuring the cost of the call itself). */
#define ETW_STANDIN_FLAG_NOOP_WRITES 0x1u

typedef struct ETW_STANDIN_ENGINE {
    ULONG Size;  /* bytes of this table the engine fills in: sizeof(ETW_STANDIN_ENGINE) of its version */
    ULONG Flags; /* ETW_STANDIN_FLAG_* */

    /* evntprov.h: providers (offset 8) */
    ULONG (*EventRegister)(LPCGUID ProviderId, PENABLECALLBACK EnableCallback, PVOID CallbackContext,
                           PREGHANDLE RegHandle);
    ULONG (*EventUnregister)(REGHANDLE RegHandle);
    BOOLEAN (*EventEnabled)(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor);
    BOOLEAN (*EventProviderEnabled)(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword);
    ULONG (*EventWrite)(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor, ULONG UserDataCount,
                        PEVENT_DATA_DESCRIPTOR UserData);
    ULONG (*EventWriteTransfer)(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor, LPCGUID ActivityId,
                                LPCGUID RelatedActivityId, ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData);
    ULONG (*EventWriteEx)(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor, ULONG64 Filter, ULONG Flags,
                          LPCGUID ActivityId, LPCGUID RelatedActivityId, ULONG UserDataCount,
                          PEVENT_DATA_DESCRIPTOR UserData);
    ULONG (*EventWriteString)(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword, PCWSTR String);
    ULONG (*EventActivityIdControl)(ULONG ControlCode, LPGUID ActivityId);
    ULONG (*EventSetInformation)(REGHANDLE RegHandle, EVENT_INFO_CLASS InformationClass, PVOID EventInformation,
                                 ULONG InformationLength);

    /* evntrace.h: controllers and consumers (offset 88; reserved for the FFM backend's tests) */
    ULONG (*StartTraceW)(PTRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties);
    ULONG (*ControlTraceW)(TRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties,
                           ULONG ControlCode);
    ULONG (*StopTraceW)(TRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties);
    ULONG (*FlushTraceW)(TRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties);
    ULONG (*QueryAllTracesW)(PEVENT_TRACE_PROPERTIES *PropertyArray, ULONG PropertyArrayCount, PULONG LoggerCount);
    ULONG (*EnableTraceEx2)(TRACEHANDLE TraceHandle, LPCGUID ProviderId, ULONG ControlCode, UCHAR Level,
                            ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword, ULONG Timeout,
                            PENABLE_TRACE_PARAMETERS EnableParameters);
    ULONG (*EnumerateTraceGuidsEx)(TRACE_QUERY_INFO_CLASS TraceQueryInfoClass, PVOID InBuffer, ULONG InBufferSize,
                                   PVOID OutBuffer, ULONG OutBufferSize, PULONG ReturnLength);
    TRACEHANDLE (*OpenTraceW)(PEVENT_TRACE_LOGFILEW Logfile);
    ULONG (*ProcessTrace)(PTRACEHANDLE HandleArray, ULONG HandleCount, LPFILETIME StartTime, LPFILETIME EndTime);
    ULONG (*CloseTrace)(TRACEHANDLE TraceHandle);
    ULONG (*TraceSetInformation)(TRACEHANDLE SessionHandle, TRACE_INFO_CLASS InformationClass,
                                 PVOID TraceInformation, ULONG InformationLength);
    ULONG (*TraceQueryInformation)(TRACEHANDLE SessionHandle, TRACE_INFO_CLASS InformationClass,
                                   PVOID TraceInformation, ULONG InformationLength, PULONG ReturnLength);

    /* tdh.h: decoding (offset 184; reserved for the FFM backend's tests) */
    ULONG (*TdhGetEventInformation)(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                                    PTRACE_EVENT_INFO Buffer, PULONG BufferSize);
    ULONG (*TdhGetEventMapInformation)(PEVENT_RECORD Event, PWSTR MapName, PEVENT_MAP_INFO Buffer,
                                       PULONG BufferSize);
    ULONG (*TdhGetProperty)(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                            ULONG PropertyDataCount, PPROPERTY_DATA_DESCRIPTOR PropertyData, ULONG BufferSize,
                            PBYTE Buffer);
    ULONG (*TdhGetPropertySize)(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                                ULONG PropertyDataCount, PPROPERTY_DATA_DESCRIPTOR PropertyData,
                                PULONG PropertySize);
    ULONG (*TdhEnumerateProviders)(PPROVIDER_ENUMERATION_INFO Buffer, PULONG BufferSize);
    ULONG (*TdhEnumerateProviderFieldInformation)(LPGUID Guid, EVENT_FIELD_TYPE EventFieldType,
                                                  PPROVIDER_FIELD_INFOARRAY Buffer, PULONG BufferSize);
    ULONG (*TdhQueryProviderFieldInformation)(LPGUID Guid, ULONGLONG EventFieldValue,
                                              EVENT_FIELD_TYPE EventFieldType, PPROVIDER_FIELD_INFOARRAY Buffer,
                                              PULONG BufferSize);
    ULONG (*TdhFormatProperty)(PTRACE_EVENT_INFO EventInfo, PEVENT_MAP_INFO MapInfo, ULONG PointerSize,
                               USHORT PropertyInType, USHORT PropertyOutType, USHORT PropertyLength,
                               USHORT UserDataLength, PBYTE UserData, PULONG BufferSize, PWCHAR Buffer,
                               PUSHORT UserDataConsumed);
    ULONG (*TdhLoadManifest)(PWSTR Manifest);

    /* Append new entries here (and bump ETW_STANDIN_ENGINE_VERSION). */
} ETW_STANDIN_ENGINE;

/* ------------------------------------------------------------------ stand-in control (not part of Windows) */

/* Installs a copy of *engine (NULL uninstalls: every function returns ERROR_NOT_SUPPORTED again).
 * engine->Size bytes are copied, at most sizeof(ETW_STANDIN_ENGINE); the rest of the copy is NULL. */
ETWSI_EXPORT void EtwStandIn_Install(const ETW_STANDIN_ENGINE *engine);

/* 1 while an engine is installed, else 0. */
ETWSI_EXPORT ULONG EtwStandIn_IsInstalled(void);

/* ETW_STANDIN_ENGINE_VERSION and sizeof(ETW_STANDIN_ENGINE) this library was built with. */
ETWSI_EXPORT ULONG EtwStandIn_EngineVersion(void);
ETWSI_EXPORT ULONG EtwStandIn_EngineSize(void);

/* Offset of the entry named `name` (e.g. "EventWriteTransfer", "Size", "Flags") in ETW_STANDIN_ENGINE, or
 * 0xFFFFFFFF: lets an engine written in another language check its own copy of the table layout. */
ETWSI_EXPORT ULONG EtwStandIn_EngineOffsetOf(const char *name);

/* sizeof of a Windows structure by name ("GUID", "EVENT_DESCRIPTOR", "EVENT_DATA_DESCRIPTOR",
 * "EVENT_FILTER_DESCRIPTOR", "EVENT_FILTER_HEADER"), or 0 for an unknown name. */
ETWSI_EXPORT ULONG EtwStandIn_SizeOf(const char *name);

/* Calls a provider's PENABLECALLBACK the way ETW does (from native code, native-built arguments). A NULL
 * callback is ignored (EventRegister accepts a NULL EnableCallback). */
ETWSI_EXPORT void EtwStandIn_InvokeEnableCallback(PENABLECALLBACK callback, LPCGUID sourceId, ULONG isEnabled,
                                                  UCHAR level, ULONGLONG matchAnyKeyword,
                                                  ULONGLONG matchAllKeyword, PEVENT_FILTER_DESCRIPTOR filterData,
                                                  PVOID callbackContext);

/* For consumer engines: call the EventRecordCallback / BufferCallback found in an EVENT_TRACE_LOGFILEW. */
ETWSI_EXPORT void EtwStandIn_InvokeEventRecordCallback(PEVENT_RECORD_CALLBACK callback, PEVENT_RECORD record);
ETWSI_EXPORT ULONG EtwStandIn_InvokeBufferCallback(PEVENT_TRACE_BUFFER_CALLBACKW callback,
                                                   PEVENT_TRACE_LOGFILEW logfile);

/* EventWriteTransfer's signature, returns ERROR_SUCCESS, touches nothing: the floor for call benchmarks. */
ETWSI_EXPORT ULONG EtwStandIn_EventWriteTransferNoop(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
                                                     LPCGUID ActivityId, LPCGUID RelatedActivityId,
                                                     ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData);

/* The C side of the benchmark: calls the exported EventWriteTransfer `iterations` times with the same
 * arguments (through the engine, or returning at once with ETW_STANDIN_FLAG_NOOP_WRITES); returns how many
 * calls did not return ERROR_SUCCESS. */
ETWSI_EXPORT ULONGLONG EtwStandIn_WriteTransferLoop(ULONGLONG iterations, REGHANDLE RegHandle,
                                                    PCEVENT_DESCRIPTOR EventDescriptor, LPCGUID ActivityId,
                                                    LPCGUID RelatedActivityId, ULONG UserDataCount,
                                                    PEVENT_DATA_DESCRIPTOR UserData);

/* ------------------------------------------------------------------ the exported Windows names */

ETWSI_EXPORT ULONG EventRegister(LPCGUID ProviderId, PENABLECALLBACK EnableCallback, PVOID CallbackContext,
                                 PREGHANDLE RegHandle);
ETWSI_EXPORT ULONG EventUnregister(REGHANDLE RegHandle);
ETWSI_EXPORT BOOLEAN EventEnabled(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor);
ETWSI_EXPORT BOOLEAN EventProviderEnabled(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword);
ETWSI_EXPORT ULONG EventWrite(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor, ULONG UserDataCount,
                              PEVENT_DATA_DESCRIPTOR UserData);
ETWSI_EXPORT ULONG EventWriteTransfer(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor, LPCGUID ActivityId,
                                      LPCGUID RelatedActivityId, ULONG UserDataCount,
                                      PEVENT_DATA_DESCRIPTOR UserData);
ETWSI_EXPORT ULONG EventWriteEx(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor, ULONG64 Filter,
                                ULONG Flags, LPCGUID ActivityId, LPCGUID RelatedActivityId, ULONG UserDataCount,
                                PEVENT_DATA_DESCRIPTOR UserData);
ETWSI_EXPORT ULONG EventWriteString(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword, PCWSTR String);
ETWSI_EXPORT ULONG EventActivityIdControl(ULONG ControlCode, LPGUID ActivityId);
ETWSI_EXPORT ULONG EventSetInformation(REGHANDLE RegHandle, EVENT_INFO_CLASS InformationClass,
                                       PVOID EventInformation, ULONG InformationLength);

ETWSI_EXPORT ULONG StartTraceW(PTRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties);
ETWSI_EXPORT ULONG ControlTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties,
                                 ULONG ControlCode);
ETWSI_EXPORT ULONG StopTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties);
ETWSI_EXPORT ULONG FlushTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties);
ETWSI_EXPORT ULONG QueryAllTracesW(PEVENT_TRACE_PROPERTIES *PropertyArray, ULONG PropertyArrayCount,
                                   PULONG LoggerCount);
ETWSI_EXPORT ULONG EnableTraceEx2(TRACEHANDLE TraceHandle, LPCGUID ProviderId, ULONG ControlCode, UCHAR Level,
                                  ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword, ULONG Timeout,
                                  PENABLE_TRACE_PARAMETERS EnableParameters);
ETWSI_EXPORT ULONG EnumerateTraceGuidsEx(TRACE_QUERY_INFO_CLASS TraceQueryInfoClass, PVOID InBuffer,
                                         ULONG InBufferSize, PVOID OutBuffer, ULONG OutBufferSize,
                                         PULONG ReturnLength);
ETWSI_EXPORT TRACEHANDLE OpenTraceW(PEVENT_TRACE_LOGFILEW Logfile);
ETWSI_EXPORT ULONG ProcessTrace(PTRACEHANDLE HandleArray, ULONG HandleCount, LPFILETIME StartTime,
                                LPFILETIME EndTime);
ETWSI_EXPORT ULONG CloseTrace(TRACEHANDLE TraceHandle);
ETWSI_EXPORT ULONG TraceSetInformation(TRACEHANDLE SessionHandle, TRACE_INFO_CLASS InformationClass,
                                       PVOID TraceInformation, ULONG InformationLength);
ETWSI_EXPORT ULONG TraceQueryInformation(TRACEHANDLE SessionHandle, TRACE_INFO_CLASS InformationClass,
                                         PVOID TraceInformation, ULONG InformationLength, PULONG ReturnLength);

ETWSI_EXPORT ULONG TdhGetEventInformation(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                                          PTRACE_EVENT_INFO Buffer, PULONG BufferSize);
ETWSI_EXPORT ULONG TdhGetEventMapInformation(PEVENT_RECORD Event, PWSTR MapName, PEVENT_MAP_INFO Buffer,
                                             PULONG BufferSize);
ETWSI_EXPORT ULONG TdhGetProperty(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                                  ULONG PropertyDataCount, PPROPERTY_DATA_DESCRIPTOR PropertyData, ULONG BufferSize,
                                  PBYTE Buffer);
ETWSI_EXPORT ULONG TdhGetPropertySize(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                                      ULONG PropertyDataCount, PPROPERTY_DATA_DESCRIPTOR PropertyData,
                                      PULONG PropertySize);
ETWSI_EXPORT ULONG TdhEnumerateProviders(PPROVIDER_ENUMERATION_INFO Buffer, PULONG BufferSize);
ETWSI_EXPORT ULONG TdhEnumerateProviderFieldInformation(LPGUID Guid, EVENT_FIELD_TYPE EventFieldType,
                                                        PPROVIDER_FIELD_INFOARRAY Buffer, PULONG BufferSize);
ETWSI_EXPORT ULONG TdhQueryProviderFieldInformation(LPGUID Guid, ULONGLONG EventFieldValue,
                                                    EVENT_FIELD_TYPE EventFieldType,
                                                    PPROVIDER_FIELD_INFOARRAY Buffer, PULONG BufferSize);
ETWSI_EXPORT ULONG TdhFormatProperty(PTRACE_EVENT_INFO EventInfo, PEVENT_MAP_INFO MapInfo, ULONG PointerSize,
                                     USHORT PropertyInType, USHORT PropertyOutType, USHORT PropertyLength,
                                     USHORT UserDataLength, PBYTE UserData, PULONG BufferSize, PWCHAR Buffer,
                                     PUSHORT UserDataConsumed);
ETWSI_EXPORT ULONG TdhLoadManifest(PWSTR Manifest);

#ifdef __cplusplus
}
#endif

#endif
