package org.etw4j.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.etw4j.Guid;
import org.etw4j.format.EventHeaderLayout;
import org.junit.jupiter.api.Test;

/** The write path's shortcuts store exactly what the plain encodings store. */
class RecordEncoderTest {

    @Test
    void putGuidStoresTheWindowsLayoutLikeGuidWriteTo() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 1_000; i++) {
            Guid g = new Guid(random.nextLong(), random.nextLong());
            byte[] expected = new byte[Guid.BYTES + 3];
            g.writeTo(expected, 3);
            ByteBuffer b = ByteBuffer.allocate(Guid.BYTES + 3).order(ByteOrder.LITTLE_ENDIAN);
            RecordEncoder.putGuid(b, 3, g);
            assertArrayEquals(expected, b.array(), g.toString());
        }
        // the documented example layout: {00112233-4455-6677-8899-aabbccddeeff}
        ByteBuffer b = ByteBuffer.allocate(Guid.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        RecordEncoder.putGuid(b, 0, Guid.parse("00112233-4455-6677-8899-aabbccddeeff"));
        assertArrayEquals(new byte[] {0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66,
                (byte) 0x88, (byte) 0x99, (byte) 0xaa, (byte) 0xbb, (byte) 0xcc, (byte) 0xdd, (byte) 0xee, (byte) 0xff}, b.array());
    }

    @Test
    void itemPaddingIsZeroEvenOverStaleBytes() {
        for (int dataSize = 0; dataSize <= 24; dataSize++) {
            ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
            Arrays.fill(b.array(), (byte) 0x5A); // a reused buffer: stale bytes everywhere
            int data = RecordEncoder.itemHeader(b, 8, EventHeaderLayout.EXT_TS_ID, dataSize, false);
            int item = RecordEncoder.itemSize(dataSize);
            assertEquals(16, data);
            for (int i = data + dataSize; i < 8 + item; i++) {
                assertEquals(0, b.get(i), "padding byte " + i + " of an item with " + dataSize + " data bytes");
            }
            assertEquals((byte) 0x5A, b.get(8 + item), "nothing written after the item");
            assertEquals((byte) 0x5A, b.get(7), "nothing written before the item");
        }
    }
}
