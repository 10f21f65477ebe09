package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.testing.TestRecord;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.format.PrimitiveReader;
import org.etw4j.tracelogging.ProviderTraits;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.junit.jupiter.api.Test;

class EventDecoderTest {

    static final Guid PROVIDER = Guid.parse("11111111-2222-3333-4444-555555555555");

    static final String MANIFEST = """
            <instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events">
             <instrumentation><events>
              <provider name="Demo-Provider" guid="{11111111-2222-3333-4444-555555555555}">
               <tasks><task name="Work" value="1" message="$(string.task.work)">
                 <opcodes><opcode name="Chunk" value="11" message="$(string.op.chunk)"/></opcodes></task></tasks>
               <maps><valueMap name="Kind"><map value="1" message="$(string.kind.one)"/></valueMap></maps>
               <templates>
                <template tid="T1"><data name="Kind" inType="win:UInt32" map="Kind"/>
                  <data name="Name" inType="win:UnicodeString"/></template>
                <template tid="T2"><data name="Kind" inType="win:UInt32" map="Kind"/>
                  <data name="Name" inType="win:UnicodeString"/><data name="Extra" inType="win:UInt16"/></template>
               </templates>
               <events>
                <event value="7" version="0" task="Work" opcode="win:Start" template="T1"/>
                <event value="7" version="1" task="Work" opcode="win:Start" template="T2"/>
                <event value="8" task="Work" opcode="Chunk" template="T1" message="$(string.msg.piece)"/>
               </events>
              </provider></events></instrumentation>
             <localization><resources culture="en-US"><stringTable>
              <string id="task.work" value="Work"/><string id="op.chunk" value="Piece"/><string id="kind.one" value="One"/>
              <string id="msg.piece" value="Piece %2 of kind %1"/>
             </stringTable></resources></localization>
            </instrumentationManifest>""";

    static EventDecoder decoderWithDemo() throws IOException {
        ManifestRegistry reg = new ManifestRegistry();
        ManifestParser.parse(MANIFEST.getBytes(StandardCharsets.UTF_8), SchemaSource.MANIFEST).forEach(reg::register);
        return new EventDecoder(reg);
    }

    @Test
    void manifestEventsDecodeWithNamesMapsAndVersionFallback() throws IOException {
        EventDecoder d = decoderWithDemo();
        byte[] v1 = new Bytes().u32(1).utf16z("abc").u16(9).get();
        DecodedEvent e = d.decode(TestRecord.builder(PROVIDER).id(7).version(1).opcode(1).data(v1).build());
        assertEquals("Demo-Provider/Work/Start", e.fullName());
        assertEquals(SchemaSource.MANIFEST, e.source());
        assertEquals("One", e.field("Kind").label());
        assertEquals(1L, e.field("Kind").value());
        assertEquals("abc", e.field("Name").value());
        assertEquals(9, e.field("Extra").value());
        assertEquals(List.of(), e.notes());
        assertEquals(0, e.undecodedLength());

        // version 5 is unknown: the v1 template reads the prefix, a note says so, the rest stays raw
        byte[] v5 = new Bytes().u32(2).utf16z("x").u16(3).u32(0xDEADBEEFL).get();
        DecodedEvent newer = d.decode(TestRecord.builder(PROVIDER).id(7).version(5).opcode(1).data(v5).build());
        assertEquals("x", newer.field("Name").value());
        assertNull(newer.field("Kind").label(), "2 has no name in the map");
        assertTrue(newer.notes().get(0).contains("version 1"), newer.notes().toString());
        assertArrayEquals(new Bytes().u32(0xDEADBEEFL).get(), newer.undecoded());

        DecodedEvent strict = d.strictVersions().decode(
                TestRecord.builder(PROVIDER).id(7).version(5).opcode(1).data(v5).build());
        assertEquals(SchemaSource.NONE, strict.source());
        assertEquals("Demo-Provider", strict.providerName());
        assertArrayEquals(v5, strict.undecoded());

        DecodedEvent piece = d.decode(TestRecord.builder(PROVIDER).id(8).opcode(11).data(v1).build());
        assertEquals("Work/Piece", piece.eventName());
        assertEquals("Piece abc of kind One", piece.message());
        assertNull(e.message());
    }

    @Test
    void unknownProvidersKeepTheirPayload() {
        byte[] data = {1, 2, 3};
        DecodedEvent e = new EventDecoder().decode(TestRecord.builder(Guid.parse("99999999-2222-3333-4444-555555555555"))
                .id(42).data(data).build());
        assertEquals("99999999-2222-3333-4444-555555555555/EventID(42)", e.fullName());
        assertEquals(SchemaSource.NONE, e.source());
        assertArrayEquals(data, e.undecoded());
        assertEquals(3, e.payloadLength());
    }

    @Test
    void aTruncatedManifestEventKeepsItsGoodFieldsAndReportsTheRest() throws IOException {
        byte[] cut = new Bytes().u32(1).raw("ab".getBytes(StandardCharsets.UTF_16LE)).get();
        DecodedEvent e = decoderWithDemo().decode(TestRecord.builder(PROVIDER).id(7).opcode(1).data(cut).build());
        assertEquals("One", e.field("Kind").label());
        assertEquals("ab", e.field("Name").value());
        assertNotNull(e.field("Name").error());
        assertTrue(e.hasFieldErrors());
    }

    @Test
    void inBandManifestChunksRegisterTheProviderForLaterEvents() {
        Guid es = Guid.parse("aaaaaaaa-2222-3333-4444-555555555555");
        String xml = MANIFEST.replace("11111111-2222-3333-4444-555555555555", es.toString())
                .replace("Demo-Provider", "My-EventSource");
        byte[] utf8 = xml.getBytes(StandardCharsets.UTF_8);
        int half = utf8.length / 2;
        EventDecoder d = new EventDecoder();
        DecodedEvent before = d.decode(TestRecord.builder(es).id(8).data(new Bytes().u32(1).utf16z("z").get()).build());
        assertEquals(SchemaSource.NONE, before.source());

        DecodedEvent c0 = d.decode(envelope(es, 2, 0, Arrays.copyOfRange(utf8, 0, half)));
        assertEquals("ManifestData", c0.eventName());
        assertEquals(2, c0.field("TotalChunks").value());
        assertEquals(0x5B, c0.field("Magic").value());
        assertNull(d.manifests().provider(es), "incomplete");
        DecodedEvent c1 = d.decode(envelope(es, 2, 1, Arrays.copyOfRange(utf8, half, utf8.length)));
        assertEquals("My-EventSource/ManifestData", c1.fullName());
        assertEquals((long) (8 + utf8.length - half), c1.field("PayloadLength").value());
        assertNotNull(d.manifests().provider(es));

        DecodedEvent after = d.decode(TestRecord.builder(es).id(8).opcode(11)
                .data(new Bytes().u32(1).utf16z("z").get()).build());
        assertEquals("My-EventSource/Work/Piece", after.fullName());
        assertEquals(SchemaSource.EVENT_SOURCE_MANIFEST, after.source());
        assertEquals("z", after.field("Name").value());
    }

    static TestRecord envelope(Guid provider, int total, int number, byte[] chunk) {
        byte[] data = new Bytes().u8(1).u8(1).u8(0).u8(0x5B).u16(total).u16(number).raw(chunk).get();
        return TestRecord.builder(provider).id(0xFFFE).task(0xFFFE).opcode(0xFE).data(data).build();
    }

    @Test
    void traceLoggingEventsUseTheirSchemaAndProviderTraits() {
        TraceLoggingEvent def = TraceLoggingEvent.builder("Hello")
                .field("count", org.etw4j.tracelogging.InType.INT32)
                .field("ok", org.etw4j.tracelogging.InType.UINT8, org.etw4j.tracelogging.OutType.BOOLEAN)
                .field("who", org.etw4j.tracelogging.InType.UNICODE_STRING)
                .build();
        byte[] payload = new Bytes().u32(-5).u8(1).utf16z("me").get();
        TestRecord r = TestRecord.builder(PROVIDER).data(payload)
                .ext(EventHeaderLayout.EXT_PROV_TRAITS, ProviderTraits.encode("Tl.Provider", null))
                .ext(EventHeaderLayout.EXT_EVENT_SCHEMA_TL, def.metadata()).build();
        DecodedEvent e = new EventDecoder().decode(r);
        assertEquals("Tl.Provider/Hello", e.fullName());
        assertEquals(SchemaSource.TRACELOGGING, e.source());
        assertEquals(-5, e.field("count").value());
        assertEquals(Boolean.TRUE, e.field("ok").value());
        assertEquals("me", e.field("who").value());

        // cut inside the string: the event keeps its name, the failure is on a field with the raw bytes
        TestRecord cut = TestRecord.builder(PROVIDER).data(Arrays.copyOf(payload, 6))
                .ext(EventHeaderLayout.EXT_EVENT_SCHEMA_TL, def.metadata()).build();
        DecodedEvent bad = new EventDecoder().decode(cut);
        assertEquals("Hello", bad.eventName());
        assertTrue(bad.hasFieldErrors());
        assertFalse(bad.notes().isEmpty());

        DecodedEvent none = new EventDecoder().withTraceLogging(null).decode(r);
        assertEquals(SchemaSource.NONE, none.source());
    }

    @Test
    void eventTraceHeaderDecodesForBothPointerSizes() {
        for (int ptr : new int[] {4, 8}) {
            long start = 132_392_018_711_387_363L;
            Bytes b = new Bytes().u32(0x2000).raw(new byte[] {10, 0, 1, 5}).u32(19041).u32(6).u64(start + 5)
                    .u32(156250).u32(0).u32(1).u32(3).u32(1).u32(ptr).u32(0).u32(3000);
            if (ptr == 8) {
                b.u64(10).u64(7);
            } else {
                b.u32(10).u32(7);
            }
            b.u32(-480).raw(new byte[64]).raw(new byte[16]).u32(0).raw(new byte[64]).raw(new byte[16]).u32(-60)
                    .u32(0).u64(start - 1000).u64(10_000_000).u64(start).u32(1).u32(0)
                    .utf16z("lxcore_kernel").utf16z("C:\\x.etl");
            TestRecord r = TestRecord.builder(KernelSchemas.EVENT_TRACE).classic().pointerSize(ptr).data(b.get()).build();
            DecodedEvent e = new EventDecoder().decode(r);
            assertEquals("Windows Kernel/EventTrace", e.fullName());
            assertEquals(SchemaSource.KERNEL_MOF, e.source());
            assertFalse(e.hasFieldErrors(), e.toString());
            assertEquals(0x2000L, e.field("BufferSize").value());
            assertEquals((long) ptr, e.field("PointerSize").value());
            assertEquals(-480, e.field("UtcOffsetMinutes").value());
            assertEquals(PrimitiveReader.fileTime(start), e.field("StartTime").value());
            assertEquals(10_000_000L, e.field("PerfFreq").value());
            assertEquals("lxcore_kernel", e.field("SessionName").value());
            assertEquals("C:\\x.etl", e.field("LogFileName").value());
            assertEquals(0, e.undecodedLength());
        }
    }

    @Test
    void kernelProcessEventsFollowTheVersionAndPointerSize() {
        byte[] sid = {1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0};
        byte[] v4 = new Bytes().u64(0xfffffa830007e4c0L).u32(4).u32(0).u32(0xFFFFFFFFL).u32(259).u64(0x187000)
                .u32(4).u64(0xffff800000001000L).u64(0).raw(sid).ansiz("System").utf16z("").utf16z("").utf16z("").get();
        DecodedEvent e = new EventDecoder().decode(TestRecord.builder(KernelSchemas.PROCESS).classic().opcode(3)
                .version(4).data(v4).build());
        assertEquals("Windows Kernel/Process/DCStart", e.fullName());
        assertFalse(e.hasFieldErrors(), e.toString());
        assertEquals(4L, e.field("ProcessID").value());
        assertEquals("Protected", e.field("Flags").label());
        assertEquals("S-1-5-18", e.field("UserSID").value());
        assertEquals("System", e.field("ImageFileName").value());
        assertEquals(0, e.undecodedLength());

        // a version-5 event is read with the v4 layout (noted); unknown opcodes keep the class name
        DecodedEvent v5 = new EventDecoder().decode(TestRecord.builder(KernelSchemas.PROCESS).classic().opcode(3)
                .version(5).data(v4).build());
        assertTrue(v5.notes().get(0).contains("version 4"));
        DecodedEvent odd = new EventDecoder().decode(TestRecord.builder(KernelSchemas.PROCESS).classic().opcode(99)
                .data(new byte[] {1}).build());
        assertEquals("Windows Kernel/Process/Opcode(99)", odd.fullName());

        // 32-bit: pointer fields are 4 bytes
        byte[] thread32 = new Bytes().u32(8).u32(12).u32(0x1000).u32(0x2000).u32(0).u32(0).u32(0xff).u32(0x401000)
                .u32(0x7ffd0000L).u32(0).u8(8).u8(5).u8(2).u8(0).get();
        DecodedEvent t = new EventDecoder().decode(TestRecord.builder(KernelSchemas.THREAD).classic().opcode(1)
                .version(3).pointerSize(4).data(thread32).build());
        assertEquals("Windows Kernel/Thread/Start", t.fullName());
        assertEquals(0x401000L, t.field("Win32StartAddr").value());
        assertEquals(8, t.field("BasePriority").value());
        assertEquals(0, t.undecodedLength());
    }

    @Test
    void stackWalkFramesFillTheRestOfTheEvent() {
        byte[] data = new Bytes().u64(123).u32(4).u32(8).u64(0xfffff80000001000L).u64(0x7ff600001234L).get();
        DecodedEvent e = new EventDecoder().decode(TestRecord.builder(KernelSchemas.STACK_WALK).classic().opcode(32)
                .version(2).data(data).build());
        assertEquals("Windows Kernel/StackWalk/Stack", e.fullName());
        assertEquals(List.of(0xfffff80000001000L, 0x7ff600001234L), e.field("Stack").value());
    }
}
