package org.etw4j.nativebindings.layout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * One C bit-field of a Windows structure: the storage word that holds it (its byte offset in the structure and
 * its size) and the bits it occupies in that word, counted from the least significant bit (Windows x64 is
 * little-endian and allocates bit-fields from the low bit up).
 *
 * <p>Immutable value, thread-safe. {@link #get} and {@link #set} read or write the field in a structure held by
 * the caller's segment; they allocate nothing, so the caller's own contract on that segment (thread, lifetime)
 * is the only one that applies. jextract leaves bit-fields out of its layouts (as padding), which is why these
 * are written by hand; the module's ABI test checks every one against x86_64-w64-mingw32-gcc.
 *
 * @param name       the C member name
 * @param wordOffset byte offset of the storage word in the structure
 * @param wordSize   size in bytes of the storage word (1, 2, 4 or 8)
 * @param bitOffset  position of the field's lowest bit in the word
 * @param bitWidth   number of bits of the field (1 to 63)
 */
public record BitField(String name, long wordOffset, int wordSize, int bitOffset, int bitWidth) {

    /** Checks that the field fits in its word. */
    public BitField {
        Objects.requireNonNull(name, "name");
        if (wordOffset < 0) {
            throw new IllegalArgumentException("negative word offset: " + wordOffset);
        }
        if (wordSize != 1 && wordSize != 2 && wordSize != 4 && wordSize != 8) {
            throw new IllegalArgumentException("word size must be 1, 2, 4 or 8 bytes: " + wordSize);
        }
        if (bitWidth < 1 || bitWidth > 63 || bitOffset < 0 || bitOffset + bitWidth > wordSize * 8) {
            throw new IllegalArgumentException(
                    "bits " + bitOffset + "+" + bitWidth + " do not fit a " + wordSize + "-byte word");
        }
    }

    /** Mask of the field's bits, in place in the word. */
    public long mask() {
        return ((1L << bitWidth) - 1) << bitOffset;
    }

    /** Reads the field (unsigned) from the structure at the start of {@code struct}. */
    public long get(MemorySegment struct) {
        return (readWord(struct) & mask()) >>> bitOffset;
    }

    /**
     * Writes the field into the structure at the start of {@code struct}, keeping the other bits of its word.
     *
     * @throws IllegalArgumentException if {@code value} does not fit in {@link #bitWidth} bits
     */
    public void set(MemorySegment struct, long value) {
        if (value < 0 || value >>> bitWidth != 0) {
            throw new IllegalArgumentException(name + " holds " + bitWidth + " bits; cannot store " + value);
        }
        long word = (readWord(struct) & ~mask()) | (value << bitOffset);
        switch (wordSize) {
            case 1 -> struct.set(ValueLayout.JAVA_BYTE, wordOffset, (byte) word);
            case 2 -> struct.set(ValueLayout.JAVA_SHORT_UNALIGNED, wordOffset, (short) word);
            case 4 -> struct.set(ValueLayout.JAVA_INT_UNALIGNED, wordOffset, (int) word);
            default -> struct.set(ValueLayout.JAVA_LONG_UNALIGNED, wordOffset, word);
        }
    }

    private long readWord(MemorySegment struct) {
        return switch (wordSize) {
            case 1 -> Byte.toUnsignedLong(struct.get(ValueLayout.JAVA_BYTE, wordOffset));
            case 2 -> Short.toUnsignedLong(struct.get(ValueLayout.JAVA_SHORT_UNALIGNED, wordOffset));
            case 4 -> Integer.toUnsignedLong(struct.get(ValueLayout.JAVA_INT_UNALIGNED, wordOffset));
            default -> struct.get(ValueLayout.JAVA_LONG_UNALIGNED, wordOffset);
        };
    }
}
