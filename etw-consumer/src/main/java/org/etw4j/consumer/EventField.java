package org.etw4j.consumer;

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
 * <p>Labels ({@link #labelKind()} says which): a value map's name for the value ({@link LabelKind#NAME}); the
 * names of the set bits of a flag set ({@link LabelKind#FLAGS}), joined by {@code |} in ascending bit order, the
 * bits no name covers last as one {@code 0x...} item, a zero value as the map's name for 0 (kernel flag sets:
 * {@code None}) or {@code 0} ({@link #flagNames()} gives the list); or, for a file name the trace wrote as an NT
 * device path, the drive-letter path the trace's own volume mapping gives ({@link LabelKind#DOS_PATH}, the value
 * keeps the NT path). A file name in NT form for which the trace recorded no mapping has no label and
 * {@link LabelKind#UNMAPPED_NT_PATH}. Renderers print the label instead of the value (text, CSV) or beside it
 * (JSON).
 *
 * @param name    field name
 * @param inType  wire type ({@link InType#STRUCT} for structs)
 * @param outType rendering hint
 * @param value   typed value, see above
 * @param label   value-map / bit-map label, or {@code null}
 * @param error   why the field could not be decoded, or {@code null}
 * @param raw     the field's bytes when {@code error} is set (possibly empty), else {@code null}
 * @param labelKind what the label is ({@code null}: {@link LabelKind#NAME} when there is a label, else
 *                  {@link LabelKind#NONE})
 */
public record EventField(String name, InType inType, OutType outType, Object value, String label, String error,
                         byte[] raw, LabelKind labelKind) {

    /** What a field's {@link #label()} is; enum constants are immutable and thread-safe. */
    public enum LabelKind {
        /** No label. */
        NONE,
        /** The name a value map gives the value. */
        NAME,
        /** The names of the set bits of a flag set (bit map), joined by {@code |}. */
        FLAGS,
        /** The drive-letter form of the NT device path in the value, from the trace's volume mapping. */
        DOS_PATH,
        /** No label: the value is an NT device path and the trace recorded no volume mapping for it. */
        UNMAPPED_NT_PATH
    }

    public EventField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(inType, "inType");
        outType = outType == null ? OutType.NULL : outType;
        if (labelKind == null) {
            labelKind = label != null ? LabelKind.NAME : LabelKind.NONE;
        }
        raw = raw == null ? null : raw.clone();
        if (value instanceof byte[] b) {
            value = b.clone();
        }
    }

    /** A successfully decoded field; a label is a value map's name ({@link LabelKind#NAME}). */
    public static EventField of(String name, InType inType, OutType outType, Object value, String label) {
        return new EventField(name, inType, outType, value, label, null, null, null);
    }

    /** A successfully decoded field with a label of the given kind. */
    public static EventField of(String name, InType inType, OutType outType, Object value, String label,
                                LabelKind labelKind) {
        return new EventField(name, inType, outType, value, label, null, null, labelKind);
    }

    /** A field that could not be decoded. */
    public static EventField failed(String name, InType inType, OutType outType, Object partialValue, String error,
                                    byte[] raw) {
        return new EventField(name, inType, outType, partialValue, null, Objects.requireNonNull(error, "error"),
                raw == null ? new byte[0] : raw, LabelKind.NONE);
    }

    /** This field with {@code label} of kind {@code kind} instead of its own. */
    public EventField withLabel(String label, LabelKind kind) {
        return new EventField(name, inType, outType, value, label, error, raw, kind);
    }

    /**
     * The names of a flag set's set bits in ascending bit order (bits no name covers as one {@code 0x...} item
     * at the end; a zero value as its one name), or an empty list when this field is not a flag set.
     */
    public List<String> flagNames() {
        return labelKind == LabelKind.FLAGS && label != null ? List.of(label.split("\\|")) : List.of();
    }

    /**
     * The NT device path the trace wrote when this field is a file name in that form ({@link LabelKind#DOS_PATH}
     * or {@link LabelKind#UNMAPPED_NT_PATH}), else {@code null}.
     */
    public String ntPath() {
        return (labelKind == LabelKind.DOS_PATH || labelKind == LabelKind.UNMAPPED_NT_PATH)
                && value instanceof String s ? s : null;
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
                && Objects.equals(error, f.error) && Arrays.equals(raw, f.raw) && labelKind == f.labelKind;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, inType, outType, label, error, labelKind)
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
