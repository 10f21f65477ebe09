package org.etw4j.consumer.internal.decode;

/**
 * One item of an event template: a data field or a struct of fields.
 * Implementations are immutable values, thread-safe and shareable between decoders.
 */
sealed interface FieldSpec permits DataSpec, StructSpec {

    /** The field's name as the schema gives it. */
    String name();

    /** How many times the item repeats; {@link SizeRule#none()} for a scalar. */
    SizeRule count();
}
