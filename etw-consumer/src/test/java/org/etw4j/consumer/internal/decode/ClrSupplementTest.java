package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.StructValue;
import org.etw4j.consumer.testing.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * etw4j's CLR supplement on its own: its new events decode known payloads, and its names reach events of an older
 * application manifest only as ClrSupplement's precedence rules allow. Self-contained (no ../shared): the "older
 * manifest" is a small inline one shaped like the ClrEtwAll.man in circulation.
 */
class ClrSupplementTest {

    static final Guid CLR = Guid.parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    static final Guid CLR_PRIVATE = Guid.parse("763fd754-7086-4dfe-95eb-c01a46faf4ca");

    /**
     * An old-style manifest: GCSegmentTypeMap names 0..2 only (with our own text for 0, to see that the manifest's
     * names win), NgenBind's ReasonCode has no map, and event 5 v1 of the private provider has a layout that
     * differs from the supplement's GCGlobalHeap_V1 (one field fewer).
     */
    static final String OLD_MANIFEST = """
            <instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events">
             <instrumentation><events>
              <provider name="Microsoft-Windows-DotNETRuntime" guid="{e13c0d23-ccbc-4e12-931b-d9cc2eee27e4}">
               <tasks><task name="GarbageCollection" value="1" message="$(string.gc)"><opcodes>
                 <opcode name="GCCreateSegment" value="134" message="$(string.cs)"/></opcodes></task></tasks>
               <maps><valueMap name="GCSegmentTypeMap">
                 <map value="0x0" message="$(string.soh)"/><map value="0x1" message="$(string.loh)"/>
                 <map value="0x2" message="$(string.roh)"/></valueMap></maps>
               <templates><template tid="GCCreateSegment_V1">
                 <data name="Address" inType="win:UInt64" outType="win:HexInt64"/>
                 <data name="Size" inType="win:UInt64" outType="win:HexInt64"/>
                 <data name="Type" inType="win:UInt32" map="GCSegmentTypeMap"/>
                 <data name="ClrInstanceID" inType="win:UInt16"/></template></templates>
               <events><event value="5" version="1" task="GarbageCollection" opcode="GCCreateSegment"
                 template="GCCreateSegment_V1"/></events>
              </provider>
              <provider name="Microsoft-Windows-DotNETRuntimePrivate" guid="{763FD754-7086-4dfe-95EB-C01A46FAF4CA}">
               <tasks><task name="CLRNgenBinder" value="13" message="$(string.nb)"><opcodes>
                 <opcode name="NgenBind" value="69" message="$(string.nbo)"/></opcodes></task>
                 <task name="GarbageCollectionPrivate" value="1" message="$(string.gc)"><opcodes>
                 <opcode name="GCGlobalHeapHistory" value="18" message="$(string.ghh)"/></opcodes></task></tasks>
               <templates>
                <template tid="NgenBindEvent"><data name="ClrInstanceID" inType="win:UInt16"/>
                  <data name="BindingID" inType="win:UInt64"/><data name="ReasonCode" inType="win:UInt32"/>
                  <data name="AssemblyName" inType="win:UnicodeString"/></template>
                <template tid="ShortGlobalHeap"><data name="FinalYoungestDesired" inType="win:UInt64"/>
                  <data name="NumHeaps" inType="win:Int32"/><data name="CondemnedGeneration" inType="win:UInt32"/>
                  <data name="Gen0ReductionCount" inType="win:UInt32"/><data name="Reason" inType="win:UInt32"/>
                  <data name="GlobalMechanisms" inType="win:UInt32"/></template>
               </templates>
               <events>
                <event value="188" version="0" task="CLRNgenBinder" opcode="NgenBind" template="NgenBindEvent"/>
                <event value="5" version="1" task="GarbageCollectionPrivate" opcode="GCGlobalHeapHistory"
                  template="ShortGlobalHeap"/>
               </events>
              </provider></events></instrumentation>
             <localization><resources culture="en-US"><stringTable>
              <string id="gc" value="GC"/><string id="cs" value="CreateSegment"/><string id="soh" value="SOH (app)"/>
              <string id="loh" value="LargeObjectHeap"/><string id="roh" value="ReadOnlyHeap"/>
              <string id="nb" value="NgenBinder"/><string id="nbo" value="NgenBind"/>
              <string id="ghh" value="GlobalHeapHistory"/>
             </stringTable></resources></localization>
            </instrumentationManifest>""";

    static EventDecoder decoder() throws IOException {
        ManifestRegistry reg = new ManifestRegistry();
        ManifestParser.parse(OLD_MANIFEST.getBytes(StandardCharsets.UTF_8), SchemaSource.MANIFEST)
                .forEach(reg::register);
        return new EventDecoder(reg);
    }

    @Test
    void globalHeapHistoryVersion4DecodesTheGcEventsPayload() throws IOException {
        // The first GC/GlobalHeapHistory of perfview__gcevents.etl (82 bytes); TraceEvent printed
        // FinalYoungestDesired=4,677,560; Reason=Induced; GlobalMechanisms=Compaction, Promotio...;
        // PauseMode=Interactive; MemoryPressure=59; Count=8.
        byte[] payload = HexFormat.of().parseHex("b85f4700000000000100000001000000000000000100000"
                + "01e0000000800010000003b000000000000000000000008000000000000009c0000000000000010000000"
                + "010000009a0000008e000000ffffffff");
        DecodedEvent e = decoder().decode(TestRecord.builder(CLR).id(205).version(4).opcode(205).data(payload)
                .build());
        assertEquals("Microsoft-Windows-DotNETRuntime/GC/GlobalHeapHistory", e.fullName());
        assertEquals(SchemaSource.BUILT_IN, e.source());
        assertEquals(0, e.undecodedLength());
        assertEquals(4_677_560L, ((Number) e.field("FinalYoungestDesired").value()).longValue());
        assertEquals("Induced", e.field("Reason").label());
        assertEquals("Compaction|Promotion|Demotion|CardBundles", e.field("GlobalMechanisms").label());
        assertEquals("Interactive", e.field("PauseMode").label());
        assertEquals(59L, ((Number) e.field("MemoryPressure").value()).longValue());
        List<?> times = (List<?>) e.field("Values").value();
        assertEquals(8, times.size());
        assertEquals(156L, ((Number) ((StructValue) times.get(1)).field("Time").value()).longValue());
    }

    @Test
    void compactMechanismsNameTheReasonBehindTheMechanismMask() throws IOException {
        EventSchema s = ClrSupplement.event(CLR, 204, 3);
        assertNotNull(s);
        ValueMap compact = s.maps().get("ETW4J_GCHeapCompactReasonMap");
        assertEquals("compact_high_frag", compact.label(0x8000_0002L));
        assertEquals("compact_loh_forced", compact.label(0x8000_0008L));
        assertEquals("not_specified", compact.label(0));
    }

    @Test
    void lohCompactKeepsItsPaddedStructArrayUndecoded() throws IOException {
        // perfview__gcevents.etl: ClrInstanceID 8, Count 1, then one 32-byte (padded) etw_loh_compact_info
        byte[] payload = HexFormat.of().parseHex("0800010001000000110000000000000000000000000000000000000000000000"
                + "00000000");
        DecodedEvent e = decoder().decode(TestRecord.builder(CLR).id(208).version(0).opcode(208).data(payload)
                .build());
        assertEquals("Microsoft-Windows-DotNETRuntime/GC/GCLOHCompact", e.fullName());
        assertEquals(8, ((Number) e.field("ClrInstanceID").value()).intValue());
        assertEquals(1, ((Number) e.field("Count").value()).intValue());
        assertEquals(32, e.undecodedLength());
    }

    @Test
    void newerMapEntriesReachTheManifestsEventsWithoutRenamingItsOwn() throws IOException {
        EventDecoder d = decoder();
        byte[] pinned = new Bytes().u64(0x1b0f1000028L).u64(0x1ffffd8L).u32(3).u16(8).get();
        DecodedEvent e = d.decode(TestRecord.builder(CLR).id(5).version(1).opcode(134).data(pinned).build());
        assertEquals(SchemaSource.MANIFEST, e.source(), "the layout is still the manifest's");
        assertEquals("PinnedHeap", e.field("Type").label(), "value 3 named by the supplement");
        byte[] soh = new Bytes().u64(1).u64(2).u32(0).u16(8).get();
        assertEquals("SOH (app)", d.decode(TestRecord.builder(CLR).id(5).version(1).opcode(134).data(soh).build())
                .field("Type").label(), "a value the manifest names keeps the manifest's name");
    }

    @Test
    void unmappedFieldsTakeTheSupplementsMapOnlyForAnIdenticalLayout() throws IOException {
        EventDecoder d = decoder();
        byte[] ngen = new Bytes().u16(9).u64(8_164_512).u32(9).utf16z("mscorlib").get();
        DecodedEvent bind = d.decode(TestRecord.builder(CLR_PRIVATE).id(188).version(0).opcode(69).data(ngen)
                .build());
        assertEquals("Microsoft-Windows-DotNETRuntimePrivate/NgenBinder/NgenBind", bind.fullName());
        assertEquals("REJECT_IL_SIG", bind.field("ReasonCode").label());

        // this manifest's 5 v1 lacks ClrInstanceID: not the supplement's GCGlobalHeap_V1 layout, so no names
        byte[] heap = new Bytes().u64(4_194_304).u32(1).u32(0).u32(0).u32(0).u32(0x14).get();
        DecodedEvent global = d.decode(TestRecord.builder(CLR_PRIVATE).id(5).version(1).opcode(18).data(heap)
                .build());
        assertNull(global.field("Reason").label());
        assertNull(global.field("GlobalMechanisms").label());
    }

    /** The ClrStackWalk template as ClrEtwAll.man declares it (Stack count="2"), in the stress provider. */
    static final String STRESS_MANIFEST = """
            <instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events">
             <instrumentation><events>
              <provider name="Microsoft-Windows-DotNETRuntimeStress" guid="{CC2BCBBA-16B6-4cf3-8990-D74C2E8AF500}">
               <tasks><task name="CLRStackStress" value="11" message="$(string.t)"><opcodes>
                 <opcode name="CLRStackWalk" value="82" message="$(string.o)"/></opcodes></task></tasks>
               <templates>
                <template tid="ClrStackWalk"><data name="ClrInstanceID" inType="win:UInt16"/>
                  <data name="Reserved1" inType="win:UInt8"/><data name="Reserved2" inType="win:UInt8"/>
                  <data name="FrameCount" inType="win:UInt32"/>
                  <data name="Stack" count="2" inType="win:Pointer"/></template>
                <template tid="OtherStack"><data name="ClrInstanceID" inType="win:UInt16"/>
                  <data name="Frames" inType="win:UInt32"/>
                  <data name="Stack" count="2" inType="win:Pointer"/></template>
               </templates>
               <events>
                <event value="1" version="0" task="CLRStackStress" opcode="CLRStackWalk" template="ClrStackWalk"/>
                <event value="1" version="1" task="CLRStackStress" opcode="CLRStackWalk" template="ClrStackWalk"/>
                <event value="2" version="0" task="CLRStackStress" opcode="CLRStackWalk" template="OtherStack"/>
               </events>
              </provider></events></instrumentation>
             <localization><resources culture="en-US"><stringTable>
              <string id="t" value="ClrStack"/><string id="o" value="Walk"/>
             </stringTable></resources></localization>
            </instrumentationManifest>""";

    static final Guid CLR_STRESS = Guid.parse("cc2bcbba-16b6-4cf3-8990-d74c2e8af500");

    /**
     * The manifest's placeholder count="2" of ClrStackWalk's Stack gives way to the supplement's FrameCount
     * (ClrSupplement's "placeholder counts"): all frames decode and the event keeps the manifest's names and
     * source. Keys the supplement has no ClrStackWalk for (version 1, id 2) keep the manifest's literal count.
     */
    @Test
    void placeholderStackCountOfTheManifestGivesWayToFrameCount() throws IOException {
        ManifestRegistry reg = new ManifestRegistry();
        ManifestParser.parse(STRESS_MANIFEST.getBytes(StandardCharsets.UTF_8), SchemaSource.MANIFEST)
                .forEach(reg::register);
        EventDecoder d = new EventDecoder(reg);
        for (int ptr : new int[] {4, 8}) {
            long[] frames = ClrStackWalkTest.frames(5, ptr);
            DecodedEvent e = d.decode(TestRecord.builder(CLR_STRESS).id(1).version(0).task(11).opcode(82)
                    .pointerSize(ptr).data(ClrStackWalkTest.payload(3, 5, frames, ptr)).build());
            assertEquals("Microsoft-Windows-DotNETRuntimeStress/ClrStack/Walk", e.fullName());
            assertEquals(SchemaSource.MANIFEST, e.source());
            ClrStackWalkTest.assertWholeStack(e, frames);
        }
        ProviderManifest m = reg.provider(CLR_STRESS);
        assertEquals("@FrameCount", ((DataSpec) m.event(1, 0).fields().get(4)).count().toString());
        assertEquals("2", ((DataSpec) m.event(1, 1).fields().get(4)).count().toString(),
                "no supplement event of version 1: the manifest's count stays");
        assertEquals("2", ((DataSpec) m.event(2, 0).fields().get(2)).count().toString(),
                "another event of a count-2 Stack: the supplement has no twin, nothing changes");
    }

    /** A manifest of a CLR provider that lacks ClrStackWalk: the supplement's own template decodes it. */
    @Test
    void aManifestWithoutTheStackEventDecodesItWithTheSupplementsTemplate() throws IOException {
        EventDecoder d = decoder(); // OLD_MANIFEST registers the runtime and private providers, no stack event
        long[] frames = ClrStackWalkTest.frames(4, 8);
        DecodedEvent e = d.decode(TestRecord.builder(CLR_PRIVATE).id(151).version(0).task(11).opcode(82)
                .pointerSize(8).data(ClrStackWalkTest.payload(9, 4, frames, 8)).build());
        assertEquals("Microsoft-Windows-DotNETRuntimePrivate/ClrStack/Walk", e.fullName());
        assertEquals(SchemaSource.BUILT_IN, e.source());
        ClrStackWalkTest.assertWholeStack(e, frames);
    }

    /** correctCounts leaves a schema alone when its layout differs from the supplement's twin beyond the count. */
    @Test
    void correctCountsNeedsAnOtherwiseIdenticalLayout() {
        EventSchema twin = ClrSupplement.event(CLR, 82, 0);
        assertNotNull(twin, "the supplement's ClrStackWalk of the runtime provider");
        List<FieldSpec> renamed = new java.util.ArrayList<>(twin.fields());
        DataSpec stack = (DataSpec) renamed.get(4);
        renamed.set(3, new DataSpec("Frames", org.etw4j.consumer.InType.UINT32, stack.outType(), null, SizeRule.none(),
                SizeRule.none(), false));
        renamed.set(4, new DataSpec("Stack", stack.inType(), stack.outType(), null, SizeRule.none(),
                SizeRule.of(2), false));
        EventSchema s = new EventSchema(CLR, "Microsoft-Windows-DotNETRuntime", 82, 0, 11, 82, "ClrStack", "Walk",
                "ClrStack/Walk", null, renamed, java.util.Map.of(), SchemaSource.TDH_METADATA);
        assertSame(s, ClrSupplement.correctCounts(s), "FrameCount is not there: nothing to count by");
    }

    @Test
    void extendLeavesProvidersWithoutSupplementUntouchedAndLayoutsUnchanged() throws IOException {
        List<ProviderManifest> parsed = ManifestParser.parse(EventDecoderTest.MANIFEST.getBytes(
                StandardCharsets.UTF_8), SchemaSource.MANIFEST);
        assertSame(parsed.get(0), ClrSupplement.extend(parsed.get(0)));

        ProviderManifest old = ManifestParser.parse(OLD_MANIFEST.getBytes(StandardCharsets.UTF_8),
                SchemaSource.MANIFEST).get(0);
        ProviderManifest extended = ClrSupplement.extend(old);
        EventSchema before = old.event(5, 1);
        EventSchema after = extended.event(5, 1);
        assertTrue(ClrSupplement.sameLayout(before.fields(), after.fields()));
        assertEquals(before.eventName(), after.eventName());
        assertEquals(4, after.maps().get("GCSegmentTypeMap").entries().size());
        assertNull(extended.event(10, 4), "supplement events are not copied into the manifest");
    }
}
