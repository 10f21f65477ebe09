package org.etw4j.nativebindings.layout;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * {@code EVENT_HEADER_EXTENDED_DATA_ITEM} (evntcons.h): one item of {@code EVENT_RECORD.ExtendedData}.
 * Written by hand because its {@code Linkage:1} / {@code Reserved2:15} bit-fields are beyond jextract.
 *
 * <p>Stateless and thread-safe: static accessors over a segment the caller owns. Inside an event callback
 * the items live in ETW's memory and are valid only during the callback; copy what must outlive it.
 *
 * <pre>{@code
 * typedef struct _EVENT_HEADER_EXTENDED_DATA_ITEM {
 *   USHORT Reserved1;
 *   USHORT ExtType;            // EVENT_HEADER_EXT_TYPE_*
 *   struct { USHORT Linkage : 1; USHORT Reserved2 : 15; };
 *   USHORT DataSize;
 *   ULONGLONG DataPtr;
 * } EVENT_HEADER_EXTENDED_DATA_ITEM;
 * }</pre>
 */
public final class EventHeaderExtendedDataItem {

    /** Name, in {@link #LAYOUT}, of the 16-bit word holding the {@code Linkage} and {@code Reserved2} bits. */
    public static final String BIT_FIELD_WORD = "LinkageAndReserved2";

    /** Windows x64 layout (16 bytes, 8-byte aligned). */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            ValueLayout.JAVA_SHORT.withName("Reserved1"),
            ValueLayout.JAVA_SHORT.withName("ExtType"),
            ValueLayout.JAVA_SHORT.withName(BIT_FIELD_WORD),
            ValueLayout.JAVA_SHORT.withName("DataSize"),
            ValueLayout.JAVA_LONG.withName("DataPtr"))
            .withName("EVENT_HEADER_EXTENDED_DATA_ITEM");

    /** {@code Linkage:1}: set when another item of the same type follows (documented as reserved). */
    public static final BitField LINKAGE = new BitField("Linkage", wordOffset(), 2, 0, 1);
    /** {@code Reserved2:15}. */
    public static final BitField RESERVED2 = new BitField("Reserved2", wordOffset(), 2, 1, 15);

    private static final long EXT_TYPE = offset("ExtType");
    private static final long DATA_SIZE = offset("DataSize");
    private static final long DATA_PTR = offset("DataPtr");

    private EventHeaderExtendedDataItem() {
    }

    /** The item at {@code index} of the array {@code items} (as {@code EVENT_RECORD.ExtendedData} points to). */
    public static MemorySegment at(MemorySegment items, int index) {
        return items.asSlice(LAYOUT.byteSize() * index, LAYOUT);
    }

    /** {@code ExtType}: an {@code EVENT_HEADER_EXT_TYPE_*} value (unsigned 16 bits). */
    public static int extType(MemorySegment item) {
        return Short.toUnsignedInt(item.get(ValueLayout.JAVA_SHORT, EXT_TYPE));
    }

    /** {@code Linkage} bit. */
    public static boolean linkage(MemorySegment item) {
        return LINKAGE.get(item) != 0;
    }

    /** {@code DataSize}: bytes at {@link #dataPtr} (unsigned 16 bits). */
    public static int dataSize(MemorySegment item) {
        return Short.toUnsignedInt(item.get(ValueLayout.JAVA_SHORT, DATA_SIZE));
    }

    /** {@code DataPtr}: address of the item's data (a 64-bit integer even for 32-bit providers). */
    public static long dataPtr(MemorySegment item) {
        return item.get(ValueLayout.JAVA_LONG, DATA_PTR);
    }

    /**
     * The item's data as a segment of {@link #dataSize} bytes. It aliases ETW's memory: valid only while the
     * memory behind {@code DataPtr} is (during the event callback).
     */
    public static MemorySegment data(MemorySegment item) {
        return MemorySegment.ofAddress(dataPtr(item)).reinterpret(dataSize(item));
    }

    private static long wordOffset() {
        return offset(BIT_FIELD_WORD);
    }

    private static long offset(String field) {
        return LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement(field));
    }
}
