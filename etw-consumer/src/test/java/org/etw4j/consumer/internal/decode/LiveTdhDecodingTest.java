package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.testing.TestRecord;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.junit.jupiter.api.Test;

/**
 * The decoder's last resort for live records: the consuming machine's TDH schema (through
 * {@code RawEventRecord.eventInformation()}), asked for only when nothing else describes the event, once per
 * kind, never throwing.
 */
class LiveTdhDecodingTest {
    private static final Guid PROVIDER = TdhMetadataTest.PROVIDER;
    /** Count u32, Ids u64[Count], Flags u32 (bit map FlagMap: 1 A, 4 B), Name UTF-16z: see TdhMetadataTest. */
    private static final byte[] PAYLOAD = new Bytes().u32(2).u64(10).u64(11).u32(5).utf16z("n").get();

    private static FakeLiveRecord.Machine machine() {
        byte[] withGuid = TdhMetadataTest.mapInfo();
        return new FakeLiveRecord.Machine().event(7, 2, 1, TdhMetadataTest.eventInfo())
                .map("FlagMap", Arrays.copyOfRange(withGuid, 16, withGuid.length)); // TDH's map has no GUID prefix
    }

    private static TestRecord event7() {
        return TestRecord.builder(PROVIDER).id(7).version(2).opcode(1).task(3).data(PAYLOAD).build();
    }

    @Test
    void anEventNothingElseDescribesDecodesWithTheMachinesTdhSchemaAndMaps() {
        FakeLiveRecord.Machine m = machine();
        DecodedEvent e = new EventDecoder().decode(m.live(event7()));
        assertEquals(SchemaSource.TDH_LIVE, e.source());
        assertEquals("Prov-A/MyTask/Start", e.fullName());
        assertEquals(2L, e.field("Count").value());
        assertEquals(List.of(10L, 11L), e.field("Ids").value());
        assertEquals(5L, e.field("Flags").value());
        assertEquals("A|B", e.field("Flags").label(), "the bit map came from TdhGetEventMapInformation");
        assertEquals("n", e.field("Name").value());
        assertEquals(0, e.undecodedLength());
        assertEquals(List.of(), e.notes());
    }

    @Test
    void tdhIsAskedOncePerKindAndTheSchemaServesLaterRecordsAndCopies() {
        FakeLiveRecord.Machine m = machine();
        EventDecoder d = new EventDecoder();
        for (int i = 0; i < 5; i++) {
            assertEquals(SchemaSource.TDH_LIVE, d.decode(m.live(event7())).source());
        }
        // a copy (cannot ask) of a kind already known decodes from the cache
        assertEquals(SchemaSource.TDH_LIVE, d.decode(m.live(event7()).end()).source());
        assertEquals(1, m.eventCalls.get());
        assertEquals(1, m.mapCalls.get(), "maps are read once, with the schema");
    }

    @Test
    void tdhIsNotAskedForEventsAnotherSchemaDescribes() throws IOException {
        FakeLiveRecord.Machine m = machine();
        EventDecoder d = EventDecoderTest.decoderWithDemo();
        // manifest registered with the decoder
        byte[] v1 = new Bytes().u32(1).utf16z("abc").u16(9).get();
        DecodedEvent manifest = d.decode(m.live(TestRecord.builder(EventDecoderTest.PROVIDER).id(7).version(1)
                .opcode(1).data(v1).build()));
        assertEquals(SchemaSource.MANIFEST, manifest.source());
        // an older template of the manifest (version fallback) also counts as a schema
        assertEquals(SchemaSource.MANIFEST, d.decode(m.live(TestRecord.builder(EventDecoderTest.PROVIDER).id(7)
                .version(5).opcode(1).data(v1).build())).source());
        // TraceLogging
        TraceLoggingEvent def = TraceLoggingEvent.builder("Hello").field("count", org.etw4j.tracelogging.InType.INT32).build();
        DecodedEvent tl = d.decode(m.live(TestRecord.builder(PROVIDER).id(7).version(2).opcode(1)
                .data(new Bytes().u32(3).get()).ext(EventHeaderLayout.EXT_EVENT_SCHEMA_TL, def.metadata()).build()));
        assertEquals(SchemaSource.TRACELOGGING, tl.source());
        // a classic kernel event with a built-in layout
        DecodedEvent kernel = d.decode(m.live(TestRecord.builder(KernelSchemas.THREAD).classic().opcode(36).version(2)
                .data(new byte[24]).build()));
        assertEquals(SchemaSource.KERNEL_MOF, kernel.source(), kernel.toString());
        assertEquals(0, m.eventCalls.get(), "TDH was asked about an event that had a schema");
    }

    @Test
    void notFoundLeavesTheEventUndecodedWithANoteAndIsNotAskedAgain() {
        FakeLiveRecord.Machine m = new FakeLiveRecord.Machine();
        EventDecoder d = new EventDecoder();
        TestRecord r = TestRecord.builder(PROVIDER).id(9).data(new byte[] {1, 2, 3}).build();
        DecodedEvent first = d.decode(m.live(r));
        DecodedEvent second = d.decode(m.live(r));
        for (DecodedEvent e : List.of(first, second)) {
            assertEquals(SchemaSource.NONE, e.source());
            assertArrayEquals(new byte[] {1, 2, 3}, e.undecoded());
            assertEquals(2, e.notes().size(), e.notes().toString());
            assertTrue(e.notes().get(0).startsWith("no schema for provider"), e.notes().toString());
            assertTrue(e.notes().get(1).contains("ERROR_NOT_FOUND"), e.notes().toString());
        }
        assertEquals(1, m.eventCalls.get());
    }

    @Test
    void recordsThatCannotAskAreNotRememberedAsUnknown() {
        FakeLiveRecord.Machine m = machine();
        EventDecoder d = new EventDecoder();
        DecodedEvent copy = d.decode(m.live(event7()).end());
        assertEquals(SchemaSource.NONE, copy.source());
        assertEquals(List.of("no schema for provider " + PROVIDER), copy.notes(), "no TDH note: it was not asked");
        assertEquals(SchemaSource.NONE, d.decode(event7()).source(), "a plain (file) record cannot ask either");
        assertEquals(0, m.eventCalls.get());
        assertEquals(SchemaSource.TDH_LIVE, d.decode(m.live(event7())).source(), "a live record still asks");
    }

    @Test
    void tdhFailuresAndMalformedAnswersBecomeNotesNotExceptions() {
        byte[] bad = TdhMetadataTest.eventInfo();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(100, 100_000); // property count past the blob
        FakeLiveRecord.Machine m = new FakeLiveRecord.Machine()
                .failing(9, 0, 0, new IllegalStateException("TdhGetEventInformation failed: ERROR_WMI_SERVER_UNAVAILABLE"))
                .event(10, 0, 0, bad);
        EventDecoder d = new EventDecoder();
        DecodedEvent failed = d.decode(m.live(TestRecord.builder(PROVIDER).id(9).data(new byte[] {1}).build()));
        assertEquals(SchemaSource.NONE, failed.source());
        assertTrue(failed.notes().get(1).contains("TDH lookup failed") && failed.notes().get(1).contains("WMI"),
                failed.notes().toString());
        DecodedEvent malformed = d.decode(m.live(TestRecord.builder(PROVIDER).id(10).data(new byte[] {1}).build()));
        assertEquals(SchemaSource.NONE, malformed.source());
        assertTrue(malformed.notes().get(1).contains("malformed"), malformed.notes().toString());
        d.decode(m.live(TestRecord.builder(PROVIDER).id(9).data(new byte[] {1}).build()));
        assertEquals(2, m.eventCalls.get(), "a failing kind is not asked again");
    }

    @Test
    void aMissingMapLeavesNumbersAndANote() {
        FakeLiveRecord.Machine m = new FakeLiveRecord.Machine().event(7, 2, 1, TdhMetadataTest.eventInfo());
        DecodedEvent e = new EventDecoder().decode(m.live(event7()));
        assertEquals(SchemaSource.TDH_LIVE, e.source());
        assertEquals(5L, e.field("Flags").value());
        assertNull(e.field("Flags").label());
        assertEquals(1, e.notes().size());
        assertTrue(e.notes().get(0).contains("FlagMap"), e.notes().toString());
    }

    @Test
    void aClassicEventWithoutBuiltInLayoutDecodesWithTdhsMofSchema() {
        Guid eventClass = Guid.parse("dddddddd-2222-3333-4444-555555555555");
        byte[] mof = TdhMetadataTest.eventInfo();
        ByteBuffer b = ByteBuffer.wrap(mof).order(ByteOrder.LITTLE_ENDIAN);
        eventClass.writeTo(b, 16); // EventGuid
        b.putInt(48, 1);           // DecodingSource: WBEM (MOF)
        FakeLiveRecord.Machine m = new FakeLiveRecord.Machine().event(0, 2, 1, mof);
        DecodedEvent e = new EventDecoder().decode(m.live(TestRecord.builder(eventClass).classic().version(2).opcode(1)
                .data(PAYLOAD).build()));
        assertEquals(SchemaSource.TDH_LIVE, e.source());
        assertEquals(eventClass, e.providerId());
        assertEquals(List.of(10L, 11L), e.field("Ids").value());
        assertEquals(1, m.eventCalls.get());
    }

    @Test
    void theCacheAnswersFromMemoryAndPlainRecordsGetNoAnswer() {
        LiveTdhSchemas cache = new LiveTdhSchemas();
        FakeLiveRecord.Machine m = machine();
        LiveTdhSchemas.Answer a = cache.find(m.live(event7()), PROVIDER);
        assertSame(a, cache.find(m.live(event7()), PROVIDER));
        assertEquals(1, cache.size());
        assertEquals(1, cache.asked());
        Guid other = Guid.parse("eeeeeeee-2222-3333-4444-555555555555");
        assertNull(cache.find(TestRecord.builder(other).id(1).build(), other));
        assertEquals(1, cache.size());
    }
}
