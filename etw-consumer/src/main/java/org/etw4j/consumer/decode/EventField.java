package org.etw4j.consumer.decode;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One decoded field of an event: its name, its typed value, the label a value/bit map gives it, and, when the
 * bytes could not be decoded as the schema says, an error with the raw bytes.
 * Immutable value; thread-safe (byte arrays are copied in and out). Value types by {@link InType}:
 * <ul>
 *   <li>INT8, UINT8, INT16, UINT16, INT32, UNICODE_CHAR, ANSI_CHAR: {@link Integer} (unsigned types
 *       zero-extended);</li>
 *   <li>UINT32, HEXINT32: {@link Long}, zero-extended; INT64, UINT64, HEXINT64, POINTER, SIZET: {@link Long}
 *       with the raw 64 bits (use {@link Long#toUnsignedString(long)} for the unsigned ones);</li>
 *   <li>FLOAT, DOUBLE: {@link Double}; BOOLEAN, and any integer type whose out type is
 *       {@link OutType#BOOLEAN}: {@link Boolean}; GUID: {@link org.etw4j.Guid};</li>
 *   <li>FILETIME, SYSTEMTIME: {@link java.time.Instant} (SYSTEMTIME read as UTC);</li>
 *   <li>strings and SIDs: {@link String}; BINARY and the counted binary types: {@code byte[]};</li>
 *   <li>arrays ({@code count}): {@link List} of the element values; structs: {@link StructValue}, arrays of
 *       structs a {@link List} of them;</li>
 *   <li>out types that change the meaning of the bytes: a u16 {@link OutType#PORT} (network byte order) is the
 *       port {@link Integer}; a u32 {@link OutType#IPV4} and 16 bytes {@link OutType#IPV6} are address text
 *       ({@link String}).</li>
 * </ul>
 * A field with an {@link #error()} has a {@code null} value (or the part that could be read, for a string
 * whose terminator is missing) and its bytes in {@link #raw()}.
 *
 * @param name    field name
 * @param inType  wire type ({@link InType#STRUCT} for structs)
 * @param outType rendering hint
 * @param value   typed value, see above
 * @param label   value-map / bit-map label, or {@code null}
 * @param error   why the field could not be decoded, or {@code null}
 * @param raw     the field's bytes when {@code error} is set (possibly empty), else {@code null}
 */
public record EventField(String name, InType inType, OutType outType, Object value, String label, String error,
                         byte[] raw) {

    public EventField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(inType, "inType");
        outType = outType == null ? OutType.NULL : outType;
        raw = raw == null ? null : raw.clone();
        if (value instanceof byte[] b) {
            value = b.clone();
        }
    }

    /** A successfully decoded field. */
    public static EventField of(String name, InType inType, OutType outType, Object value, String label) {
        return new EventField(name, inType, outType, value, label, null, null);
    }

    /** A field that could not be decoded. */
    public static EventField failed(String name, InType inType, OutType outType, Object partialValue, String error,
                                    byte[] raw) {
        return new EventField(name, inType, outType, partialValue, null, Objects.requireNonNull(error, "error"),
                raw == null ? new byte[0] : raw);
    }

    /** Whether decoding this field (or, for structs and arrays, any part of it) failed. */
    public boolean hasError() {
        if (error != null) {
            return true;
        }
        if (value instanceof StructValue s) {
            return s.fields().stream().anyMatch(EventField::hasError);
        }
        if (value instanceof List<?> l) {
            for (Object o : l) {
                if (o instanceof StructValue s && s.fields().stream().anyMatch(EventField::hasError)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The value as a long when it is an integer of any width (or a Boolean as 0/1), else {@code null}. */
    public Long asLong() {
        if (value instanceof Integer i) {
            return i.longValue();
        }
        if (value instanceof Long l) {
            return l;
        }
        if (value instanceof Boolean b) {
            return b ? 1L : 0L;
        }
        return null;
    }

    @Override
    public Object value() {
        return value instanceof byte[] b ? b.clone() : value;
    }

    @Override
    public byte[] raw() {
        return raw == null ? null : raw.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EventField f && name.equals(f.name) && inType == f.inType && outType == f.outType
                && Objects.deepEquals(value, f.value) && Objects.equals(label, f.label)
                && Objects.equals(error, f.error) && Arrays.equals(raw, f.raw);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, inType, outType, label, error)
                + 31 * (value instanceof byte[] b ? Arrays.hashCode(b) : Objects.hashCode(value))
                + Arrays.hashCode(raw);
    }

    @Override
    public String toString() {
        String v = value instanceof byte[] b ? HexFormatHolder.HEX.formatHex(b) : String.valueOf(value);
        return name + "=" + v + (label != null ? " (" + label + ")" : "") + (error != null ? " !" + error : "");
    }

    private static final class HexFormatHolder {
        static final java.util.HexFormat HEX = java.util.HexFormat.of();
    }
}
