/*
 * etw4j stand-in for advapi32.dll / tdh.dll: exported forwarders into an engine table (see etw_standin.h).
 *
 * Written for this repository. Built by the test build (build-standin.sh) with gcc into libetw_standin.so.
 * Every exported Windows name does the same three things: load the installed table, return the "not
 * supported" value when there is no table or no entry, else call the entry with the arguments unchanged.
 */
#include "etw_standin.h"
#include "etw_standin_callbacks.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ layout checks (see etw_standin_layout.h) */

_Static_assert(sizeof(ULONG) == ETWSI_SIZEOF_ULONG, "ULONG is 4 bytes on Windows");
_Static_assert(sizeof(REGHANDLE) == ETWSI_SIZEOF_REGHANDLE, "REGHANDLE is a ULONGLONG");
_Static_assert(sizeof(TRACEHANDLE) == ETWSI_SIZEOF_TRACEHANDLE, "TRACEHANDLE is a ULONG64");
_Static_assert(sizeof(WCHAR) == ETWSI_SIZEOF_WCHAR, "WCHAR is a UTF-16 code unit");
_Static_assert(sizeof(GUID) == ETWSI_SIZEOF_GUID, "GUID");
_Static_assert(offsetof(GUID, Data4) == ETWSI_OFFSETOF_GUID_Data4, "GUID.Data4");
_Static_assert(sizeof(EVENT_DESCRIPTOR) == ETWSI_SIZEOF_EVENT_DESCRIPTOR, "EVENT_DESCRIPTOR");
_Static_assert(offsetof(EVENT_DESCRIPTOR, Level) == ETWSI_OFFSETOF_EVENT_DESCRIPTOR_Level, "EVENT_DESCRIPTOR.Level");
_Static_assert(offsetof(EVENT_DESCRIPTOR, Task) == ETWSI_OFFSETOF_EVENT_DESCRIPTOR_Task, "EVENT_DESCRIPTOR.Task");
_Static_assert(offsetof(EVENT_DESCRIPTOR, Keyword) == ETWSI_OFFSETOF_EVENT_DESCRIPTOR_Keyword, "EVENT_DESCRIPTOR.Keyword");
_Static_assert(sizeof(EVENT_DATA_DESCRIPTOR) == ETWSI_SIZEOF_EVENT_DATA_DESCRIPTOR, "EVENT_DATA_DESCRIPTOR");
_Static_assert(offsetof(EVENT_DATA_DESCRIPTOR, Size) == ETWSI_OFFSETOF_EVENT_DATA_DESCRIPTOR_Size, "EVENT_DATA_DESCRIPTOR.Size");
_Static_assert(offsetof(EVENT_DATA_DESCRIPTOR, Type) == ETWSI_OFFSETOF_EVENT_DATA_DESCRIPTOR_Type, "EVENT_DATA_DESCRIPTOR.Type");
_Static_assert(sizeof(EVENT_FILTER_DESCRIPTOR) == ETWSI_SIZEOF_EVENT_FILTER_DESCRIPTOR, "EVENT_FILTER_DESCRIPTOR");
_Static_assert(offsetof(EVENT_FILTER_DESCRIPTOR, Size) == ETWSI_OFFSETOF_EVENT_FILTER_DESCRIPTOR_Size, "EVENT_FILTER_DESCRIPTOR.Size");
_Static_assert(offsetof(EVENT_FILTER_DESCRIPTOR, Type) == ETWSI_OFFSETOF_EVENT_FILTER_DESCRIPTOR_Type, "EVENT_FILTER_DESCRIPTOR.Type");
_Static_assert(sizeof(EVENT_FILTER_HEADER) == ETWSI_SIZEOF_EVENT_FILTER_HEADER, "EVENT_FILTER_HEADER");
_Static_assert(offsetof(EVENT_FILTER_HEADER, InstanceId) == ETWSI_OFFSETOF_EVENT_FILTER_HEADER_InstanceId, "EVENT_FILTER_HEADER.InstanceId");
_Static_assert(offsetof(EVENT_FILTER_HEADER, Size) == ETWSI_OFFSETOF_EVENT_FILTER_HEADER_Size, "EVENT_FILTER_HEADER.Size");
_Static_assert(offsetof(EVENT_FILTER_HEADER, NextOffset) == ETWSI_OFFSETOF_EVENT_FILTER_HEADER_NextOffset, "EVENT_FILTER_HEADER.NextOffset");

/* The table's own layout is part of the contract with engines in other languages (etw_standin.h comments). */
_Static_assert(offsetof(ETW_STANDIN_ENGINE, EventRegister) == 8, "provider entries start at 8");
_Static_assert(offsetof(ETW_STANDIN_ENGINE, StartTraceW) == 88, "controller entries start at 88");
_Static_assert(offsetof(ETW_STANDIN_ENGINE, TdhGetEventInformation) == 184, "tdh entries start at 184");
_Static_assert(sizeof(ETW_STANDIN_ENGINE) == 256, "version 1 table size");

/* ------------------------------------------------------------------ the installed table */

static const ETW_STANDIN_ENGINE *installed; /* accessed with __atomic builtins only */

static inline const ETW_STANDIN_ENGINE *engine(void) {
    return __atomic_load_n(&installed, __ATOMIC_ACQUIRE);
}

void EtwStandIn_Install(const ETW_STANDIN_ENGINE *table) {
    ETW_STANDIN_ENGINE *copy = NULL;
    if (table != NULL) {
        copy = calloc(1, sizeof(ETW_STANDIN_ENGINE));
        if (copy == NULL) {
            return; /* keep the previous table: better than a half-installed one */
        }
        size_t n = table->Size < sizeof(ETW_STANDIN_ENGINE) ? table->Size : sizeof(ETW_STANDIN_ENGINE);
        memcpy(copy, table, n);
        copy->Size = (ULONG) sizeof(ETW_STANDIN_ENGINE);
    }
    /* The previous copy is deliberately leaked: a call on another thread may still be reading it. */
    __atomic_store_n(&installed, copy, __ATOMIC_RELEASE);
}

ULONG EtwStandIn_IsInstalled(void) {
    return engine() != NULL;
}

ULONG EtwStandIn_EngineVersion(void) {
    return ETW_STANDIN_ENGINE_VERSION;
}

ULONG EtwStandIn_EngineSize(void) {
    return (ULONG) sizeof(ETW_STANDIN_ENGINE);
}

#define ENTRY(name) {#name, offsetof(ETW_STANDIN_ENGINE, name)}
static const struct {
    const char *name;
    size_t offset;
} ENTRIES[] = {
    ENTRY(Size), ENTRY(Flags),
    ENTRY(EventRegister), ENTRY(EventUnregister), ENTRY(EventEnabled), ENTRY(EventProviderEnabled),
    ENTRY(EventWrite), ENTRY(EventWriteTransfer), ENTRY(EventWriteEx), ENTRY(EventWriteString),
    ENTRY(EventActivityIdControl), ENTRY(EventSetInformation),
    ENTRY(StartTraceW), ENTRY(ControlTraceW), ENTRY(StopTraceW), ENTRY(FlushTraceW), ENTRY(QueryAllTracesW),
    ENTRY(EnableTraceEx2), ENTRY(EnumerateTraceGuidsEx), ENTRY(OpenTraceW), ENTRY(ProcessTrace), ENTRY(CloseTrace),
    ENTRY(TraceSetInformation), ENTRY(TraceQueryInformation),
    ENTRY(TdhGetEventInformation), ENTRY(TdhGetEventMapInformation), ENTRY(TdhGetProperty),
    ENTRY(TdhGetPropertySize), ENTRY(TdhEnumerateProviders), ENTRY(TdhEnumerateProviderFieldInformation),
    ENTRY(TdhQueryProviderFieldInformation), ENTRY(TdhFormatProperty), ENTRY(TdhLoadManifest),
};
#undef ENTRY

ULONG EtwStandIn_EngineOffsetOf(const char *name) {
    if (name != NULL) {
        for (size_t i = 0; i < sizeof(ENTRIES) / sizeof(ENTRIES[0]); i++) {
            if (strcmp(ENTRIES[i].name, name) == 0) {
                return (ULONG) ENTRIES[i].offset;
            }
        }
    }
    return 0xFFFFFFFFu;
}

ULONG EtwStandIn_SizeOf(const char *name) {
    if (name == NULL) {
        return 0;
    }
    if (strcmp(name, "GUID") == 0) {
        return sizeof(GUID);
    }
    if (strcmp(name, "EVENT_DESCRIPTOR") == 0) {
        return sizeof(EVENT_DESCRIPTOR);
    }
    if (strcmp(name, "EVENT_DATA_DESCRIPTOR") == 0) {
        return sizeof(EVENT_DATA_DESCRIPTOR);
    }
    if (strcmp(name, "EVENT_FILTER_DESCRIPTOR") == 0) {
        return sizeof(EVENT_FILTER_DESCRIPTOR);
    }
    if (strcmp(name, "EVENT_FILTER_HEADER") == 0) {
        return sizeof(EVENT_FILTER_HEADER);
    }
    return 0;
}

/* ------------------------------------------------------------------ helpers for engines */

void EtwStandIn_InvokeEnableCallback(PENABLECALLBACK callback, LPCGUID sourceId, ULONG isEnabled, UCHAR level,
                                     ULONGLONG matchAnyKeyword, ULONGLONG matchAllKeyword,
                                     PEVENT_FILTER_DESCRIPTOR filterData, PVOID callbackContext) {
    if (callback != NULL) {
        callback(sourceId, isEnabled, level, matchAnyKeyword, matchAllKeyword, filterData, callbackContext);
    }
}

void EtwStandIn_InvokeEventRecordCallback(PEVENT_RECORD_CALLBACK callback, PEVENT_RECORD record) {
    if (callback != NULL) {
        callback(record);
    }
}

ULONG EtwStandIn_InvokeBufferCallback(PEVENT_TRACE_BUFFER_CALLBACKW callback, PEVENT_TRACE_LOGFILEW logfile) {
    return callback != NULL ? callback(logfile) : 1u; /* TRUE: keep processing, as when no callback is set */
}

ULONG EtwStandIn_EventWriteTransferNoop(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor, LPCGUID ActivityId,
                                        LPCGUID RelatedActivityId, ULONG UserDataCount,
                                        PEVENT_DATA_DESCRIPTOR UserData) {
    (void) RegHandle;
    (void) EventDescriptor;
    (void) ActivityId;
    (void) RelatedActivityId;
    (void) UserDataCount;
    (void) UserData;
    return ERROR_SUCCESS;
}

ULONGLONG EtwStandIn_WriteTransferLoop(ULONGLONG iterations, REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
                                       LPCGUID ActivityId, LPCGUID RelatedActivityId, ULONG UserDataCount,
                                       PEVENT_DATA_DESCRIPTOR UserData) {
    ULONGLONG failures = 0;
    for (ULONGLONG i = 0; i < iterations; i++) {
        if (EventWriteTransfer(RegHandle, EventDescriptor, ActivityId, RelatedActivityId, UserDataCount, UserData)
            != ERROR_SUCCESS) {
            failures++;
        }
    }
    return failures;
}

/* ------------------------------------------------------------------ forwarders */

/* Loads the table into `e`, returns `absent` when it or the entry is missing. */
#define FORWARD(absent, name, ...)                  \
    const ETW_STANDIN_ENGINE *e = engine();         \
    if (e == NULL || e->name == NULL) {             \
        return (absent);                            \
    }                                               \
    return e->name(__VA_ARGS__)

#define NOOP_WRITES(e) ((e) != NULL && ((e)->Flags & ETW_STANDIN_FLAG_NOOP_WRITES) != 0)

ULONG EventRegister(LPCGUID ProviderId, PENABLECALLBACK EnableCallback, PVOID CallbackContext, PREGHANDLE RegHandle) {
    FORWARD(ERROR_NOT_SUPPORTED, EventRegister, ProviderId, EnableCallback, CallbackContext, RegHandle);
}

ULONG EventUnregister(REGHANDLE RegHandle) {
    /* Windows waits for the registration's callbacks in flight first (etw_standin_callbacks.h). */
    EtwStandIn_BeginUnregister(RegHandle);
    const ETW_STANDIN_ENGINE *e = engine();
    ULONG status = e == NULL || e->EventUnregister == NULL ? ERROR_NOT_SUPPORTED : e->EventUnregister(RegHandle);
    EtwStandIn_EndUnregister(RegHandle);
    return status;
}

BOOLEAN EventEnabled(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor) {
    FORWARD(0, EventEnabled, RegHandle, EventDescriptor);
}

BOOLEAN EventProviderEnabled(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword) {
    FORWARD(0, EventProviderEnabled, RegHandle, Level, Keyword);
}

ULONG EventWrite(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor, ULONG UserDataCount,
                 PEVENT_DATA_DESCRIPTOR UserData) {
    if (NOOP_WRITES(engine())) {
        return ERROR_SUCCESS;
    }
    FORWARD(ERROR_NOT_SUPPORTED, EventWrite, RegHandle, EventDescriptor, UserDataCount, UserData);
}

ULONG EventWriteTransfer(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor, LPCGUID ActivityId,
                         LPCGUID RelatedActivityId, ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData) {
    const ETW_STANDIN_ENGINE *e = engine();
    if (NOOP_WRITES(e)) {
        return ERROR_SUCCESS;
    }
    if (e == NULL || e->EventWriteTransfer == NULL) {
        return ERROR_NOT_SUPPORTED;
    }
    return e->EventWriteTransfer(RegHandle, EventDescriptor, ActivityId, RelatedActivityId, UserDataCount, UserData);
}

ULONG EventWriteEx(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor, ULONG64 Filter, ULONG Flags,
                   LPCGUID ActivityId, LPCGUID RelatedActivityId, ULONG UserDataCount,
                   PEVENT_DATA_DESCRIPTOR UserData) {
    if (NOOP_WRITES(engine())) {
        return ERROR_SUCCESS;
    }
    FORWARD(ERROR_NOT_SUPPORTED, EventWriteEx, RegHandle, EventDescriptor, Filter, Flags, ActivityId,
            RelatedActivityId, UserDataCount, UserData);
}

ULONG EventWriteString(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword, PCWSTR String) {
    if (NOOP_WRITES(engine())) {
        return ERROR_SUCCESS;
    }
    FORWARD(ERROR_NOT_SUPPORTED, EventWriteString, RegHandle, Level, Keyword, String);
}

ULONG EventActivityIdControl(ULONG ControlCode, LPGUID ActivityId) {
    FORWARD(ERROR_NOT_SUPPORTED, EventActivityIdControl, ControlCode, ActivityId);
}

ULONG EventSetInformation(REGHANDLE RegHandle, EVENT_INFO_CLASS InformationClass, PVOID EventInformation,
                          ULONG InformationLength) {
    FORWARD(ERROR_NOT_SUPPORTED, EventSetInformation, RegHandle, InformationClass, EventInformation,
            InformationLength);
}

ULONG StartTraceW(PTRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties) {
    FORWARD(ERROR_NOT_SUPPORTED, StartTraceW, TraceHandle, InstanceName, Properties);
}

ULONG ControlTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties,
                    ULONG ControlCode) {
    FORWARD(ERROR_NOT_SUPPORTED, ControlTraceW, TraceHandle, InstanceName, Properties, ControlCode);
}

ULONG StopTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties) {
    FORWARD(ERROR_NOT_SUPPORTED, StopTraceW, TraceHandle, InstanceName, Properties);
}

ULONG FlushTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties) {
    FORWARD(ERROR_NOT_SUPPORTED, FlushTraceW, TraceHandle, InstanceName, Properties);
}

ULONG QueryAllTracesW(PEVENT_TRACE_PROPERTIES *PropertyArray, ULONG PropertyArrayCount, PULONG LoggerCount) {
    FORWARD(ERROR_NOT_SUPPORTED, QueryAllTracesW, PropertyArray, PropertyArrayCount, LoggerCount);
}

ULONG EnableTraceEx2(TRACEHANDLE TraceHandle, LPCGUID ProviderId, ULONG ControlCode, UCHAR Level,
                     ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword, ULONG Timeout,
                     PENABLE_TRACE_PARAMETERS EnableParameters) {
    FORWARD(ERROR_NOT_SUPPORTED, EnableTraceEx2, TraceHandle, ProviderId, ControlCode, Level, MatchAnyKeyword,
            MatchAllKeyword, Timeout, EnableParameters);
}

ULONG EnumerateTraceGuidsEx(TRACE_QUERY_INFO_CLASS TraceQueryInfoClass, PVOID InBuffer, ULONG InBufferSize,
                            PVOID OutBuffer, ULONG OutBufferSize, PULONG ReturnLength) {
    FORWARD(ERROR_NOT_SUPPORTED, EnumerateTraceGuidsEx, TraceQueryInfoClass, InBuffer, InBufferSize, OutBuffer,
            OutBufferSize, ReturnLength);
}

TRACEHANDLE OpenTraceW(PEVENT_TRACE_LOGFILEW Logfile) {
    FORWARD(INVALID_PROCESSTRACE_HANDLE, OpenTraceW, Logfile);
}

ULONG ProcessTrace(PTRACEHANDLE HandleArray, ULONG HandleCount, LPFILETIME StartTime, LPFILETIME EndTime) {
    FORWARD(ERROR_NOT_SUPPORTED, ProcessTrace, HandleArray, HandleCount, StartTime, EndTime);
}

ULONG CloseTrace(TRACEHANDLE TraceHandle) {
    FORWARD(ERROR_NOT_SUPPORTED, CloseTrace, TraceHandle);
}

ULONG TraceSetInformation(TRACEHANDLE SessionHandle, TRACE_INFO_CLASS InformationClass, PVOID TraceInformation,
                          ULONG InformationLength) {
    FORWARD(ERROR_NOT_SUPPORTED, TraceSetInformation, SessionHandle, InformationClass, TraceInformation,
            InformationLength);
}

ULONG TraceQueryInformation(TRACEHANDLE SessionHandle, TRACE_INFO_CLASS InformationClass, PVOID TraceInformation,
                            ULONG InformationLength, PULONG ReturnLength) {
    FORWARD(ERROR_NOT_SUPPORTED, TraceQueryInformation, SessionHandle, InformationClass, TraceInformation,
            InformationLength, ReturnLength);
}

ULONG TdhGetEventInformation(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                             PTRACE_EVENT_INFO Buffer, PULONG BufferSize) {
    FORWARD(ERROR_NOT_SUPPORTED, TdhGetEventInformation, Event, TdhContextCount, TdhContext, Buffer, BufferSize);
}

ULONG TdhGetEventMapInformation(PEVENT_RECORD Event, PWSTR MapName, PEVENT_MAP_INFO Buffer, PULONG BufferSize) {
    FORWARD(ERROR_NOT_SUPPORTED, TdhGetEventMapInformation, Event, MapName, Buffer, BufferSize);
}

ULONG TdhGetProperty(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext, ULONG PropertyDataCount,
                     PPROPERTY_DATA_DESCRIPTOR PropertyData, ULONG BufferSize, PBYTE Buffer) {
    FORWARD(ERROR_NOT_SUPPORTED, TdhGetProperty, Event, TdhContextCount, TdhContext, PropertyDataCount, PropertyData,
            BufferSize, Buffer);
}

ULONG TdhGetPropertySize(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                         ULONG PropertyDataCount, PPROPERTY_DATA_DESCRIPTOR PropertyData, PULONG PropertySize) {
    FORWARD(ERROR_NOT_SUPPORTED, TdhGetPropertySize, Event, TdhContextCount, TdhContext, PropertyDataCount,
            PropertyData, PropertySize);
}

ULONG TdhEnumerateProviders(PPROVIDER_ENUMERATION_INFO Buffer, PULONG BufferSize) {
    FORWARD(ERROR_NOT_SUPPORTED, TdhEnumerateProviders, Buffer, BufferSize);
}

ULONG TdhEnumerateProviderFieldInformation(LPGUID Guid, EVENT_FIELD_TYPE EventFieldType,
                                           PPROVIDER_FIELD_INFOARRAY Buffer, PULONG BufferSize) {
    FORWARD(ERROR_NOT_SUPPORTED, TdhEnumerateProviderFieldInformation, Guid, EventFieldType, Buffer, BufferSize);
}

ULONG TdhQueryProviderFieldInformation(LPGUID Guid, ULONGLONG EventFieldValue, EVENT_FIELD_TYPE EventFieldType,
                                       PPROVIDER_FIELD_INFOARRAY Buffer, PULONG BufferSize) {
    FORWARD(ERROR_NOT_SUPPORTED, TdhQueryProviderFieldInformation, Guid, EventFieldValue, EventFieldType, Buffer,
            BufferSize);
}

ULONG TdhFormatProperty(PTRACE_EVENT_INFO EventInfo, PEVENT_MAP_INFO MapInfo, ULONG PointerSize,
                        USHORT PropertyInType, USHORT PropertyOutType, USHORT PropertyLength, USHORT UserDataLength,
                        PBYTE UserData, PULONG BufferSize, PWCHAR Buffer, PUSHORT UserDataConsumed) {
    FORWARD(ERROR_NOT_SUPPORTED, TdhFormatProperty, EventInfo, MapInfo, PointerSize, PropertyInType, PropertyOutType,
            PropertyLength, UserDataLength, UserData, BufferSize, Buffer, UserDataConsumed);
}

ULONG TdhLoadManifest(PWSTR Manifest) {
    FORWARD(ERROR_NOT_SUPPORTED, TdhLoadManifest, Manifest);
}
