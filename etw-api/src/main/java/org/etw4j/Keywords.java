package org.etw4j;

/**
 * A 64-bit keyword mask: the categories an event belongs to, or the categories a session asks for.
 *
 * <p>Immutable value; thread-safe. Per MS Learn (EVENT_DESCRIPTOR structure), the top 16 bits ({@link #MICROSOFT_MASK}) are defined by
 * Microsoft and the low 48 bits ({@link #PROVIDER_MASK}) by the provider. Keyword 0 on an event means "no
 * category" and normally bypasses keyword filtering. Hot paths take the raw {@code long}; this record is for
 * readable construction and printing.
 *
 * @param mask the 64-bit mask
 */
public record Keywords(long mask) {

    /** Bits reserved to Microsoft (0xFFFF000000000000). */
    public static final long MICROSOFT_MASK = 0xFFFF_0000_0000_0000L;
    /** Bits the provider defines (0x0000FFFFFFFFFFFF). */
    public static final long PROVIDER_MASK = 0x0000_FFFF_FFFF_FFFFL;
    /** No keyword. */
    public static final Keywords NONE = new Keywords(0L);
    /** Every keyword: what a session that wants everything passes as MatchAnyKeyword. */
    public static final Keywords ALL = new Keywords(-1L);

    /** A mask of the given provider-defined bit numbers (0-47). */
    public static Keywords ofBits(int... bits) {
        long m = 0;
        for (int b : bits) {
            if (b < 0 || b > 47) {
                throw new IllegalArgumentException("provider keyword bit must be 0-47 (the top 16 bits are Microsoft's), got " + b);
            }
            m |= 1L << b;
        }
        return new Keywords(m);
    }

    /** This mask or {@code other}. */
    public Keywords or(Keywords other) {
        return new Keywords(mask | other.mask);
    }

    /** Whether any of the Microsoft-reserved top 16 bits are set. */
    public boolean usesMicrosoftBits() {
        return (mask & MICROSOFT_MASK) != 0;
    }

    @Override
    public String toString() {
        return String.format("0x%016X", mask);
    }
}
