package org.etw4j.consumer;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How a field should be rendered: TDH's {@code _TDH_OUT_TYPE} numbering, with the manifest QNames
 * ({@code xs:string}, {@code win:HexInt32} ...).
 * Enum constants: immutable and thread-safe. Numbering: tdh.h {@code _TDH_OUT_TYPE}
 * (sequential order, ferrisetw pins 30-38). The decoder keeps the declared out type on every field;
 * renderers use it (hex, IP addresses, error codes), the typed value does not change with it except where the
 * out type changes the meaning of the bytes ({@link #UTF8} for ANSI strings).
 */
public enum OutType {
    NULL(0, "xs:null"),
    STRING(1, "xs:string"),
    DATETIME(2, "xs:dateTime"),
    BYTE(3, "xs:byte"),
    UNSIGNED_BYTE(4, "xs:unsignedByte"),
    SHORT(5, "xs:short"),
    UNSIGNED_SHORT(6, "xs:unsignedShort"),
    INT(7, "xs:int"),
    UNSIGNED_INT(8, "xs:unsignedInt"),
    LONG(9, "xs:long"),
    UNSIGNED_LONG(10, "xs:unsignedLong"),
    FLOAT(11, "xs:float"),
    DOUBLE(12, "xs:double"),
    BOOLEAN(13, "xs:boolean"),
    GUID(14, "xs:GUID"),
    HEX_BINARY(15, "xs:hexBinary"),
    HEXINT8(16, "win:HexInt8"),
    HEXINT16(17, "win:HexInt16"),
    HEXINT32(18, "win:HexInt32"),
    HEXINT64(19, "win:HexInt64"),
    PID(20, "win:PID"),
    TID(21, "win:TID"),
    PORT(22, "win:Port"),
    IPV4(23, "win:IPv4"),
    IPV6(24, "win:IPv6"),
    SOCKET_ADDRESS(25, "win:SocketAddress"),
    CIM_DATETIME(26, "win:CIMDateTime"),
    ETW_TIME(27, "win:ETWTIME"),
    XML(28, "win:Xml"),
    ERROR_CODE(29, "win:ErrorCode"),
    WIN32_ERROR(30, "win:Win32Error"),
    NTSTATUS(31, "win:NTSTATUS"),
    HRESULT(32, "win:HResult"),
    CULTURE_INSENSITIVE_DATETIME(33, "win:DateTimeCultureInsensitive"),
    JSON(34, "win:Json"),
    UTF8(35, "win:Utf8"),
    PKCS7_WITH_TYPE_INFO(36, "win:Pkcs7WithTypeInfo"),
    CODE_POINTER(37, "win:CodePointer"),
    DATETIME_UTC(38, "win:DateTimeUtc"),
    REDUCED_STRING(300, "win:ReducedString"),
    NO_PRINT(301, "win:NoPrint");

    private static final Map<String, OutType> BY_NAME = new HashMap<>();
    private static final Map<Integer, OutType> BY_CODE = new HashMap<>();

    static {
        for (OutType t : values()) {
            BY_NAME.put(t.manifestName.toLowerCase(Locale.ROOT), t);
            BY_CODE.put(t.code, t);
        }
        BY_NAME.put("xs:datetime", DATETIME);
        BY_NAME.put("win:hexint8", HEXINT8);
        BY_NAME.put("win:ipv4", IPV4);
        BY_NAME.put("win:ipv6", IPV6);
        BY_NAME.put("win:utf8", UTF8);
        BY_NAME.put("win:json", JSON);
    }

    private final int code;
    private final String manifestName;

    OutType(int code, String manifestName) {
        this.code = code;
        this.manifestName = manifestName;
    }

    /** The TDH number. */
    public int code() {
        return code;
    }

    /** The manifest QName. */
    public String manifestName() {
        return manifestName;
    }

    /** Whether renderers should print integers of this out type in hexadecimal. */
    public boolean isHex() {
        return switch (this) {
            case HEXINT8, HEXINT16, HEXINT32, HEXINT64, HEX_BINARY, CODE_POINTER, NTSTATUS, HRESULT, ERROR_CODE -> true;
            default -> false;
        };
    }

    /** The out type a manifest names (case-insensitive), or {@code null}. */
    public static OutType fromManifestName(String name) {
        return name == null ? null : BY_NAME.get(name.trim().toLowerCase(Locale.ROOT));
    }

    /** The out type with TDH number {@code code}, or {@code null}. */
    public static OutType fromCode(int code) {
        return BY_CODE.get(code);
    }
}
