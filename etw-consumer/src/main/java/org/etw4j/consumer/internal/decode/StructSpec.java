package org.etw4j.consumer.internal.decode;

import java.util.List;
import java.util.Objects;

/**
 * A struct item of a template ({@code <struct name count>}): its member sequence is decoded once, or
 * {@code count} times for an array of structs.
 * Immutable value; thread-safe.
 *
 * @param name    the struct field name
 * @param members the members, in wire order
 * @param count   the element count, {@link SizeRule#none()} for a single struct
 */
record StructSpec(String name, List<FieldSpec> members, SizeRule count) implements FieldSpec {

    public StructSpec {
        Objects.requireNonNull(name, "name");
        members = List.copyOf(members);
        count = count == null ? SizeRule.none() : count;
    }
}
