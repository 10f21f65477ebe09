package org.etw4j.jna.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.format.FilterHeaderChain;
import org.etw4j.controller.EventFilter;
import org.etw4j.provider.FilterData;
import org.junit.jupiter.api.Test;

/**
 * Decoding the EVENT_FILTER_DESCRIPTOR of an enable notification from native memory (JNA only; no stand-in).
 */
class FilterDescriptorsTest {
    private final List<Memory> keepAlive = new ArrayList<>();

    private Pointer descriptor(byte[] data, int type) {
        Memory d = new Memory(Math.max(1, data.length));
        d.write(0, data, 0, data.length);
        Memory desc = new Memory(16);
        desc.setLong(0, data.length == 0 ? 0 : Pointer.nativeValue(d));
        desc.setInt(8, data.length);
        desc.setInt(12, type);
        keepAlive.add(d);
        keepAlive.add(desc);
        return desc;
    }

    @Test
    void noDescriptorOrNoDataIsNoFilter() {
        assertEquals(List.of(), FilterDescriptors.decode(null));
        assertEquals(List.of(), FilterDescriptors.decode(descriptor(new byte[0], 0x1234)));
    }

    @Test
    void aProviderDefinedFilterIsCopiedAsItIs() {
        byte[] bytes = "hello".getBytes(StandardCharsets.UTF_8);
        assertEquals(List.of(new FilterData(0x1234, bytes)), FilterDescriptors.decode(descriptor(bytes, 0x1234)));
    }

    @Test
    void aSchematizedHeaderChainIsOneFilterPerSession() {
        List<FilterData> given = List.of(new FilterData(EventFilter.TYPE_SCHEMATIZED, "from-a".getBytes(StandardCharsets.UTF_8)),
                new FilterData(EventFilter.TYPE_SCHEMATIZED, new byte[0]),
                new FilterData(EventFilter.TYPE_SCHEMATIZED, "third session".getBytes(StandardCharsets.UTF_8)));
        byte[] chain = FilterHeaderChain.encode(given); // blocks padded to 8 bytes, NextOffset past the padding
        assertEquals(given, FilterDescriptors.decode(descriptor(chain, EventFilter.TYPE_SCHEMATIZED)));
    }

    @Test
    void aChainWrittenByHandIsReadAsDocumented() {
        // One block: EVENT_FILTER_HEADER {Id 7, Version 1, InstanceId 99, Size 24 + 3, NextOffset 0} + 3 bytes.
        ByteBuffer b = ByteBuffer.allocate(27).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(0, (short) 7).put(2, (byte) 1).putLong(8, 99).putInt(16, 27).putInt(20, 0);
        b.put(24, (byte) 0xA).put(25, (byte) 0xB).put(26, (byte) 0xC);
        List<FilterData> got = FilterDescriptors.decode(descriptor(b.array(), EventFilter.TYPE_SCHEMATIZED));
        assertEquals(1, got.size());
        assertArrayEquals(new byte[] {0xA, 0xB, 0xC}, got.get(0).data());
    }

    @Test
    void schematizedBytesThatAreNotAChainStayOneFilter() {
        byte[] shortRaw = "from-a".getBytes(StandardCharsets.UTF_8); // shorter than a header
        assertEquals(List.of(new FilterData(EventFilter.TYPE_SCHEMATIZED, shortRaw)),
                FilterDescriptors.decode(descriptor(shortRaw, EventFilter.TYPE_SCHEMATIZED)));
        byte[] badSize = new byte[32];
        ByteBuffer.wrap(badSize).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 64); // Size beyond the buffer
        assertEquals(List.of(new FilterData(EventFilter.TYPE_SCHEMATIZED, badSize)),
                FilterDescriptors.decode(descriptor(badSize, EventFilter.TYPE_SCHEMATIZED)));
        byte[] overlapping = new byte[56];
        ByteBuffer o = ByteBuffer.wrap(overlapping).order(ByteOrder.LITTLE_ENDIAN);
        o.putInt(16, 32).putInt(20, 8); // NextOffset inside its own block
        assertNull(FilterHeaderChain.split(overlapping));
    }

    @Test
    void anImpossibleSizeIsRejected() {
        Memory desc = new Memory(16);
        desc.setLong(0, 0x1000);
        desc.setInt(8, -5); // 4 GB - 5 as a ULONG
        desc.setInt(12, 0);
        assertThrows(IllegalArgumentException.class, () -> FilterDescriptors.decode(desc));
    }
}
