package org.etw4j.nativebindings.windows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.etw4j.Guid;

/**
 * Reads and writes {@code GUID}s in native memory in the Windows layout (guiddef.h: u32 Data1, u16 Data2, u16
 * Data3 little-endian, then the 8 bytes of Data4 in order, i.e. the low half of the canonical form big-endian).
 *
 * <p>Stateless and thread-safe; allocates nothing except the {@link Guid} that {@link #read} returns (write paths
 * use {@link #write} and the primitive readers).
 */
final class NativeGuids {
    static final long BYTES = Guid.BYTES;

    private static final ValueLayout.OfInt DATA1 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Data1, Data2 and Data3 together: the first 8 bytes as one little-endian long. */
    private static final ValueLayout.OfLong DATA123 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort DATA23 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong DATA4 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private NativeGuids() {
    }

    /** Writes {@code guid} (null: GUID_NULL) at {@code offset}. */
    static void write(MemorySegment segment, long offset, Guid guid) {
        long msb = guid == null ? 0 : guid.mostSignificantBits();
        long lsb = guid == null ? 0 : guid.leastSignificantBits();
        // two stores instead of four (the write path writes an activity id per event): Data1 in the low 32 bits,
        // Data2 and Data3 above it, all little-endian; Data4 big-endian as before
        segment.set(DATA123, offset, msb >>> 32 | (msb >>> 16 & 0xFFFFL) << 32 | (msb & 0xFFFFL) << 48);
        segment.set(DATA4, offset + 8, lsb);
    }

    /** The canonical high half of the GUID at {@code offset}. */
    static long msb(MemorySegment segment, long offset) {
        long data1 = segment.get(DATA1, offset) & 0xFFFF_FFFFL;
        long data2 = segment.get(DATA23, offset + 4) & 0xFFFFL;
        long data3 = segment.get(DATA23, offset + 6) & 0xFFFFL;
        return (data1 << 32) | (data2 << 16) | data3;
    }

    /** The canonical low half of the GUID at {@code offset}. */
    static long lsb(MemorySegment segment, long offset) {
        return segment.get(DATA4, offset + 8);
    }

    /** The GUID at {@code offset}. */
    static Guid read(MemorySegment segment, long offset) {
        return new Guid(msb(segment, offset), lsb(segment, offset));
    }

    /** The GUID {@code pointer} points to, or {@code ifNull} for a NULL pointer. */
    static Guid readPointer(MemorySegment pointer, Guid ifNull) {
        if (pointer == null || pointer.address() == 0) {
            return ifNull;
        }
        return read(pointer.reinterpret(BYTES), 0);
    }
}
