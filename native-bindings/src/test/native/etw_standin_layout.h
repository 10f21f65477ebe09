/*
 * etw4j stand-in for advapi32/tdh: the Windows x64 sizes and offsets the stand-in promises, in one place.
 *
 * Both sides check themselves against these numbers at compile time:
 *   - etw_standin.c, with the stand-in's own structure definitions (gcc on Linux x86-64);
 *   - abi_check_windows.c, with Microsoft's definitions from the mingw-w64 headers (x86_64-w64-mingw32-gcc,
 *     -fsyntax-only; run by build-standin.sh when that compiler is installed).
 * So a layout mistake in the stand-in fails the build instead of producing a test that passes on Linux and
 * a backend that corrupts memory on Windows.
 *
 * Sources: evntprov.h and guiddef.h of mingw-w64 (the same layouts as the Windows SDK); the field lists are in
 * Microsoft's pages for GUID, EVENT_DESCRIPTOR, EVENT_DATA_DESCRIPTOR, EVENT_FILTER_DESCRIPTOR and
 * EVENT_FILTER_HEADER.
 */
#ifndef ETW_STANDIN_LAYOUT_H
#define ETW_STANDIN_LAYOUT_H

#define ETWSI_SIZEOF_GUID 16
#define ETWSI_OFFSETOF_GUID_Data4 8

#define ETWSI_SIZEOF_EVENT_DESCRIPTOR 16
#define ETWSI_OFFSETOF_EVENT_DESCRIPTOR_Level 4
#define ETWSI_OFFSETOF_EVENT_DESCRIPTOR_Task 6
#define ETWSI_OFFSETOF_EVENT_DESCRIPTOR_Keyword 8

#define ETWSI_SIZEOF_EVENT_DATA_DESCRIPTOR 16
#define ETWSI_OFFSETOF_EVENT_DATA_DESCRIPTOR_Size 8
#define ETWSI_OFFSETOF_EVENT_DATA_DESCRIPTOR_Type 12

#define ETWSI_SIZEOF_EVENT_FILTER_DESCRIPTOR 16
#define ETWSI_OFFSETOF_EVENT_FILTER_DESCRIPTOR_Size 8
#define ETWSI_OFFSETOF_EVENT_FILTER_DESCRIPTOR_Type 12

#define ETWSI_SIZEOF_EVENT_FILTER_HEADER 24
#define ETWSI_OFFSETOF_EVENT_FILTER_HEADER_InstanceId 8
#define ETWSI_OFFSETOF_EVENT_FILTER_HEADER_Size 16
#define ETWSI_OFFSETOF_EVENT_FILTER_HEADER_NextOffset 20

/* Scalar widths of the Windows LLP64 model (not Linux LP64: long is 8 bytes on Linux, ULONG is 4 on Windows). */
#define ETWSI_SIZEOF_ULONG 4
#define ETWSI_SIZEOF_REGHANDLE 8
#define ETWSI_SIZEOF_TRACEHANDLE 8
#define ETWSI_SIZEOF_WCHAR 2

#endif
