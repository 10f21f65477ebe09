package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.etw4j.Guid;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.testing.TestRecord;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;

class TdhMetadataTest {

    static final Guid PROVIDER = Guid.parse("cccccccc-2222-3333-4444-555555555555");

    /** Builds a TRACE_EVENT_INFO blob (layout: see {@link TdhMetadata}). */
    static byte[] eventInfo() {
        String[] strings = {"Prov-A", "My Task", "win:Start", "Count", "Ids", "Flags", "Name", "FlagMap"};
        int props = 4;
        int stringsAt = 112 + props * 24;
        int[] offsets = new int[strings.length];
        ByteArrayOutputStream str = new ByteArrayOutputStream();
        for (int i = 0; i < strings.length; i++) {
            offsets[i] = stringsAt + str.size();
            str.writeBytes((strings[i] + "\0").getBytes(StandardCharsets.UTF_16LE));
        }
        ByteBuffer b = ByteBuffer.allocate(stringsAt + str.size()).order(ByteOrder.LITTLE_ENDIAN);
        PROVIDER.writeTo(b, 0);
        b.putShort(32, (short) 7).put(34, (byte) 2).put(37, (byte) 1).putShort(38, (short) 3);
        b.putInt(48, 0).putInt(52, offsets[0]).putInt(68, offsets[1]).putInt(72, offsets[2]);
        b.putInt(100, props).putInt(104, props);
        // Count: u32
        prop(b, 0, 0, offsets[3], 8, 0, 0, 1, 0);
        // Ids: u64[Count] (PropertyParamCount, count index 0)
        prop(b, 1, TdhMetadata.PROPERTY_PARAM_COUNT, offsets[4], 10, 0, 0, 0, 0);
        // Flags: u32 with map FlagMap
        prop(b, 2, 0, offsets[5], 8, 0, offsets[7], 1, 0);
        // Name: UnicodeString
        prop(b, 3, 0, offsets[6], 1, 0, 0, 1, 0);
        b.put(stringsAt, str.toByteArray());
        return b.array();
    }

    static void prop(ByteBuffer b, int i, int flags, int name, int in, int out, int map, int count, int len) {
        int at = 112 + 24 * i;
        b.putInt(at, flags).putInt(at + 4, name).putShort(at + 8, (short) in).putShort(at + 10, (short) out)
                .putInt(at + 12, map).putShort(at + 16, (short) count).putShort(at + 18, (short) len);
    }

    static byte[] mapInfo() {
        String[] strings = {"FlagMap", "A ", "B"};
        int entries = 2;
        int at = 16 + entries * 8;
        ByteArrayOutputStream str = new ByteArrayOutputStream();
        int[] off = new int[strings.length];
        for (int i = 0; i < strings.length; i++) {
            off[i] = at + str.size();
            str.writeBytes((strings[i] + "\0").getBytes(StandardCharsets.UTF_16LE));
        }
        ByteBuffer b = ByteBuffer.allocate(16 + at + str.size()).order(ByteOrder.LITTLE_ENDIAN);
        PROVIDER.writeTo(b, 0);
        b.putInt(16, off[0]).putInt(20, 2).putInt(24, entries);
        b.putInt(32, off[1]).putInt(36, 1).putInt(40, off[2]).putInt(44, 4);
        b.put(16 + at, str.toByteArray());
        return b.array();
    }

    @Test
    void traceEventInfoBecomesASchemaAndMapsApply() {
        EventDecoder d = new EventDecoder();
        DecodedEvent meta = d.decode(TestRecord.builder(TdhMetadata.METADATA_CLASS).classic()
                .opcode(TdhMetadata.OPCODE_EVENT_INFO).data(eventInfo()).build());
        assertEquals("KernelTraceControl/MetaData/EventInfo", meta.fullName());
        assertEquals("Prov-A/MyTask/Start", meta.field("Event").value());
        DecodedEvent map = d.decode(TestRecord.builder(TdhMetadata.METADATA_CLASS).classic()
                .opcode(TdhMetadata.OPCODE_EVENT_MAP_INFO).data(mapInfo()).build());
        assertEquals("FlagMap", map.field("MapName").value());

        byte[] payload = new Bytes().u32(2).u64(10).u64(11).u32(5).utf16z("n").get();
        DecodedEvent e = d.decode(TestRecord.builder(PROVIDER).id(7).version(2).opcode(1).task(3).data(payload).build());
        assertEquals("Prov-A/MyTask/Start", e.fullName());
        assertEquals(SchemaSource.TDH_METADATA, e.source());
        assertEquals(List.of(10L, 11L), e.field("Ids").value());
        assertEquals("A|B", e.field("Flags").label(), "labels trimmed, bit map");
        assertEquals("n", e.field("Name").value());
        assertEquals(0, e.undecodedLength());
    }

    @Test
    void malformedBlobsAreReportedNotThrown() {
        EventDecoder d = new EventDecoder();
        byte[] bad = eventInfo();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(100, 100_000);
        DecodedEvent meta = d.decode(TestRecord.builder(TdhMetadata.METADATA_CLASS).classic()
                .opcode(TdhMetadata.OPCODE_EVENT_INFO).data(bad).build());
        assertFalse(meta.notes().isEmpty());
        assertEquals(1, d.manifests().problems().size());
        assertEquals(0, d.manifests().metadataSize());
    }

    /** net.4.5.2.x64.etl carries TDH metadata for OS providers (Kernel-Process, Kernel-File, DNS-Client ...). */
    @Test
    void realTraceMetadataDecodesOsProviders() throws IOException {
        EventDecoder d = new EventDecoder();
        Map<String, Integer> byProvider = new TreeMap<>();
        int errors = 0;
        try (EtlFile etl = EtlFile.open(SharedData.resolve("etl-corpus/perfview__net.4.5.2.x64.etl"))) {
            EtlCursor c = etl.cursor();
            EtlRecordEvent r = new EtlRecordEvent();
            while (c.advance()) {
                DecodedEvent e = d.decode(r.of(c.record()));
                if (e.source() == SchemaSource.TDH_METADATA) {
                    byProvider.merge(e.providerName(), 1, Integer::sum);
                    errors += e.hasFieldErrors() ? 1 : 0;
                }
            }
        }
        assertEquals(List.of(), d.manifests().problems());
        assertTrue(d.manifests().metadataSize() > 0);
        for (String p : List.of("Microsoft-Windows-Kernel-Process", "Microsoft-Windows-Kernel-File",
                "Microsoft-Windows-DNS-Client", "Microsoft-Windows-Kernel-EventTracing")) {
            assertNotNull(byProvider.get(p), p + " in " + byProvider);
        }
        assertEquals(0, errors);
    }
}
