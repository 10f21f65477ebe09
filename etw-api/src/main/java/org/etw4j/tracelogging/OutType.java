package org.etw4j.tracelogging;

/**
 * TraceLogging output types ({@code TlgOut*}, the low 7 bits of a field's OutMeta byte): a formatting hint for
 * decoders. <b>Not</b> TDH's {@code _TDH_OUT_TYPE} numbering (they differ below 34).
 *
 * <p>Enum constants: immutable, thread-safe. Codes from
 * TraceLoggingDynamic.h ({@code enum OutType}, the Rust crate's {@code enums.rs}, go-winio). Which combinations
 * with an {@link InType} are meaningful is defined by the SDK's winmeta.xml; an encoder here accepts any
 * combination except the ones that change the wire format's meaning in this library's decoder (none do).
 */
public enum OutType {
    /** 0: the InType's default format; no OutMeta byte is written when tags are 0 too. */
    DEFAULT(0),
    /** 1: do not show the field. */
    NO_PRINT(1),
    /** 2: string (e.g. UINT8 as char, UINT16 arrays as UTF-16 text). */
    STRING(2),
    /** 3: boolean (e.g. UINT8). */
    BOOLEAN(3),
    /** 4: hexadecimal. */
    HEX(4),
    /** 5: process id. */
    PID(5),
    /** 6: thread id. */
    TID(6),
    /** 7: IP port (big-endian u16). */
    PORT(7),
    /** 8: IPv4 address. */
    IPV4(8),
    /** 9: IPv6 address. */
    IPV6(9),
    /** 10: SOCKADDR. */
    SOCKET_ADDRESS(10),
    /** 11: XML text (8-bit strings are then UTF-8). */
    XML(11),
    /** 12: JSON text (8-bit strings are then UTF-8). */
    JSON(12),
    /** 13: Win32 error code. */
    WIN32_ERROR(13),
    /** 14: NTSTATUS. */
    NTSTATUS(14),
    /** 15: HRESULT. */
    HRESULT(15),
    /** 16: FILETIME given as an integer (DateTime). */
    FILETIME(16),
    /** 17: signed integer. */
    SIGNED(17),
    /** 18: unsigned integer. */
    UNSIGNED(18),
    /** 33 (0x21): date-time without culture-specific formatting. */
    DATETIME_CULTURE_INSENSITIVE(33),
    /** 35 (0x23): UTF-8 (8-bit strings). */
    UTF8(35),
    /** 36 (0x24): PKCS#7 message with type information. */
    PKCS7_WITH_TYPE_INFO(36),
    /** 37 (0x25): code pointer (symbolized by some decoders). */
    CODE_POINTER(37),
    /** 38 (0x26): date-time in UTC. */
    DATETIME_UTC(38);

    /** Mask of the OutType bits in an OutMeta byte. */
    public static final int MASK = 0x7F;

    private static final OutType[] BY_CODE = new OutType[128];

    static {
        for (OutType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final int code;

    OutType(int code) {
        this.code = code;
    }

    /** The 7-bit code. */
    public int code() {
        return code;
    }

    /** The type for a code, or {@code null} when the code is not one of the values above. */
    public static OutType fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** Whether 8-bit strings with this OutType hold UTF-8 (UTF8, XML, JSON) rather than windows-1252. */
    public boolean impliesUtf8() {
        return this == UTF8 || this == XML || this == JSON;
    }
}
