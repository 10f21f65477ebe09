package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.testing.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * What the decoder's no-copy construction of {@link DecodedEvent} (and its per-thread payload copy) must still
 * guarantee: results are immutable, independent of each other and of later decodes on the same thread, the
 * message formatted on demand is the one {@link EventMessage} gives, and a decoded event equals one built from
 * the same parts through the public constructor.
 */
class DecodedEventOwnershipTest {

    @Test
    void decodedListsAreUnmodifiableAndArraysAreCopies() throws IOException {
        EventDecoder d = EventDecoderTest.decoderWithDemo();
        byte[] data = new Bytes().u32(1).utf16z("abc").u16(9).u32(0xDEADBEEFL).get();
        DecodedEvent e = d.decode(TestRecord.builder(EventDecoderTest.PROVIDER).id(7).version(5).opcode(1)
                .data(data).build());
        assertThrows(UnsupportedOperationException.class, () -> e.fields().add(e.fields().get(0)));
        assertThrows(UnsupportedOperationException.class, () -> e.notes().add("x"));
        byte[] rest = e.undecoded();
        rest[0] ^= 1;
        assertArrayEquals(new Bytes().u32(0xDEADBEEFL).get(), e.undecoded(), "undecoded() hands out copies");
    }

    @Test
    void laterDecodesOnTheSameThreadLeaveEarlierResultsAlone() throws IOException {
        EventDecoder d = EventDecoderTest.decoderWithDemo();
        Guid unknown = Guid.parse("99999999-2222-3333-4444-555555555555");
        byte[] first = new Bytes().u32(1).utf16z("first event text").u16(1).u8(0x11).get();
        DecodedEvent a = d.decode(TestRecord.builder(EventDecoderTest.PROVIDER).id(7).version(1).opcode(1)
                .data(first).build());
        // same thread, longer and different payloads: the scratch copy is reused and overwritten
        for (int i = 0; i < 3; i++) {
            d.decode(TestRecord.builder(EventDecoderTest.PROVIDER).id(7).version(1).opcode(1)
                    .data(new Bytes().u32(2).utf16z("x".repeat(300 + i)).u16(2).u8(0x22).get()).build());
            d.decode(TestRecord.builder(unknown).id(1).data(new byte[] {9, 9, 9, 9}).build());
        }
        assertEquals(1L, a.field("Kind").value());
        assertEquals("first event text", a.field("Name").value());
        assertEquals(1, a.field("Extra").value());
        assertArrayEquals(new byte[] {0x11}, a.undecoded());
    }

    @Test
    void onDemandMessageAndEqualityMatchThePublicConstructor() throws IOException {
        EventDecoder d = EventDecoderTest.decoderWithDemo();
        byte[] v1 = new Bytes().u32(1).utf16z("abc").get();
        TestRecord r = TestRecord.builder(EventDecoderTest.PROVIDER).id(8).opcode(11).data(v1).build();
        DecodedEvent decoded = d.decode(r);
        DecodedEvent again = d.decode(r);
        assertNotSame(decoded, again);
        assertEquals(decoded, again);
        assertEquals(decoded.hashCode(), again.hashCode());
        String message = EventMessage.format("Piece %2 of kind %1", decoded.fields());
        assertEquals(message, again.message());
        DecodedEvent built = new DecodedEvent(decoded.providerId(), decoded.providerName(), decoded.eventName(),
                decoded.taskName(), decoded.opcodeName(), decoded.eventId(), decoded.version(), decoded.opcode(),
                decoded.source(), List.copyOf(decoded.fields()), decoded.payloadLength(), decoded.undecoded(),
                decoded.notes(), message);
        assertEquals(built, decoded);
        assertEquals(decoded, built);
        assertEquals("Piece abc of kind One", decoded.message());
    }
}
