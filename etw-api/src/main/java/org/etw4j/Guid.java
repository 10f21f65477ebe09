package org.etw4j;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.UUID;

/**
 * A Windows GUID, as ETW uses it for provider ids, session ids, activity ids and event-class ids.
 *
 * <p>Immutable value; safe to share between threads; no resources to close. The two longs hold the
 * GUID in its canonical text order ({@code 8-4-4-4-12} hex digits), exactly like {@link UUID}. In
 * memory and in .etl files Windows stores the first three groups little-endian ({@code Data1} u32,
 * {@code Data2} u16, {@code Data3} u16) followed by the eight bytes of {@code Data4} in order;
 * {@link #writeTo(byte[], int)} and {@link #readFrom(byte[], int)} convert between the two.
 *
 * @param mostSignificantBits  the first 16 hex digits of the canonical form
 * @param leastSignificantBits the last 16 hex digits of the canonical form
 */
public record Guid(long mostSignificantBits, long leastSignificantBits) implements Comparable<Guid> {

    /** GUID_NULL: all zero; "no activity" and "no source" in ETW. */
    public static final Guid NULL = new Guid(0L, 0L);

    /** Size of a GUID in Windows memory and on disk. */
    public static final int BYTES = 16;

    /** Converts a {@link UUID}, keeping the canonical text form. */
    public static Guid of(UUID uuid) {
        return new Guid(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits());
    }

    /**
     * Parses {@code xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}, with or without surrounding braces, any case.
     *
     * @throws IllegalArgumentException if the text is not a GUID
     */
    public static Guid parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("guid text must not be null");
        }
        String s = text.trim();
        if (s.length() == 38 && s.charAt(0) == '{' && s.charAt(37) == '}') {
            s = s.substring(1, 37);
        }
        if (s.length() != 36 || s.charAt(8) != '-' || s.charAt(13) != '-' || s.charAt(18) != '-' || s.charAt(23) != '-') {
            throw new IllegalArgumentException("not a GUID: '" + text + "'");
        }
        try {
            long msb = (Long.parseUnsignedLong(s.substring(0, 8), 16) << 32)
                    | (Long.parseUnsignedLong(s.substring(9, 13), 16) << 16)
                    | Long.parseUnsignedLong(s.substring(14, 18), 16);
            long lsb = (Long.parseUnsignedLong(s.substring(19, 23), 16) << 48)
                    | Long.parseUnsignedLong(s.substring(24, 36), 16);
            return new Guid(msb, lsb);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a GUID: '" + text + "'", e);
        }
    }

    /** Reads a GUID stored in Windows layout at {@code offset}. */
    public static Guid readFrom(byte[] src, int offset) {
        ByteBuffer bb = ByteBuffer.wrap(src).order(ByteOrder.LITTLE_ENDIAN);
        return readFrom(bb, offset);
    }

    /** Reads a GUID stored in Windows layout at absolute index {@code offset} of {@code src}. */
    public static Guid readFrom(ByteBuffer src, int offset) {
        return new Guid(windowsMsb(src, offset), windowsLsb(src, offset));
    }

    /**
     * The canonical-order high half of a GUID stored in Windows layout, without creating a {@code Guid}
     * (readers compare ids on hot paths without allocating).
     */
    public static long windowsMsb(ByteBuffer src, int offset) {
        long data1 = getIntLe(src, offset) & 0xFFFF_FFFFL;
        long data2 = getShortLe(src, offset + 4) & 0xFFFFL;
        long data3 = getShortLe(src, offset + 6) & 0xFFFFL;
        return (data1 << 32) | (data2 << 16) | data3;
    }

    /** The canonical-order low half ({@code Data4}, big-endian) of a GUID stored in Windows layout. */
    public static long windowsLsb(ByteBuffer src, int offset) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (src.get(offset + 8 + i) & 0xFF);
        }
        return v;
    }

    /** Writes this GUID in Windows layout at {@code offset}; returns {@code offset + 16}. */
    public int writeTo(byte[] dst, int offset) {
        int data1 = (int) (mostSignificantBits >>> 32);
        dst[offset] = (byte) data1;
        dst[offset + 1] = (byte) (data1 >>> 8);
        dst[offset + 2] = (byte) (data1 >>> 16);
        dst[offset + 3] = (byte) (data1 >>> 24);
        dst[offset + 4] = (byte) (mostSignificantBits >>> 16);
        dst[offset + 5] = (byte) (mostSignificantBits >>> 24);
        dst[offset + 6] = (byte) mostSignificantBits;
        dst[offset + 7] = (byte) (mostSignificantBits >>> 8);
        for (int i = 0; i < 8; i++) {
            dst[offset + 8 + i] = (byte) (leastSignificantBits >>> (56 - 8 * i));
        }
        return offset + BYTES;
    }

    /** Writes this GUID in Windows layout at absolute index {@code offset} of {@code dst}. */
    public void writeTo(ByteBuffer dst, int offset) {
        int data1 = (int) (mostSignificantBits >>> 32);
        dst.put(offset, (byte) data1);
        dst.put(offset + 1, (byte) (data1 >>> 8));
        dst.put(offset + 2, (byte) (data1 >>> 16));
        dst.put(offset + 3, (byte) (data1 >>> 24));
        dst.put(offset + 4, (byte) (mostSignificantBits >>> 16));
        dst.put(offset + 5, (byte) (mostSignificantBits >>> 24));
        dst.put(offset + 6, (byte) mostSignificantBits);
        dst.put(offset + 7, (byte) (mostSignificantBits >>> 8));
        for (int i = 0; i < 8; i++) {
            dst.put(offset + 8 + i, (byte) (leastSignificantBits >>> (56 - 8 * i)));
        }
    }

    /** The 16 bytes of this GUID in Windows layout. */
    public byte[] toWindowsBytes() {
        byte[] b = new byte[BYTES];
        writeTo(b, 0);
        return b;
    }

    /** Whether this is GUID_NULL. */
    public boolean isNull() {
        return mostSignificantBits == 0 && leastSignificantBits == 0;
    }

    /** The same value as a {@link UUID}. */
    public UUID toUuid() {
        return new UUID(mostSignificantBits, leastSignificantBits);
    }

    /**
     * Equal when both halves are: written out because the record's generated {@code equals} (an
     * {@code ObjectMethods} method-handle chain) did not inline on the read path, where provider ids are compared
     * per event (11 % of {@code etw dump}'s CPU time in a JFR profile, PERFORMANCE.md).
     */
    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof Guid g && g.mostSignificantBits == mostSignificantBits
                && g.leastSignificantBits == leastSignificantBits;
    }

    /** The record's own hash ({@code 31 * hash(msb) + hash(lsb)}), written out for the same reason as equals. */
    @Override
    public int hashCode() {
        return 31 * Long.hashCode(mostSignificantBits) + Long.hashCode(leastSignificantBits);
    }

    /** Lower-case canonical form without braces, e.g. {@code b3864c38-4273-58c5-545b-8b3608343471}. */
    @Override
    public String toString() {
        return toUuid().toString().toLowerCase(Locale.ROOT);
    }

    /** Upper-case form in braces, as Windows tools print it. */
    public String toBracedString() {
        return "{" + toString().toUpperCase(Locale.ROOT) + "}";
    }

    @Override
    public int compareTo(Guid o) {
        int c = Long.compareUnsigned(mostSignificantBits, o.mostSignificantBits);
        return c != 0 ? c : Long.compareUnsigned(leastSignificantBits, o.leastSignificantBits);
    }

    private static int getIntLe(ByteBuffer b, int i) {
        return (b.get(i) & 0xFF) | (b.get(i + 1) & 0xFF) << 8 | (b.get(i + 2) & 0xFF) << 16 | (b.get(i + 3) & 0xFF) << 24;
    }

    private static int getShortLe(ByteBuffer b, int i) {
        return (b.get(i) & 0xFF) | (b.get(i + 1) & 0xFF) << 8;
    }
}
