package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.etl.HeaderKind;
import org.etw4j.consumer.testing.TestRecord;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;

/**
 * The CLR stack event (template ClrStackWalk: ClrInstanceID u16, Reserved1 u8, Reserved2 u8, FrameCount u32, then
 * FrameCount instruction pointers of the record's pointer size) decodes every frame as {@code Stack}, although
 * ClrEtwAll.man declares {@code <data name="Stack" count="2" inType="win:Pointer"/>}: the runtime writes
 * FrameCount pointers (dotnet/runtime src/coreclr/inc/eventtracebase.h, ETW::SamplingLog::SendStackTrace: the fifth
 * data descriptor is {@code sizeof(PVOID) * FrameCount} bytes) and TraceEvent reads them all
 * (microsoft/perfview f3ec1b38, src/TraceEvent/Parsers/ClrTraceEventParser.cs, ClrStackWalkTraceData:
 * {@code InstructionPointer(i)} at {@code 8 + i * PointerSize} for {@code i < FrameCount}). Before the fix only two
 * frames were decoded and the rest of the payload was left undecoded.
 */
class ClrStackWalkTest {

    static final Guid RUNTIME = Guid.parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    static final Guid RUNDOWN = Guid.parse("a669021c-c450-4609-a035-5af59af4df18");
    static final Guid STRESS = Guid.parse("cc2bcbba-16b6-4cf3-8990-d74c2e8af500");
    static final Guid PRIVATE = Guid.parse("763fd754-7086-4dfe-95eb-c01a46faf4ca");

    /** The four events of template ClrStackWalk in ClrEtwAll.man: (provider, id, task, opcode). */
    record Publisher(String name, Guid provider, int id, int task, int opcode) {
    }

    static final List<Publisher> PUBLISHERS = List.of(
            new Publisher("runtime", RUNTIME, 82, 11, 82),   // ClrEtwAll.man line 2569, task CLRStack
            new Publisher("rundown", RUNDOWN, 0, 11, 82),    // line 3526, task CLRStackRundown
            new Publisher("stress", STRESS, 1, 11, 82),      // line 3843, task CLRStackStress
            new Publisher("private", PRIVATE, 151, 11, 82)); // line 5573, task CLRStackPrivate

    /** A ClrStackWalk payload: ClrInstanceID, Reserved1, Reserved2, FrameCount, then {@code frames} pointers. */
    static byte[] payload(int clrInstanceId, int frameCount, long[] frames, int pointerSize) {
        ByteBuffer b = ByteBuffer.allocate(8 + frames.length * pointerSize).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) clrInstanceId).put((byte) 0).put((byte) 0).putInt(frameCount);
        for (long f : frames) {
            if (pointerSize == 8) {
                b.putLong(f);
            } else {
                b.putInt((int) f);
            }
        }
        return b.array();
    }

    static long[] frames(int n, int pointerSize) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = pointerSize == 8 ? 0x7ff8_1234_0000L + i * 0x111L : 0x7400_0000L + i * 0x111L;
        }
        return out;
    }

    static List<Long> stack(DecodedEvent e) {
        EventField f = e.field("Stack");
        assertNotNull(f, "no Stack field: " + e);
        assertFalse(f.hasError(), f.toString());
        List<Long> out = new ArrayList<>();
        for (Object o : (List<?>) f.value()) {
            out.add(((Number) o).longValue());
        }
        return out;
    }

    static void assertWholeStack(DecodedEvent e, long[] written) {
        assertFalse(e.hasFieldErrors(), e.toString());
        assertEquals(0, e.undecodedLength(), "nothing left undecoded: " + e);
        assertEquals(written.length, e.field("FrameCount").asLong());
        List<Long> expected = new ArrayList<>();
        for (long w : written) {
            expected.add(w);
        }
        assertEquals(expected, stack(e));
    }

    static EventDecoder withClrEtwAll() throws IOException {
        ManifestRegistry registry = new ManifestRegistry();
        registry.register(SharedData.resolve("manifests/ClrEtwAll.man"));
        return new EventDecoder(registry);
    }

    @Test
    void everyPublisherDecodesFrameCountFramesWithBothPointerSizes() throws IOException {
        EventDecoder d = withClrEtwAll();
        for (Publisher p : PUBLISHERS) {
            for (int ptr : new int[] {4, 8}) {
                for (int n : new int[] {0, 1, 2, 3, 67}) {
                    long[] frames = frames(n, ptr);
                    DecodedEvent e = d.decode(TestRecord.builder(p.provider()).id(p.id()).version(0)
                            .task(p.task()).opcode(p.opcode()).pointerSize(ptr)
                            .data(payload(11, n, frames, ptr)).build());
                    assertEquals(SchemaSource.MANIFEST, e.source(), p + " ptr " + ptr);
                    assertTrue(e.fullName().endsWith("/Walk"), e.fullName());
                    assertWholeStack(e, frames);
                    assertEquals(11L, e.field("ClrInstanceID").asLong());
                }
            }
        }
    }

    @Test
    void aFrameCountBeyondThePayloadIsAFieldErrorNotASilentCut() throws IOException {
        long[] frames = frames(3, 8);
        DecodedEvent e = withClrEtwAll().decode(TestRecord.builder(RUNTIME).id(82).version(0).task(11).opcode(82)
                .pointerSize(8).data(payload(9, 5, frames, 8)).build());
        assertTrue(e.field("Stack").hasError(), e.toString());
        assertTrue(e.field("Stack").error().contains("element 3 of 5"), e.field("Stack").error());
    }

    /**
     * The TRACE_EVENT_INFO TDH gives for the runtime's stack event from ClrEtwAll.man (layout: see
     * {@link TdhMetadata}): Stack with a fixed count of 2, as in the trace's metadata and the live machine's TDH.
     */
    static byte[] stackWalkEventInfo() {
        String[] strings = {"Microsoft-Windows-DotNETRuntime", "CLRStack", "CLRStackWalk", "ClrInstanceID",
            "Reserved1", "Reserved2", "FrameCount", "Stack"};
        int props = 5;
        int stringsAt = 112 + props * 24;
        int[] at = new int[strings.length];
        java.io.ByteArrayOutputStream str = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < strings.length; i++) {
            at[i] = stringsAt + str.size();
            str.writeBytes((strings[i] + "\0").getBytes(java.nio.charset.StandardCharsets.UTF_16LE));
        }
        ByteBuffer b = ByteBuffer.allocate(stringsAt + str.size()).order(ByteOrder.LITTLE_ENDIAN);
        RUNTIME.writeTo(b, 0);
        b.putShort(32, (short) 82).put(34, (byte) 0).put(37, (byte) 82).putShort(38, (short) 11);
        b.putInt(52, at[0]).putInt(68, at[1]).putInt(72, at[2]);
        b.putInt(100, props).putInt(104, props);
        int[] inTypes = {6, 4, 4, 8, 16}; // TDH_INTYPE_UINT16, UINT8, UINT8, UINT32, POINTER
        for (int i = 0; i < props; i++) {
            TdhMetadataTest.prop(b, i, 0, at[3 + i], inTypes[i], 0, 0, i == 4 ? 2 : 1, 0);
        }
        b.put(stringsAt, str.toByteArray());
        return b.array();
    }

    static TestRecord stackWalk(int ptr, long[] frames) {
        return TestRecord.builder(RUNTIME).id(82).version(0).task(11).opcode(82).pointerSize(ptr)
                .data(payload(9, frames.length, frames, ptr)).build();
    }

    /**
     * That TRACE_EVENT_INFO fed in-band as a merged trace's TDH metadata: the event decodes FrameCount frames as
     * with the manifest. Self-contained twin of the corpus test's metadata half.
     */
    @Test
    void inTraceTdhMetadataWithTheCountTwoTemplateDecodesEveryFrame() {
        EventDecoder d = new EventDecoder();
        d.decode(TestRecord.builder(TdhMetadata.METADATA_CLASS).classic().opcode(TdhMetadata.OPCODE_EVENT_INFO)
                .data(stackWalkEventInfo()).build());
        for (int ptr : new int[] {4, 8}) {
            long[] frames = frames(7, ptr);
            DecodedEvent e = d.decode(stackWalk(ptr, frames));
            assertEquals("Microsoft-Windows-DotNETRuntime/CLRStack/CLRStackWalk", e.fullName());
            assertEquals(SchemaSource.TDH_METADATA, e.source());
            assertWholeStack(e, frames);
        }
    }

    /** The same TRACE_EVENT_INFO as the live machine's TDH answer (no manifest given to etw4j): every frame too. */
    @Test
    void liveTdhWithTheCountTwoTemplateDecodesEveryFrame() {
        FakeLiveRecord.Machine machine = new FakeLiveRecord.Machine().event(82, 0, 82, stackWalkEventInfo());
        EventDecoder d = new EventDecoder();
        for (int ptr : new int[] {4, 8}) {
            long[] frames = frames(12, ptr);
            DecodedEvent e = d.decode(machine.live(stackWalk(ptr, frames)));
            assertEquals(SchemaSource.TDH_LIVE, e.source());
            assertWholeStack(e, frames);
        }
    }

    /**
     * perfview__net.4.5.2.x64.etl holds 14,983 runtime stack events, 87 of the 32-bit PerfView process (4-byte
     * pointers) and 14,896 of the 64-bit Test.x64: with ClrEtwAll.man, and with the in-trace TDH metadata alone
     * (which carries the same count-2 template), every one decodes FrameCount frames and no byte is left over.
     * The first frames of the first event of each process are pinned as read from the payload bytes.
     */
    @Test
    void corpusStackWalksDecodeEveryFrameWithTheManifestAndWithInTraceMetadata() throws IOException {
        for (boolean manifest : new boolean[] {true, false}) {
            EventDecoder d = manifest ? withClrEtwAll() : new EventDecoder();
            int thirtyTwo = 0;
            int sixtyFour = 0;
            DecodedEvent first32 = null;
            DecodedEvent first64 = null;
            try (EtlFile etl = EtlFile.open(SharedData.resolve("etl-corpus/perfview__net.4.5.2.x64.etl"))) {
                EtlCursor c = etl.cursor();
                EtlRecordEvent adapter = new EtlRecordEvent();
                while (c.advance()) {
                    EtlRecordEvent r = adapter.of(c.record());
                    if (c.record().kind() != HeaderKind.EVENT_HEADER) {
                        if (r.providerId().equals(TdhMetadata.METADATA_CLASS)) {
                            d.decode(r); // harvests the trace's TDH metadata
                        }
                        continue;
                    }
                    if (!r.providerId().equals(RUNTIME) || r.id() != 82) {
                        continue;
                    }
                    DecodedEvent e = d.decode(r);
                    assertFalse(e.hasFieldErrors(), e.toString());
                    assertEquals(0, e.undecodedLength(), e.toString());
                    assertEquals(e.field("FrameCount").asLong(), (long) stack(e).size(), e.toString());
                    if (r.pointerSize() == 4) {
                        thirtyTwo++;
                        first32 = first32 == null ? e : first32;
                    } else {
                        sixtyFour++;
                        first64 = first64 == null ? e : first64;
                    }
                }
            }
            String how = manifest ? "with ClrEtwAll.man" : "with the trace's TDH metadata";
            assertEquals(87, thirtyTwo, how);
            assertEquals(14_896, sixtyFour, how);
            assertEquals(manifest ? SchemaSource.MANIFEST : SchemaSource.TDH_METADATA, first32.source(), how);
            List<Long> s32 = stack(first32);
            assertEquals(67, s32.size(), how);
            assertEquals(List.of(0x748b4d88L, 0x749312f8L, 0x74930b5dL), s32.subList(0, 3), how);
            assertEquals(0x7776ac3cL, s32.get(66), how);
            List<Long> s64 = stack(first64);
            assertEquals(9, s64.size(), how);
            assertEquals(List.of(0x7f9be52041dL, 0x7f9be5236e2L, 0x7f9be521f4bL), s64.subList(0, 3), how);
            assertEquals(0x7f9d030c3f1L, s64.get(8), how);
        }
    }
}
