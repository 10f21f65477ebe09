/*
 * Checks etw_standin_layout.h against Microsoft's structure definitions (the mingw-w64 headers), compiled for
 * Windows x64 with x86_64-w64-mingw32-gcc -fsyntax-only by build-standin.sh. Nothing is linked or run: the
 * _Static_asserts are the test. Written for this repository.
 */
#include <windows.h>
#include <evntprov.h>

#include "etw_standin_layout.h"

#include <stddef.h>

_Static_assert(sizeof(ULONG) == ETWSI_SIZEOF_ULONG, "ULONG");
_Static_assert(sizeof(REGHANDLE) == ETWSI_SIZEOF_REGHANDLE, "REGHANDLE");
_Static_assert(sizeof(ULONG64) == ETWSI_SIZEOF_TRACEHANDLE, "TRACEHANDLE is a ULONG64");
_Static_assert(sizeof(WCHAR) == ETWSI_SIZEOF_WCHAR, "WCHAR");
_Static_assert(sizeof(GUID) == ETWSI_SIZEOF_GUID, "GUID");
_Static_assert(offsetof(GUID, Data4) == ETWSI_OFFSETOF_GUID_Data4, "GUID.Data4");
_Static_assert(sizeof(EVENT_DESCRIPTOR) == ETWSI_SIZEOF_EVENT_DESCRIPTOR, "EVENT_DESCRIPTOR");
_Static_assert(offsetof(EVENT_DESCRIPTOR, Level) == ETWSI_OFFSETOF_EVENT_DESCRIPTOR_Level, "EVENT_DESCRIPTOR.Level");
_Static_assert(offsetof(EVENT_DESCRIPTOR, Task) == ETWSI_OFFSETOF_EVENT_DESCRIPTOR_Task, "EVENT_DESCRIPTOR.Task");
_Static_assert(offsetof(EVENT_DESCRIPTOR, Keyword) == ETWSI_OFFSETOF_EVENT_DESCRIPTOR_Keyword, "EVENT_DESCRIPTOR.Keyword");
_Static_assert(sizeof(EVENT_DATA_DESCRIPTOR) == ETWSI_SIZEOF_EVENT_DATA_DESCRIPTOR, "EVENT_DATA_DESCRIPTOR");
_Static_assert(offsetof(EVENT_DATA_DESCRIPTOR, Size) == ETWSI_OFFSETOF_EVENT_DATA_DESCRIPTOR_Size, "EVENT_DATA_DESCRIPTOR.Size");
_Static_assert(offsetof(EVENT_DATA_DESCRIPTOR, Reserved) == ETWSI_OFFSETOF_EVENT_DATA_DESCRIPTOR_Type, "EVENT_DATA_DESCRIPTOR.Type (first byte of the Reserved union)");
_Static_assert(sizeof(EVENT_FILTER_DESCRIPTOR) == ETWSI_SIZEOF_EVENT_FILTER_DESCRIPTOR, "EVENT_FILTER_DESCRIPTOR");
_Static_assert(offsetof(EVENT_FILTER_DESCRIPTOR, Size) == ETWSI_OFFSETOF_EVENT_FILTER_DESCRIPTOR_Size, "EVENT_FILTER_DESCRIPTOR.Size");
_Static_assert(offsetof(EVENT_FILTER_DESCRIPTOR, Type) == ETWSI_OFFSETOF_EVENT_FILTER_DESCRIPTOR_Type, "EVENT_FILTER_DESCRIPTOR.Type");
_Static_assert(sizeof(EVENT_FILTER_HEADER) == ETWSI_SIZEOF_EVENT_FILTER_HEADER, "EVENT_FILTER_HEADER");
_Static_assert(offsetof(EVENT_FILTER_HEADER, InstanceId) == ETWSI_OFFSETOF_EVENT_FILTER_HEADER_InstanceId, "EVENT_FILTER_HEADER.InstanceId");
_Static_assert(offsetof(EVENT_FILTER_HEADER, Size) == ETWSI_OFFSETOF_EVENT_FILTER_HEADER_Size, "EVENT_FILTER_HEADER.Size");
_Static_assert(offsetof(EVENT_FILTER_HEADER, NextOffset) == ETWSI_OFFSETOF_EVENT_FILTER_HEADER_NextOffset, "EVENT_FILTER_HEADER.NextOffset");
