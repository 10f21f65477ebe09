package org.etw4j.tracelogging;

import static org.etw4j.tracelogging.Bytes.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Consumer;
import org.etw4j.EventDescriptor;
import org.etw4j.Level;
import org.etw4j.Opcode;
import org.junit.jupiter.api.Test;

class TraceLoggingEventTest {

    /** etw-formats.md 1.9(a): dissect.etl tests/test_event_header.py EVENT_HEADER_EVENT, ext item 0x0B data. */
    static final byte[] SERVICE_HOST_STARTED = Bytes.of().h("2c00").h("00").z("ServiceHostStarted")
            .z("ServiceHostName").h("01").z("PID").h("08").bytes();

    /** etw-formats.md 1.9(b): lxcore_kernel.etl record at 0x2048, EVENT_SCHEMA_TL item (file offset 0x20E0). */
    static final byte[] BREAK_POINT = Bytes.of().h("6400").h("8000").z("BreakPoint").z("ErrorLevel").h("04")
            .z("instanceId").h("0f").z("LxPid").h("07").z("LxTid").h("07").z("LxNs").h("07")
            .z("ExecutablePath").h("17").z("Function").h("02").z("Line").h("08").z("Message").h("02").bytes();

    /** etw-formats.md 1.9(c): AMSITrace.etl first record of buffer 1 (0x10048), EVENT_SCHEMA_TL item. */
    static final byte[] AMSI_SCRIPT = Bytes.of().h("2b00").h("00").z("AmsiScript").z("Engine").h("01")
            .z("Script").h("01").z("Raw Script").h("c602").bytes();

    @Test
    void reproducesServiceHostStarted() {
        TraceLoggingEvent e = TraceLoggingEvent.builder("ServiceHostStarted")
                .stringField("ServiceHostName").uint32Field("PID").build();
        assertArrayEquals(SERVICE_HOST_STARTED, e.metadata());
        // The recorded event's descriptor: Id 0, Version 0, Channel 11, Level 5, Opcode 0, Task 0 (keyword aside).
        assertEquals(new EventDescriptor(0, 0, 11, 5, 0, 0, 0), e.descriptor());
    }

    @Test
    void reproducesLxCoreBreakPointWithSdkTagForm() {
        TraceLoggingEvent e = TraceLoggingEvent.builder("BreakPoint").sdkMacroEventTags()
                .uint8Field("ErrorLevel").guidField("instanceId").int32Field("LxPid").int32Field("LxTid")
                .int32Field("LxNs").field("ExecutablePath", InType.COUNTED_ANSI_STRING).ansiField("Function")
                .uint32Field("Line").ansiField("Message").build();
        assertArrayEquals(BREAK_POINT, e.metadata());
        // Without the SDK form the blob is one byte shorter and has the same schema apart from the bytes.
        TraceLoggingEvent compact = TraceLoggingEvent.builder("BreakPoint")
                .uint8Field("ErrorLevel").guidField("instanceId").int32Field("LxPid").int32Field("LxTid")
                .int32Field("LxNs").field("ExecutablePath", InType.COUNTED_ANSI_STRING).ansiField("Function")
                .uint32Field("Line").ansiField("Message").build();
        assertEquals(BREAK_POINT.length - 1, compact.metadataLength());
        assertEquals(e.schema().fields(), compact.schema().fields());
        assertEquals(e.schema().tags(), compact.schema().tags());
        assertTrue(!e.schema().equals(compact.schema()), "different bytes are different schemas");
    }

    @Test
    void reproducesAmsiScript() {
        TraceLoggingEvent e = TraceLoggingEvent.builder("AmsiScript").stringField("Engine").stringField("Script")
                .array("Raw Script", InType.UINT16, OutType.STRING).build();
        assertArrayEquals(AMSI_SCRIPT, e.metadata());
    }

    @Test
    void defaultsAndDescriptor() {
        TraceLoggingEvent e = TraceLoggingEvent.builder("E").build();
        assertEquals(new EventDescriptor(0, 0, EventDescriptor.CHANNEL_TRACELOGGING, Level.VERBOSE.value(), 0, 0, 0),
                e.descriptor());
        assertArrayEquals(Bytes.of().h("0500").h("00").z("E").bytes(), e.metadata());
        TraceLoggingEvent f = TraceLoggingEvent.builder("F").id(7).version(2).level(Level.ERROR).opcode(Opcode.START)
                .task(9).keyword(0x8000_0000_0000_0001L).tags(0x02400000).build();
        assertEquals(new EventDescriptor(7, 2, 11, 2, 1, 9, 0x8000_0000_0000_0001L), f.descriptor());
        assertArrayEquals(Bytes.of().h("0500").h("12").z("F").bytes(), f.metadata());
        assertEquals(0x02400000, f.tags());
        assertEquals(0x02400000, f.schema().tags());
    }

    @Test
    void outMetaTagsCountsAndStructs() {
        TraceLoggingEvent e = TraceLoggingEvent.builder("S")
                .field("h", InType.INT32, OutType.HEX)           // 87 04
                .field("t", InType.INT32, OutType.DEFAULT, 1)    // 87 80 80808001
                .fixedArray("c", InType.UINT8, 3)                // 24 0300
                .struct("st", 2)                                  // 98 02
                .int8Field("a")                                   // 03
                .structArray("sa", 1)                             // d8 01
                .uint16Field("b")                                 // 06
                .structFixedArray("sf", 1, 4)                     // b8 01 0400
                .array("v", InType.INT64, OutType.DEFAULT, 0x00200000) // c9 80 01
                .struct("tagged", 1, 0x80)                        // 98 81 808001
                .boolField("z")                                   // 0d
                .build();
        byte[] expected = Bytes.of().h("0000").h("00").z("S")
                .z("h").h("8704").z("t").h("878080808001").z("c").h("240300").z("st").h("9802").z("a").h("03")
                .z("sa").h("d801").z("b").h("06").z("sf").h("b8010400").z("v").h("c98001")
                .z("tagged").h("9881808001").z("z").h("0d").bytes();
        expected[0] = (byte) expected.length;
        assertArrayEquals(expected, e.metadata());
        List<TraceLoggingField> f = e.fields();
        assertEquals(new TraceLoggingField("sf", InType.STRUCT, OutType.DEFAULT, 0, Arity.FIXED_ARRAY, 4, 1), f.get(7));
        assertEquals(new TraceLoggingField("v", InType.INT64, OutType.DEFAULT, 0x00200000, Arity.VARIABLE_ARRAY, 0, 0),
                f.get(8));
        assertEquals(f, e.schema().fields(), "parsing the blob gives back the declarations");
        // Nested tree: st{a, sa[]{b}} counts sa as one member.
        assertEquals(6, e.schema().topLevelFields().size());
    }

    @Test
    void nestedStructCountsAsOneMember() {
        TraceLoggingEvent e = TraceLoggingEvent.builder("N").struct("outer", 2).struct("inner", 2).int8Field("a")
                .int8Field("b").int8Field("c").int8Field("top").build();
        List<TraceLoggingSchema.FieldNode> top = e.schema().topLevelFields();
        assertEquals(2, top.size());
        assertEquals("outer", top.get(0).field().name());
        assertEquals(List.of("inner", "c"), top.get(0).members().stream().map(n -> n.field().name()).toList());
        assertEquals(2, top.get(0).members().get(0).members().size());
        assertEquals("top", top.get(1).field().name());
    }

    @Test
    void metadataAccessors() {
        TraceLoggingEvent e = TraceLoggingEvent.builder("ServiceHostStarted")
                .stringField("ServiceHostName").uint32Field("PID").build();
        byte[] copy = e.metadata();
        copy[0] = 0;
        assertArrayEquals(SERVICE_HOST_STARTED, e.metadata(), "metadata() is a defensive copy");
        assertSame(e.metadataArrayUnsafe(), e.metadataArrayUnsafe());
        assertNotSame(e.metadataArrayUnsafe(), e.metadata());
        byte[] dst = new byte[100];
        assertEquals(3 + SERVICE_HOST_STARTED.length, e.copyMetadataTo(dst, 3));
        assertArrayEquals(SERVICE_HOST_STARTED, java.util.Arrays.copyOfRange(dst, 3, 3 + SERVICE_HOST_STARTED.length));
        assertEquals(SERVICE_HOST_STARTED.length, e.metadataLength());
        assertThrows(UnsupportedOperationException.class, () -> e.fields().add(null));
    }

    private static void rejects(String expectedFragment, Consumer<TraceLoggingEvent.Builder> setup) {
        TraceLoggingEvent.Builder b = TraceLoggingEvent.builder("Ev");
        setup.accept(b);
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(ex.getMessage().contains(expectedFragment), "message '" + ex.getMessage() + "' lacks '"
                + expectedFragment + "'");
    }

    @Test
    void buildValidatesAndNamesTheField() {
        IllegalArgumentException nullName = assertThrows(IllegalArgumentException.class,
                () -> TraceLoggingEvent.builder(null).build());
        assertTrue(nullName.getMessage().contains("event name must not be null or empty"), nullName.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TraceLoggingEvent.builder("").build());
        assertThrows(IllegalArgumentException.class, () -> TraceLoggingEvent.builder("a\0b").build());
        assertThrows(IllegalArgumentException.class, () -> TraceLoggingEvent.builder("bad\uD800").build());
        rejects("field #0 'null'", b -> b.int32Field(null));
        rejects("field #1 ''", b -> b.int32Field("ok").int32Field(""));
        rejects("'x\0y'", b -> b.int32Field("x\0y"));
        rejects("'p': InType POINTER", b -> b.field("p", InType.POINTER));
        rejects("'n': InType NULL", b -> b.field("n", InType.NULL));
        rejects("'bin': arrays of BINARY", b -> b.array("bin", InType.BINARY));
        rejects("'bin': arrays of BINARY", b -> b.fixedArray("bin", InType.BINARY, 2));
        rejects("'f': fixed array count", b -> b.fixedArray("f", InType.INT8, 0));
        rejects("'f': fixed array count", b -> b.fixedArray("f", InType.INT8, 65536));
        rejects("'s': struct member count must be 1-127", b -> b.struct("s", 0));
        rejects("'s': struct member count must be 1-127", b -> b.struct("s", 128));
        rejects("'s': struct declares 2 members but only 1 follow", b -> b.struct("s", 2).int8Field("a"));
        rejects("'inner': struct declares 2 members but only 1 follow",
                b -> b.struct("outer", 1).struct("inner", 2).int8Field("a"));
        rejects("'st': struct member count must be 1-127 (declare structs with struct()), got 0",
                b -> b.field(new TraceLoggingField("ok", InType.INT8, OutType.DEFAULT, 0, Arity.SCALAR, 0, 0))
                        .field("st", InType.STRUCT));
        rejects("'t' tags must be 0-0x0FFFFFFF", b -> b.field("t", InType.INT8, OutType.DEFAULT, 0x10000000));
        rejects("event tags must be", b -> b.tags(-1));
        rejects("'o': OutType must not be null", b -> b.field("o", InType.INT8, null));
        rejects("'i': InType must not be null", b -> b.field("i", null));
        rejects("level must be 0-255", b -> b.level(256));
        rejects("level must be 0-255", b -> b.level((Level) null));
        rejects("opcode must be 0-255", b -> b.opcode(-1));
        rejects("id must be 0-65535", b -> b.id(65536));
        rejects("version must be 0-255", b -> b.version(256));
        rejects("custom-schema", b -> b.field(new TraceLoggingField("c", InType.INT8, OutType.DEFAULT, 0,
                Arity.CUSTOM, 0, 0)));
        rejects("declares 129 fields", b -> {
            for (int i = 0; i < 129; i++) {
                b.int8Field("f" + i);
            }
        });
        rejects("below 32768", b -> {
            String longName = "n".repeat(1000);
            for (int i = 0; i < 40; i++) {
                b.int8Field(longName + i);
            }
        });
    }

    @Test
    void limitsAreInclusive() {
        TraceLoggingEvent.Builder b = TraceLoggingEvent.builder("Max").struct("s", 127);
        for (int i = 0; i < 127; i++) {
            b.int8Field("m" + i);
        }
        assertEquals(128, b.build().fields().size());
        // Largest metadata below 32768: Size(2) + tag(1) + name + NUL.
        TraceLoggingEvent big = TraceLoggingEvent.builder("x".repeat(32767 - 4)).build();
        assertEquals(32767, big.metadataLength());
        assertThrows(IllegalArgumentException.class, () -> TraceLoggingEvent.builder("x".repeat(32768 - 4)).build());
        assertEquals(65535, TraceLoggingEvent.builder("F").fixedArray("a", InType.INT8, 65535).build()
                .fields().get(0).fixedCount());
    }

    @Test
    void builderIsReusable() {
        TraceLoggingEvent.Builder b = TraceLoggingEvent.builder("R").int8Field("a");
        TraceLoggingEvent first = b.build();
        TraceLoggingEvent second = b.int16Field("b").build();
        assertEquals(1, first.fields().size());
        assertEquals(2, second.fields().size());
    }
}
