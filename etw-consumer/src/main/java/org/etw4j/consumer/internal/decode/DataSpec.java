package org.etw4j.consumer.internal.decode;

import java.util.Objects;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;

/**
 * A data field of a template ({@code <data name inType outType map length count/>} in a manifest, or one
 * property of a classic MOF class).
 * Immutable value; thread-safe.
 *
 * @param name    the field name
 * @param inType  the wire type
 * @param outType the rendering hint; {@link OutType#NULL} when the schema gives none (the in type's default)
 * @param mapName the value map or bit map naming the values, or {@code null}
 * @param length  string length in characters / binary length in bytes, when the schema gives one
 * @param count   array element count, when the field is an array
 * @param optional whether the field may be absent because the event ends before it (classic kernel classes
 *                 that gained a trailing field within one version, e.g. Thread_V3's thread name on Windows 10);
 *                 an absent optional field is left out of the result rather than reported as an error
 */
record DataSpec(String name, InType inType, OutType outType, String mapName, SizeRule length, SizeRule count,
                       boolean optional) implements FieldSpec {

    /** A required field. */
    public DataSpec(String name, InType inType, OutType outType, String mapName, SizeRule length, SizeRule count) {
        this(name, inType, outType, mapName, length, count, false);
    }

    public DataSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(inType, "inType");
        outType = outType == null ? OutType.NULL : outType;
        length = length == null ? SizeRule.none() : length;
        count = count == null ? SizeRule.none() : count;
    }

    /** The same field, marked optional at the end of the event. */
    public DataSpec asOptional() {
        return new DataSpec(name, inType, outType, mapName, length, count, true);
    }

    /** A scalar field without map, length or count. */
    public static DataSpec of(String name, InType inType) {
        return new DataSpec(name, inType, OutType.NULL, null, SizeRule.none(), SizeRule.none());
    }

    /** A scalar field with a rendering hint. */
    public static DataSpec of(String name, InType inType, OutType outType) {
        return new DataSpec(name, inType, outType, null, SizeRule.none(), SizeRule.none());
    }
}
