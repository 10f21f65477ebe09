package org.etw4j.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.etw4j.controller.EventFilter;
import org.etw4j.provider.FilterData;
import org.junit.jupiter.api.Test;

/** The EVENT_FILTER_HEADER chain: hand-written bytes read as documented, encode/split round trip, non-chains. */
class FilterHeaderChainTest {

    private static FilterData schematized(String s) {
        return new FilterData(EventFilter.TYPE_SCHEMATIZED, s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aHandWrittenChainSplitsIntoOneFilterPerBlock() {
        byte[] chain = new byte[24 + 8 + 24 + 3];
        ByteBuffer b = ByteBuffer.wrap(chain).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(0, (short) 7).put(2, (byte) 1).putLong(8, 99);
        b.putInt(16, 24 + 5).putInt(20, 32);              // block 1: 5 data bytes, next at 32
        b.put(24, (byte) 'a');
        b.putInt(32 + 16, 24 + 3).putInt(32 + 20, 0);     // block 2: 3 data bytes, last
        b.put(32 + 24, (byte) 'b');
        List<FilterData> out = FilterHeaderChain.split(chain);
        assertEquals(2, out.size());
        assertEquals(EventFilter.TYPE_SCHEMATIZED, out.get(0).type());
        assertEquals(EventFilter.TYPE_SCHEMATIZED, FilterHeaderChain.TYPE_SCHEMATIZED);
        assertArrayEquals(new byte[] {'a', 0, 0, 0, 0}, out.get(0).data());
        assertArrayEquals(new byte[] {'b', 0, 0}, out.get(1).data());
    }

    @Test
    void encodeWritesTheDocumentedHeaders() {
        byte[] chain = FilterHeaderChain.encode(List.of(schematized("abcde"), schematized("xyz")));
        assertEquals(32 + 32, chain.length, "24 + 5 and 24 + 3 bytes, each padded to 8");
        ByteBuffer b = ByteBuffer.wrap(chain).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0, b.getShort(FilterHeaderChain.ID));
        assertEquals(0, b.get(FilterHeaderChain.VERSION));
        assertEquals(1L, b.getLong(FilterHeaderChain.INSTANCE_ID));
        assertEquals(29, b.getInt(FilterHeaderChain.SIZE));
        assertEquals(32, b.getInt(FilterHeaderChain.NEXT_OFFSET));
        assertEquals('a', chain[FilterHeaderChain.HEADER_BYTES]);
        assertEquals(2L, b.getLong(32 + FilterHeaderChain.INSTANCE_ID));
        assertEquals(27, b.getInt(32 + FilterHeaderChain.SIZE));
        assertEquals(0, b.getInt(32 + FilterHeaderChain.NEXT_OFFSET));
        assertEquals('z', chain[32 + FilterHeaderChain.HEADER_BYTES + 2]);
        assertEquals(0, chain[32 + 27], "padding is zero");
    }

    @Test
    void encodeThenSplitGivesTheFiltersBack() {
        List<FilterData> given = List.of(schematized("from-a"), new FilterData(EventFilter.TYPE_SCHEMATIZED, new byte[0]),
                schematized("third session"));
        assertEquals(given, FilterHeaderChain.split(FilterHeaderChain.encode(given)));
        assertArrayEquals(new byte[0], FilterHeaderChain.encode(List.of()));
    }

    @Test
    void bytesThatAreNotAChainGiveNull() {
        assertNull(FilterHeaderChain.split(new byte[10]), "too short for a header");
        assertNull(FilterHeaderChain.split(new byte[0]), "empty");
        byte[] smallSize = new byte[32];
        ByteBuffer.wrap(smallSize).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 23); // Size below the header
        assertNull(FilterHeaderChain.split(smallSize));
        byte[] badSize = new byte[32];
        ByteBuffer.wrap(badSize).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 64); // Size beyond the buffer
        assertNull(FilterHeaderChain.split(badSize));
        byte[] hugeSize = new byte[32];
        ByteBuffer.wrap(hugeSize).order(ByteOrder.LITTLE_ENDIAN).putInt(16, -1); // 4 GB - 1 as a ULONG
        assertNull(FilterHeaderChain.split(hugeSize));
        byte[] overlapping = new byte[56];
        ByteBuffer.wrap(overlapping).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 32).putInt(20, 8); // next inside own block
        assertNull(FilterHeaderChain.split(overlapping));
        byte[] nextPastEnd = new byte[32];
        ByteBuffer.wrap(nextPastEnd).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 24).putInt(20, 32); // next header missing
        assertNull(FilterHeaderChain.split(nextPastEnd));
    }
}
