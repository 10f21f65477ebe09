package org.etw4j.format;

/**
 * Byte layout of an {@code EVENT_HEADER} record (header types 0x12/0x13) as stored in ETW buffers, and
 * of the extended data items that may follow it.
 *
 * <p>Constants only; no state. Offsets are from the start of the record, little-endian. Source:
 * evntcons.h {@code EVENT_HEADER} and {@code EVENT_HEADER_EXTENDED_DATA_ITEM} (verified against real files).
 */
public final class EventHeaderLayout {
    private EventHeaderLayout() {
    }

    public static final int HEADER_SIZE = 0x50;
    /** u16: whole record incl. header, extended items and payload, excluding final alignment padding. */
    public static final int SIZE = 0x00;
    public static final int HEADER_TYPE = 0x02;
    public static final int MARKER_FLAGS = 0x03;
    public static final int FLAGS = 0x04;
    public static final int EVENT_PROPERTY = 0x06;
    public static final int THREAD_ID = 0x08;
    public static final int PROCESS_ID = 0x0C;
    public static final int TIMESTAMP = 0x10;
    public static final int PROVIDER_ID = 0x18;
    public static final int DESCRIPTOR = 0x28;
    public static final int DESCRIPTOR_ID = 0x28;
    public static final int DESCRIPTOR_VERSION = 0x2A;
    public static final int DESCRIPTOR_CHANNEL = 0x2B;
    public static final int DESCRIPTOR_LEVEL = 0x2C;
    public static final int DESCRIPTOR_OPCODE = 0x2D;
    public static final int DESCRIPTOR_TASK = 0x2E;
    public static final int DESCRIPTOR_KEYWORD = 0x30;
    public static final int KERNEL_TIME = 0x38;
    public static final int USER_TIME = 0x3C;
    public static final int ACTIVITY_ID = 0x40;

    /** Header type of a record logged by a 32-bit process. */
    public static final int HEADER_TYPE_32 = 0x12;
    /** Header type of a record logged by a 64-bit process. */
    public static final int HEADER_TYPE_64 = 0x13;
    /** TRACE_HEADER_FLAG | TRACE_HEADER_EVENT_TRACE. */
    public static final int MARKER_STRUCTURED = 0xC0;

    /** Largest event record ETW accepts ({@code MAX_ETW_EVENT_SIZE}). */
    public static final int MAX_EVENT_SIZE = 0xFFFF;

    // EVENT_HEADER_FLAG_*
    public static final int FLAG_EXTENDED_INFO = 0x0001;
    public static final int FLAG_PRIVATE_SESSION = 0x0002;
    public static final int FLAG_STRING_ONLY = 0x0004;
    public static final int FLAG_TRACE_MESSAGE = 0x0008;
    public static final int FLAG_NO_CPUTIME = 0x0010;
    public static final int FLAG_32_BIT_HEADER = 0x0020;
    public static final int FLAG_64_BIT_HEADER = 0x0040;
    public static final int FLAG_DECODE_GUID = 0x0080;
    public static final int FLAG_CLASSIC_HEADER = 0x0100;
    public static final int FLAG_PROCESSOR_INDEX = 0x0200;

    // Extended data item as stored: u16 ItemSize (= align8(8 + DataSize)), u16 ExtType, u16 Linkage, u16 DataSize.
    public static final int EXT_ITEM_HEADER_SIZE = 8;
    public static final int EXT_ITEM_SIZE = 0;
    public static final int EXT_ITEM_TYPE = 2;
    public static final int EXT_ITEM_LINKAGE = 4;
    public static final int EXT_ITEM_DATA_SIZE = 6;

    // EVENT_HEADER_EXT_TYPE_*
    public static final int EXT_RELATED_ACTIVITYID = 0x0001;
    public static final int EXT_SID = 0x0002;
    public static final int EXT_TS_ID = 0x0003;
    public static final int EXT_INSTANCE_INFO = 0x0004;
    public static final int EXT_STACK_TRACE32 = 0x0005;
    public static final int EXT_STACK_TRACE64 = 0x0006;
    public static final int EXT_PEBS_INDEX = 0x0007;
    public static final int EXT_PMC_COUNTERS = 0x0008;
    public static final int EXT_PSM_KEY = 0x0009;
    public static final int EXT_EVENT_KEY = 0x000A;
    public static final int EXT_EVENT_SCHEMA_TL = 0x000B;
    public static final int EXT_PROV_TRAITS = 0x000C;
    public static final int EXT_PROCESS_START_KEY = 0x000D;
    public static final int EXT_CONTROL_GUID = 0x000E;
    public static final int EXT_QPC_DELTA = 0x000F;
    public static final int EXT_CONTAINER_ID = 0x0010;
    public static final int EXT_STACK_KEY32 = 0x0011;
    public static final int EXT_STACK_KEY64 = 0x0012;
}
