package org.etw4j.tracelogging;

/**
 * TraceLogging input types ({@code TlgIn*}, the low 5 bits of a field's InMeta byte): how a field's value is
 * laid out in the payload.
 *
 * <p>Enum constants: immutable, thread-safe. Codes and wire forms from
 * TraceLoggingDynamic.h ({@code enum InType}, the Rust crate's {@code enums.rs}, go-winio); codes
 * 1-15, 17-23 and 25 are also TDH's {@code _TDH_IN_TYPE} numbers (tdh.h), so manifest decoding shares the
 * primitive formats. {@link #POINTER} (16) is reserved and must not be written by a TraceLogging encoder (its
 * size depends on the emitting process); decoders accept it with an explicit pointer size.
 */
public enum InType {
    /** 0 TlgInNULL: no data. Not writable here (many decoders mishandle it). */
    NULL(0, "TlgInNULL", 0),
    /** 1 TlgInUNICODESTRING: UTF-16LE, terminated by a u16 NUL. */
    UNICODE_STRING(1, "TlgInUNICODESTRING", -1),
    /** 2 TlgInANSISTRING: 8-bit chars, NUL-terminated; windows-1252 unless OutType UTF8/XML/JSON (UTF-8). */
    ANSI_STRING(2, "TlgInANSISTRING", -1),
    /** 3 TlgInINT8. */
    INT8(3, "TlgInINT8", 1),
    /** 4 TlgInUINT8. */
    UINT8(4, "TlgInUINT8", 1),
    /** 5 TlgInINT16. */
    INT16(5, "TlgInINT16", 2),
    /** 6 TlgInUINT16. */
    UINT16(6, "TlgInUINT16", 2),
    /** 7 TlgInINT32. */
    INT32(7, "TlgInINT32", 4),
    /** 8 TlgInUINT32. */
    UINT32(8, "TlgInUINT32", 4),
    /** 9 TlgInINT64. */
    INT64(9, "TlgInINT64", 8),
    /** 10 TlgInUINT64. */
    UINT64(10, "TlgInUINT64", 8),
    /** 11 TlgInFLOAT: IEEE single. */
    FLOAT(11, "TlgInFLOAT", 4),
    /** 12 TlgInDOUBLE: IEEE double. */
    DOUBLE(12, "TlgInDOUBLE", 8),
    /** 13 TlgInBOOL32: a 4-byte Win32 BOOL. */
    BOOL32(13, "TlgInBOOL32", 4),
    /** 14 TlgInBINARY: u16 byte count + bytes; arrays of it are not supported (TDH cannot decode them). */
    BINARY(14, "TlgInBINARY", -1),
    /** 15 TlgInGUID: 16 bytes, Windows layout. */
    GUID(15, "TlgInGUID", 16),
    /** 16 _TlgInPOINTER_unsupported: reserved (equals TDH_INTYPE_POINTER); never written by this library. */
    POINTER(16, "_TlgInPOINTER_unsupported", -1),
    /** 17 TlgInFILETIME: 8 bytes, 100 ns since 1601-01-01 UTC. */
    FILETIME(17, "TlgInFILETIME", 8),
    /** 18 TlgInSYSTEMTIME: 8 x u16 (year, month, day of week, day, hour, minute, second, ms). */
    SYSTEMTIME(18, "TlgInSYSTEMTIME", 16),
    /** 19 TlgInSID: 8 + 4 x sub-authority count bytes. */
    SID(19, "TlgInSID", -1),
    /** 20 TlgInHEXINT32: 4 bytes, shown in hex. */
    HEXINT32(20, "TlgInHEXINT32", 4),
    /** 21 TlgInHEXINT64: 8 bytes, shown in hex. */
    HEXINT64(21, "TlgInHEXINT64", 8),
    /** 22 TlgInCOUNTEDSTRING: u16 byte count + UTF-16LE, no NUL. */
    COUNTED_STRING(22, "TlgInCOUNTEDSTRING", -1),
    /** 23 TlgInCOUNTEDANSISTRING: u16 byte count + 8-bit chars, no NUL. */
    COUNTED_ANSI_STRING(23, "TlgInCOUNTEDANSISTRING", -1),
    /** 24 _TlgInSTRUCT: no data; the OutMeta slot holds the number (1-127) of following member fields. */
    STRUCT(24, "_TlgInSTRUCT", 0),
    /** 25 TlgInCOUNTEDBINARY: u16 byte count + bytes; arrays allowed. */
    COUNTED_BINARY(25, "TlgInCOUNTEDBINARY", -1);

    /** Mask of the InType bits in an InMeta byte. */
    public static final int MASK = 0x1F;

    private static final InType[] BY_CODE = values();

    private final int code;
    private final String tlgName;
    private final int fixedSize;

    InType(int code, String tlgName, int fixedSize) {
        this.code = code;
        this.tlgName = tlgName;
        this.fixedSize = fixedSize;
    }

    /** The 5-bit code. */
    public int code() {
        return code;
    }

    /** The Windows SDK name ({@code TlgInUNICODESTRING}, ...). */
    public String tlgName() {
        return tlgName;
    }

    /** Size in bytes of one value, or -1 when the size depends on the data (strings, binary, SID, pointer). */
    public int fixedSize() {
        return fixedSize;
    }

    /** Whether an encoder may declare a field of this type ({@link #NULL} and {@link #POINTER} may not). */
    public boolean isWritable() {
        return this != NULL && this != POINTER;
    }

    /** The type for a code 0-25, or {@code null} for 26-31 (undefined) and values outside 0-31. */
    public static InType fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
