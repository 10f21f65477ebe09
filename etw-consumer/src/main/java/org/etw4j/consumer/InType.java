package org.etw4j.consumer;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How a field's bytes are laid out in an event's user data: TDH's {@code _TDH_IN_TYPE} numbering, with the
 * manifest names ({@code win:UInt32} ...) that select it.
 * Enum constants: immutable and thread-safe. Numbers and wire sizes: tdh.h
 * {@code _TDH_IN_TYPE} ( TraceEvent {@code RegisteredTraceEventParser.TdhInputType}). Values 1-15, 17-23 and 25
 * coincide with the TraceLogging {@code TlgIn} codes. The WBEM/MOF types (300+) are used by the classic kernel
 * schemas. {@link #fixedSize(int)} gives the size when it does not depend on the data.
 */
public enum InType {
    NULL(0, 0, "win:Null"),
    UNICODE_STRING(1, -1, "win:UnicodeString"),
    ANSI_STRING(2, -1, "win:AnsiString"),
    INT8(3, 1, "win:Int8"),
    UINT8(4, 1, "win:UInt8"),
    INT16(5, 2, "win:Int16"),
    UINT16(6, 2, "win:UInt16"),
    INT32(7, 4, "win:Int32"),
    UINT32(8, 4, "win:UInt32"),
    INT64(9, 8, "win:Int64"),
    UINT64(10, 8, "win:UInt64"),
    FLOAT(11, 4, "win:Float"),
    DOUBLE(12, 8, "win:Double"),
    /** 4 bytes, as a Win32 {@code BOOL}. */
    BOOLEAN(13, 4, "win:Boolean"),
    /** Needs a length (bytes). */
    BINARY(14, -1, "win:Binary"),
    GUID(15, 16, "win:GUID"),
    /** 4 or 8 bytes, by the logging context's bitness. */
    POINTER(16, -1, "win:Pointer"),
    FILETIME(17, 8, "win:FILETIME"),
    SYSTEMTIME(18, 16, "win:SYSTEMTIME"),
    /** 8 + 4 x SubAuthorityCount bytes. */
    SID(19, -1, "win:SID"),
    HEXINT32(20, 4, "win:HexInt32"),
    HEXINT64(21, 8, "win:HexInt64"),
    /** u16 byte count, then UTF-16LE. */
    COUNTED_STRING(22, -1, "win:CountedUnicodeString"),
    /** u16 byte count, then ANSI bytes. */
    COUNTED_ANSI_STRING(23, -1, "win:CountedAnsiString"),
    /** TraceLogging's struct marker; TDH RESERVED24. Never decoded as a value. */
    STRUCT(24, -1, "win:Struct"),
    /** u16 byte count, then bytes. */
    COUNTED_BINARY(25, -1, "win:CountedBinary"),
    /** WBEM: u16 byte count, then UTF-16LE. */
    WBEM_COUNTED_STRING(300, -1, "wbem:CountedString"),
    WBEM_COUNTED_ANSI_STRING(301, -1, "wbem:CountedAnsiString"),
    /** WBEM: big-endian u16 byte count, then UTF-16LE. */
    REVERSED_COUNTED_STRING(302, -1, "wbem:ReversedCountedString"),
    REVERSED_COUNTED_ANSI_STRING(303, -1, "wbem:ReversedCountedAnsiString"),
    /** UTF-16LE up to the end of the event. */
    NON_NUL_TERMINATED_STRING(304, -1, "wbem:NonNullTerminatedString"),
    NON_NUL_TERMINATED_ANSI_STRING(305, -1, "wbem:NonNullTerminatedAnsiString"),
    UNICODE_CHAR(306, 2, "wbem:UnicodeChar"),
    ANSI_CHAR(307, 1, "wbem:AnsiChar"),
    /** Pointer-sized unsigned integer. */
    SIZET(308, -1, "wbem:SizeT"),
    HEXDUMP(309, -1, "wbem:HexDump"),
    /** TOKEN_USER (two pointers) followed by a SID; a NULL first pointer means "no SID" (4 bytes of zero). */
    WBEM_SID(310, -1, "wbem:Sid");

    private static final Map<String, InType> BY_NAME = new HashMap<>();
    /** By code: an array (codes run 0-310), read per decoded TraceLogging field. */
    private static final InType[] BY_CODE = new InType[311];

    static {
        for (InType t : values()) {
            BY_NAME.put(t.manifestName.toLowerCase(Locale.ROOT), t);
            BY_CODE[t.code] = t;
        }
        // Names other tools and manifest generations use for the same types.
        BY_NAME.put("win:countedstring", COUNTED_STRING);
        BY_NAME.put("win:countedunicodestring", COUNTED_STRING);
        BY_NAME.put("win:countedansistring", COUNTED_ANSI_STRING);
        BY_NAME.put("win:countedbinary", COUNTED_BINARY);
        BY_NAME.put("win:sizet", SIZET);
        BY_NAME.put("win:unicodechar", UNICODE_CHAR);
        BY_NAME.put("win:ansichar", ANSI_CHAR);
    }

    private final int code;
    private final int fixedSize;
    private final String manifestName;

    InType(int code, int fixedSize, String manifestName) {
        this.code = code;
        this.fixedSize = fixedSize;
        this.manifestName = manifestName;
    }

    /** The TDH number. */
    public int code() {
        return code;
    }

    /** The manifest QName, e.g. {@code win:UInt32}. */
    public String manifestName() {
        return manifestName;
    }

    /**
     * The wire size in bytes when it does not depend on the data: pointer-sized types answer
     * {@code pointerSize}; variable types answer -1.
     */
    public int fixedSize(int pointerSize) {
        if (this == POINTER || this == SIZET) {
            return pointerSize;
        }
        return fixedSize;
    }

    /** Whether values of this type are integers that value maps and bit maps may name. */
    public boolean isInteger() {
        return switch (this) {
            case INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, UINT64, HEXINT32, HEXINT64, POINTER, SIZET,
                 BOOLEAN -> true;
            default -> false;
        };
    }

    /** Whether the type is unsigned (values are zero-extended). */
    public boolean isUnsigned() {
        return switch (this) {
            case UINT8, UINT16, UINT32, UINT64, HEXINT32, HEXINT64, POINTER, SIZET -> true;
            default -> false;
        };
    }

    /** The type a manifest names, e.g. {@code win:UInt32} (case-insensitive), or {@code null}. */
    public static InType fromManifestName(String name) {
        return name == null ? null : BY_NAME.get(name.trim().toLowerCase(Locale.ROOT));
    }

    /** The type with TDH number {@code code}, or {@code null}. */
    public static InType fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
