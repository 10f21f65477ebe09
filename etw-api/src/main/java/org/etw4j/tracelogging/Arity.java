package org.etw4j.tracelogging;

/**
 * How many values a TraceLogging field holds: bits 5-6 of its InMeta byte.
 *
 * <p>Enum constants: immutable, thread-safe. Source: TraceLoggingProvider.h "How to encode metadata" and
 * "Encoding data"; TraceLoggingDynamic.h ({@code InMetaScalar/Ccount/Vcount/Custom}).
 */
public enum Arity {
    /** 0x00: one value. */
    SCALAR(0x00),
    /** 0x20 (Ccount): a fixed number of values, given in the metadata; no count in the payload. */
    FIXED_ARRAY(0x20),
    /** 0x40 (Vcount): a u16 element count in the payload, then the elements. */
    VARIABLE_ARRAY(0x40),
    /** 0x60: custom schema carried in the metadata; rare, never written here and not decodable. */
    CUSTOM(0x60);

    /** Mask of the arity bits in an InMeta byte. */
    public static final int MASK = 0x60;

    private final int flag;

    Arity(int flag) {
        this.flag = flag;
    }

    /** The InMeta bits. */
    public int flag() {
        return flag;
    }

    /** The arity whose bits are set in {@code inMeta}. */
    public static Arity fromInMeta(int inMeta) {
        return values()[(inMeta & MASK) >>> 5];
    }

    /** Whether this is one of the two array forms. */
    public boolean isArray() {
        return this == FIXED_ARRAY || this == VARIABLE_ARRAY;
    }
}
