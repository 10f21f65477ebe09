package org.etw4j.tracelogging;

import java.util.Objects;

/**
 * One field declaration of a TraceLogging event, as it appears in the event's metadata blob: the flat form, in
 * which a struct is a field with {@link InType#STRUCT} whose {@link #structMemberCount()} following logical
 * fields are its members.
 *
 * <p>Immutable value; thread-safe. Produced by {@link TraceLoggingEvent.Builder} and by
 * {@link TraceLoggingSchema#parse}; validation of names and limits happens there (this record checks only what
 * every instance must satisfy).
 *
 * @param name              field name (UTF-8 in the metadata)
 * @param inType            wire type; {@link InType#STRUCT} for a struct
 * @param outType           format hint; {@link OutType#DEFAULT} for structs, and for OutType codes this library
 *                          does not know (the raw metadata keeps the code)
 * @param tags              28-bit field tags, 0 for none
 * @param arity             scalar, fixed or variable array (or custom, when parsed)
 * @param fixedCount        element count of a {@link Arity#FIXED_ARRAY}, otherwise 0
 * @param structMemberCount 1-127 for a struct, otherwise 0
 */
public record TraceLoggingField(String name, InType inType, OutType outType, int tags, Arity arity, int fixedCount,
                                int structMemberCount) {

    /** Checks the invariants every field has regardless of where it came from. */
    public TraceLoggingField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(inType, "inType");
        Objects.requireNonNull(outType, "outType");
        Objects.requireNonNull(arity, "arity");
        if (arity != Arity.FIXED_ARRAY && fixedCount != 0) {
            throw new IllegalArgumentException("field '" + name + "': fixedCount only applies to fixed arrays");
        }
        if ((inType == InType.STRUCT) != (structMemberCount != 0)) {
            throw new IllegalArgumentException("field '" + name + "': structMemberCount must be 1-127 exactly for "
                    + "structs, got " + structMemberCount + " for " + inType);
        }
    }

    /** Whether this field is a struct (its value is its members' values). */
    public boolean isStruct() {
        return inType == InType.STRUCT;
    }
}
