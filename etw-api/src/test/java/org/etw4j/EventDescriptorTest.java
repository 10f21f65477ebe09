package org.etw4j;

import static org.junit.jupiter.api.Assertions.*;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Seed 001: EVENT_DESCRIPTOR field widths and the documented ranges. */
class EventDescriptorTest {

    @Test
    void seed001_everyFieldIsRangeCheckedAndTheMessageNamesIt() {
        assertMessage("id", () -> new EventDescriptor(65536, 0, 0, 0, 0, 0, 0));
        assertMessage("id", () -> new EventDescriptor(-1, 0, 0, 0, 0, 0, 0));
        assertMessage("version", () -> new EventDescriptor(0, 256, 0, 0, 0, 0, 0));
        assertMessage("channel", () -> new EventDescriptor(0, 0, 256, 0, 0, 0, 0));
        assertMessage("level", () -> new EventDescriptor(0, 0, 0, 256, 0, 0, 0));
        assertMessage("opcode", () -> new EventDescriptor(0, 0, 0, 0, -1, 0, 0));
        assertMessage("task", () -> new EventDescriptor(0, 0, 0, 0, 0, 70000, 0));
        assertDoesNotThrow(() -> new EventDescriptor(65535, 255, 255, 255, 255, 65535, -1L));
    }

    private static void assertMessage(String field, org.junit.jupiter.api.function.Executable e) {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
        assertTrue(ex.getMessage().contains("EventDescriptor." + field), ex.getMessage());
    }

    @Test
    void seed001_nativeLayoutIsSixteenBytesLittleEndian() {
        // etw-formats.md 1.9 (a): "Id=0 Ver=0 Channel=11 Level=5 Opcode=0 Task=0 Keyword=0x0000200000000000"
        EventDescriptor d = new EventDescriptor(0, 0, 11, 5, 0, 0, 0x0000_2000_0000_0000L);
        byte[] b = new byte[16];
        assertEquals(16, d.writeTo(b, 0));
        assertEquals("0000000b05000000" + "0000000000200000", HexFormat.of().formatHex(b));
    }

    @Test
    void seed001_levelsAndOpcodesHaveTheirWinmetaValues() {
        assertEquals(0, Level.LOG_ALWAYS.value());
        assertEquals(1, Level.CRITICAL.value());
        assertEquals(5, Level.VERBOSE.value());
        assertNull(Level.named(6), "6-15 reserved, 16-255 provider-defined");
        assertEquals(1, Opcode.START.value());
        assertEquals(2, Opcode.STOP.value());
        assertEquals(240, Opcode.RECEIVE.value());
        assertEquals(Opcode.STOP, Opcode.named(2));
    }

    @Test
    void seed001_keywordTopSixteenBitsAreMicrosofts() {
        assertEquals(0xFFFF_0000_0000_0000L, Keywords.MICROSOFT_MASK);
        assertEquals(0x0000_FFFF_FFFF_FFFFL, Keywords.PROVIDER_MASK);
        assertEquals(0x5, Keywords.ofBits(0, 2).mask(), "seed example: I/O (bit 0) + performance (bit 2) = 0x5");
        assertThrows(IllegalArgumentException.class, () -> Keywords.ofBits(48));
        assertTrue(new Keywords(0x0001_0000_0000_0000L).usesMicrosoftBits());
    }

    @Test
    void builderAndWithOpcode() {
        EventDescriptor d = EventDescriptor.builder(7).version(2).level(Level.WARNING).opcode(Opcode.START).task(3).keyword(0x10).build();
        assertEquals(new EventDescriptor(7, 2, 0, 3, 1, 3, 0x10), d);
        assertEquals(2, d.withOpcode(2).opcode());
        assertSame(d, d.withOpcode(1));
    }
}
