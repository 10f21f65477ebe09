package org.etw4j.tracelogging;

import static org.etw4j.tracelogging.Bytes.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.etw4j.Guid;
import org.junit.jupiter.api.Test;

class ProviderTraitsTest {

    private static final Guid LXCORE_GROUP = Guid.parse("4f50731a-89cf-4782-b3e0-dce8c90476ba");

    /** etw-formats.md 1.2 [V]: lxcore_kernel.etl, PROV_TRAITS ext item data at file offset 0x20A0. */
    private static final byte[] LXCORE = Bytes.of().h("3800").z("Microsoft.Windows.Subsystem.LxCore")
            .h("130001").h("1a73504fcf898247b3e0dce8c90476ba").bytes();

    @Test
    void encodesTheLxCoreVector() {
        assertArrayEquals(LXCORE, ProviderTraits.encode("Microsoft.Windows.Subsystem.LxCore", LXCORE_GROUP));
    }

    @Test
    void encodesMyProviderWithoutTraits() {
        // etw-formats.md 1.2, derived vector (not from a file).
        assertArrayEquals(hex("0d00 4d7950726f766964657200"), ProviderTraits.encode("MyProvider", null));
    }

    @Test
    void parsesTheLxCoreVector() {
        ProviderTraits t = ProviderTraits.parse(LXCORE);
        assertEquals("Microsoft.Windows.Subsystem.LxCore", t.name());
        assertEquals(Optional.of(LXCORE_GROUP), t.group());
        assertEquals(Optional.empty(), t.decodeGuid());
        assertEquals(List.of(), t.otherTraits());
        assertEquals(1, t.traits().size());
        assertArrayEquals(LXCORE, t.encoded());
        assertArrayEquals(LXCORE, t.encodedArrayUnsafe());
        org.junit.jupiter.api.Assertions.assertSame(t.encodedArrayUnsafe(), t.encodedArrayUnsafe());
        assertEquals(ProviderTraits.of("Microsoft.Windows.Subsystem.LxCore", LXCORE_GROUP), t);
    }

    @Test
    void parsesAmsiTraceWithoutTraitsAndIgnoresPadding() {
        // etw-formats.md 1.9(c): AMSITrace.etl provider metadata 0c 00 "AmsiTrace\0", stored with 4 bytes of padding.
        ByteBuffer b = ByteBuffer.wrap(Bytes.of().h("aa").h("0c00").z("AmsiTrace").h("00000000").bytes());
        b.position(1);
        ProviderTraits t = ProviderTraits.parse(b);
        assertEquals("AmsiTrace", t.name());
        assertEquals(Optional.empty(), t.group());
        assertEquals(12, t.encoded().length);
        assertEquals(1, b.position());
    }

    @Test
    void otherTraitsAreKept() {
        ProviderTraits t = ProviderTraits.of("P", List.of(new ProviderTraits.Trait(1, LXCORE_GROUP.toWindowsBytes()),
                new ProviderTraits.Trait(2, Guid.parse("b3864c38-4273-58c5-545b-8b3608343471").toWindowsBytes()),
                new ProviderTraits.Trait(0x42, hex("0102"))));
        ProviderTraits back = ProviderTraits.parse(t.encoded());
        assertEquals(t, back);
        assertEquals(Optional.of(LXCORE_GROUP), back.group());
        assertEquals(Optional.of(Guid.parse("b3864c38-4273-58c5-545b-8b3608343471")), back.decodeGuid());
        assertEquals(2, back.otherTraits().size());
        assertEquals(new ProviderTraits.Trait(0x42, hex("0102")), back.otherTraits().get(1));
        byte[] expected = Bytes.of().h("2f00").z("P")
                .h("130001").h("1a73504fcf898247b3e0dce8c90476ba")
                .h("130002").h("384c86b37342c558545b8b3608343471")
                .h("050042").h("0102").bytes();
        assertArrayEquals(expected, t.encoded());
    }

    @Test
    void invalidInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> ProviderTraits.encode(null, null));
        assertThrows(IllegalArgumentException.class, () -> ProviderTraits.encode("", null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProviderTraits.encode("a\0b", null));
        assertTrue(e.getMessage().contains("NUL"));
        assertThrows(IllegalArgumentException.class, () -> ProviderTraits.encode("x".repeat(70000), null));
        assertThrows(TraceLoggingDecodeException.class, () -> ProviderTraits.parse(hex("02")));
        assertThrows(TraceLoggingDecodeException.class, () -> ProviderTraits.parse(hex("0200")));
        assertThrows(TraceLoggingDecodeException.class, () -> ProviderTraits.parse(hex("0500 414141"))); // no NUL
        assertThrows(TraceLoggingDecodeException.class, () -> ProviderTraits.parse(hex("0600 4100 0200"))); // chunk size 2
        assertThrows(TraceLoggingDecodeException.class, () -> ProviderTraits.parse(hex("0700 4100 090001"))); // past Size
        assertThrows(TraceLoggingDecodeException.class, () -> ProviderTraits.parse(hex("0900 4100 0900"))); // Size > data
    }
}
