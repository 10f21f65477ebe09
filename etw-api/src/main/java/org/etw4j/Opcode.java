package org.etw4j;

/**
 * The opcodes winmeta.h defines globally (MS Learn, EVENT_DESCRIPTOR structure, member "Opcode"; etw-formats.md section 5).
 *
 * <p>Enum constants: immutable and thread-safe. An opcode is an unsigned byte; 10-239 may carry user-defined
 * semantics and are accepted as raw {@code int} by every API. {@link #START} and {@link #STOP} bracket an
 * activity: the start event carries the new activity id and the parent as related activity id, the stop event
 * the same activity id.
 */
public enum Opcode {
    INFO(0),
    START(1),
    STOP(2),
    DC_START(3),
    DC_STOP(4),
    EXTENSION(5),
    REPLY(6),
    RESUME(7),
    SUSPEND(8),
    SEND(9),
    RECEIVE(240);

    private final int value;

    Opcode(int value) {
        this.value = value;
    }

    /** The opcode byte. */
    public int value() {
        return value;
    }

    /** The named opcode for {@code value}, or {@code null} when it has no winmeta name. */
    public static Opcode named(int value) {
        for (Opcode o : values()) {
            if (o.value == value) {
                return o;
            }
        }
        return null;
    }
}
