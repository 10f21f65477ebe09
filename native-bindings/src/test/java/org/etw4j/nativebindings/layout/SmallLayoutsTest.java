package org.etw4j.nativebindings.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import org.etw4j.nativebindings.generated._EVENT_DATA_DESCRIPTOR;
import org.etw4j.nativebindings.generated._EVENT_DESCRIPTOR;
import org.etw4j.nativebindings.generated._EVENT_PROPERTY_INFO;
import org.junit.jupiter.api.Test;

/** Runtime behaviour of the hand-written helpers (their layouts are checked against Windows in WindowsAbiTest). */
class SmallLayoutsTest {

    @Test
    void eventFilterEventIdBytes() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment f = EventFilterEventId.allocate(arena, true, 1, 0x1234, 0xFFFF);
            byte[] expected = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN)
                    .put((byte) 1).put((byte) 0).putShort((short) 3)
                    .putShort((short) 1).putShort((short) 0x1234).putShort((short) 0xFFFF).array();
            assertArrayEquals(expected, f.toArray(ValueLayout.JAVA_BYTE));
            assertEquals(10, EventFilterEventId.byteSize(3));
            assertEquals(0, EventFilterEventId.allocate(arena, false, 7).get(ValueLayout.JAVA_BYTE, 0));
            assertThrows(IllegalArgumentException.class, () -> EventFilterEventId.allocate(arena, true));
            assertThrows(IllegalArgumentException.class, () -> EventFilterEventId.allocate(arena, true, 0x10000));
            assertThrows(IllegalArgumentException.class, () -> EventFilterEventId.allocate(arena, true, -1));
            assertThrows(IllegalArgumentException.class,
                    () -> EventFilterEventId.allocate(arena, true, new int[WinConstants.MAX_EVENT_FILTER_EVENT_ID_COUNT + 1]));
        }
    }

    @Test
    void eventDataDescCreateRecordsAddressSizeAndZeroReserved() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment descriptors = _EVENT_DATA_DESCRIPTOR.allocateArray(2, arena);
            descriptors.fill((byte) 0x7F);
            MemorySegment data = arena.allocate(12);
            EventDataDescriptors.create(EventDataDescriptors.at(descriptors, 1), data);
            MemorySegment second = EventDataDescriptors.at(descriptors, 1);
            assertEquals(data.address(), _EVENT_DATA_DESCRIPTOR.Ptr(second));
            assertEquals(12, _EVENT_DATA_DESCRIPTOR.Size(second));
            assertEquals(0, _EVENT_DATA_DESCRIPTOR.Reserved(second));
            assertEquals(0x7F7F7F7F, _EVENT_DATA_DESCRIPTOR.Size(EventDataDescriptors.at(descriptors, 0)), "untouched");
        }
    }

    @Test
    void eventDescCreateFillsEveryField() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment d = _EVENT_DESCRIPTOR.allocate(arena);
            EventDescriptors.create(d, 0xABCD, 1, 16, 4, 0x1234, 11, 0x8000_0000_0000_0001L);
            assertEquals((short) 0xABCD, _EVENT_DESCRIPTOR.Id(d));
            assertEquals(1, _EVENT_DESCRIPTOR.Version(d));
            assertEquals(16, _EVENT_DESCRIPTOR.Channel(d));
            assertEquals(4, _EVENT_DESCRIPTOR.Level(d));
            assertEquals((short) 0x1234, _EVENT_DESCRIPTOR.Task(d));
            assertEquals(11, _EVENT_DESCRIPTOR.Opcode(d));
            assertEquals(0x8000_0000_0000_0001L, _EVENT_DESCRIPTOR.Keyword(d));
        }
    }

    @Test
    void extendedDataItemAccessors() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment payload = arena.allocate(16);
            MemorySegment items = arena.allocate(EventHeaderExtendedDataItem.LAYOUT, 2);
            MemorySegment item = EventHeaderExtendedDataItem.at(items, 1);
            item.set(ValueLayout.JAVA_SHORT, 2, (short) WinConstants.EVENT_HEADER_EXT_TYPE_PROV_TRAITS);
            item.set(ValueLayout.JAVA_SHORT, 4, (short) 0xFFFF); // Linkage and Reserved2 all set
            item.set(ValueLayout.JAVA_SHORT, 6, (short) 16);
            item.set(ValueLayout.JAVA_LONG, 8, payload.address());
            assertEquals(WinConstants.EVENT_HEADER_EXT_TYPE_PROV_TRAITS, EventHeaderExtendedDataItem.extType(item));
            assertTrue(EventHeaderExtendedDataItem.linkage(item));
            assertEquals(0x7FFF, EventHeaderExtendedDataItem.RESERVED2.get(item));
            assertEquals(16, EventHeaderExtendedDataItem.dataSize(item));
            assertEquals(payload.address(), EventHeaderExtendedDataItem.data(item).address());
            assertEquals(16, EventHeaderExtendedDataItem.data(item).byteSize());
            assertFalse(EventHeaderExtendedDataItem.linkage(EventHeaderExtendedDataItem.at(items, 0)));
        }
    }

    @Test
    void bitFieldKeepsTheOtherBitsAndRefusesOverflow() {
        BitField tags = TdhSdkFields.PROPERTY_TAGS;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = _EVENT_PROPERTY_INFO.allocate(arena);
            _EVENT_PROPERTY_INFO.Reserved(info, 0xF000_0000);
            tags.set(info, 0x0ABC_DEF1L);
            assertEquals(0xFABC_DEF1, _EVENT_PROPERTY_INFO.Reserved(info));
            assertEquals(0x0ABC_DEF1L, tags.get(info));
            assertThrows(IllegalArgumentException.class, () -> tags.set(info, 1L << 28));
            assertThrows(IllegalArgumentException.class, () -> new BitField("x", 0, 2, 10, 7));
        }
    }

    @Test
    void trailingArrayElementsAndBounds() {
        TrailingArray props = TrailingArrays.TRACE_EVENT_INFO_PROPERTIES;
        long elementSize = _EVENT_PROPERTY_INFO.layout().byteSize();
        assertEquals(props.arrayOffset() + 2 * elementSize, props.offsetOf(2));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(props.layout(3));
            assertEquals(elementSize, props.element(buffer, 2).byteSize());
            assertThrows(IndexOutOfBoundsException.class, () -> props.element(buffer, 3));
            assertThrows(IndexOutOfBoundsException.class, () -> props.offsetOf(-1));
        }
    }

    @Test
    void tdhStringsAtOffsets() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(64);
            buffer.setString(10, "Provider", StandardCharsets.UTF_16LE);
            assertEquals("Provider", TdhSdkFields.stringAt(buffer, 10));
            assertEquals(null, TdhSdkFields.stringAt(buffer, 0));
        }
    }
}
