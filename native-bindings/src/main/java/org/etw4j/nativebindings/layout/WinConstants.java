package org.etw4j.nativebindings.layout;

/**
 * Windows SDK constants that etw4j needs and the mingw-w64 headers do not define, so jextract could not
 * generate them (everything the headers do define is in the generated {@code EtwNative}). Values are those of
 * the Windows SDK headers as documented on Microsoft Learn: "EVENT_FILTER_DESCRIPTOR structure (evntprov.h)",
 * "ENABLE_TRACE_PARAMETERS structure (evntrace.h)", "EVENT_HEADER_EXTENDED_DATA_ITEM structure (evntcons.h)",
 * "EVENT_HEADER structure (evntcons.h)", "ControlTraceW function (evntrace.h)".
 *
 * <p>Constants only: immutable and thread-safe. The module's ABI test fails if mingw-w64 starts defining one of
 * these with another value, and if jextract generates one of them (it would then be a duplicate).
 */
public final class WinConstants {

    // EVENT_FILTER_DESCRIPTOR.Type (evntprov.h); mingw-w64 has only SCHEMATIZED, SYSTEM_FLAGS, TRACEHANDLE.
    /** No filter. */
    public static final int EVENT_FILTER_TYPE_NONE = 0x00000000;
    /** Filter by process id (array of ULONG, at most {@link #MAX_EVENT_FILTER_PID_COUNT}). */
    public static final int EVENT_FILTER_TYPE_PID = 0x80000004;
    /** Filter by executable name (UTF-16, ';'-separated). */
    public static final int EVENT_FILTER_TYPE_EXECUTABLE_NAME = 0x80000008;
    /** Filter by package id. */
    public static final int EVENT_FILTER_TYPE_PACKAGE_ID = 0x80000010;
    /** Filter by package-relative app id. */
    public static final int EVENT_FILTER_TYPE_PACKAGE_APP_ID = 0x80000020;
    /** TDH payload filter (TdhCreatePayloadFilter). */
    public static final int EVENT_FILTER_TYPE_PAYLOAD = 0x80000100;
    /** Filter by event id: an {@link EventFilterEventId}. */
    public static final int EVENT_FILTER_TYPE_EVENT_ID = 0x80000200;
    /** Filter by event name (TraceLogging). */
    public static final int EVENT_FILTER_TYPE_EVENT_NAME = 0x80000400;
    /** Stack walk only for the listed event ids: an {@link EventFilterEventId}. */
    public static final int EVENT_FILTER_TYPE_STACKWALK = 0x80001000;
    /** Stack walk only for the listed event names (TraceLogging). */
    public static final int EVENT_FILTER_TYPE_STACKWALK_NAME = 0x80002000;
    /** Stack walk filtered by level and keyword. */
    public static final int EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW = 0x80004000;
    /** Filter by container id. */
    public static final int EVENT_FILTER_TYPE_CONTAINER = 0x80008000;

    /** Most process ids in one {@link #EVENT_FILTER_TYPE_PID} filter. */
    public static final int MAX_EVENT_FILTER_PID_COUNT = 8;
    /** Most event ids in one {@link #EVENT_FILTER_TYPE_EVENT_ID} filter. */
    public static final int MAX_EVENT_FILTER_EVENT_ID_COUNT = 64;

    // ENABLE_TRACE_PARAMETERS.EnableProperty (evntrace.h); mingw-w64 has only SID, TS_ID, STACK_TRACE.
    /** Adds the PSM key extended item. */
    public static final int EVENT_ENABLE_PROPERTY_PSM_KEY = 0x00000008;
    /** Drops events whose keyword is 0. */
    public static final int EVENT_ENABLE_PROPERTY_IGNORE_KEYWORD_0 = 0x00000010;
    /** The provider id is a provider group. */
    public static final int EVENT_ENABLE_PROPERTY_PROVIDER_GROUP = 0x00000020;
    /** Includes keyword-0 events whatever MatchAnyKeyword says. */
    public static final int EVENT_ENABLE_PROPERTY_ENABLE_KEYWORD_0 = 0x00000040;
    /** Adds the process start key extended item. */
    public static final int EVENT_ENABLE_PROPERTY_PROCESS_START_KEY = 0x00000080;
    /** Adds the event key extended item. */
    public static final int EVENT_ENABLE_PROPERTY_EVENT_KEY = 0x00000100;
    /** Excludes events from InPrivate (browser) processes. */
    public static final int EVENT_ENABLE_PROPERTY_EXCLUDE_INPRIVATE = 0x00000200;
    /** Enables the provider in server silos too. */
    public static final int EVENT_ENABLE_PROPERTY_ENABLE_SILOS = 0x00000400;
    /** Adds the container id extended item. */
    public static final int EVENT_ENABLE_PROPERTY_SOURCE_CONTAINER_TRACKING = 0x00000800;

    // EVENT_HEADER.Flags and EventProperty (evntcons.h).
    /** The event was decoded with a GUID (classic WPP) rather than a manifest. */
    public static final int EVENT_HEADER_FLAG_DECODE_GUID = 0x0080;
    /** The event may be relogged. */
    public static final int EVENT_HEADER_PROPERTY_RELOGGABLE = 0x0008;

    // EVENT_HEADER_EXTENDED_DATA_ITEM.ExtType (evntcons.h); mingw-w64 stops at PMC_COUNTERS (and defines
    // EVENT_HEADER_EXT_TYPE_MAX as 9 where the SDK has 0x13, which is why MAX is not repeated here).
    /** PSM key. */
    public static final int EVENT_HEADER_EXT_TYPE_PSM_KEY = 0x0009;
    /** Event key (ULONG64). */
    public static final int EVENT_HEADER_EXT_TYPE_EVENT_KEY = 0x000A;
    /** TraceLogging event schema (metadata). */
    public static final int EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL = 0x000B;
    /** Provider traits (TraceLogging provider name and group). */
    public static final int EVENT_HEADER_EXT_TYPE_PROV_TRAITS = 0x000C;
    /** Process start key (ULONG64). */
    public static final int EVENT_HEADER_EXT_TYPE_PROCESS_START_KEY = 0x000D;
    /** Control GUID. */
    public static final int EVENT_HEADER_EXT_TYPE_CONTROL_GUID = 0x000E;
    /** QPC delta. */
    public static final int EVENT_HEADER_EXT_TYPE_QPC_DELTA = 0x000F;
    /** Container id (GUID). */
    public static final int EVENT_HEADER_EXT_TYPE_CONTAINER_ID = 0x0010;
    /** Stack key, 32-bit. */
    public static final int EVENT_HEADER_EXT_TYPE_STACK_KEY32 = 0x0011;
    /** Stack key, 64-bit. */
    public static final int EVENT_HEADER_EXT_TYPE_STACK_KEY64 = 0x0012;

    // ControlTraceW ControlCode (evntrace.h).
    /** Switches a file session to real-time delivery (Windows 10 and later). */
    public static final int EVENT_TRACE_CONTROL_CONVERT_TO_REALTIME = 5;

    private WinConstants() {
    }
}
