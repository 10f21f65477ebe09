package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.etw4j.Guid;
import org.junit.jupiter.api.Test;

/**
 * The layouts added from public documentation: kernel SystemConfig/SysConfig classes and the CLR supplement.
 * Their agreement with TraceEvent on real traces is checked by {@link TraceEventBaselineTest}; these tests pin the
 * byte layouts and the version boundaries on synthetic payloads.
 */
class DocumentedSupplementsTest {

    private static final Guid CLR = Guid.parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void utf16z(ByteBuffer b, String s) {
        b.put(s.getBytes(StandardCharsets.UTF_16LE)).putShort((short) 0);
    }

    private static Map<String, Object> decode(EventSchema s, ByteBuffer data) {
        data.flip();
        PayloadDecoder.Result r = PayloadDecoder.decode(s.fields(), s.maps(), data, 8);
        assertEquals(data.remaining(), r.consumed(), "the layout reads the whole payload");
        java.util.LinkedHashMap<String, Object> m = new java.util.LinkedHashMap<>();
        r.fields().forEach(f -> m.put(f.name(), f.value()));
        return m;
    }

    @Test
    void volumeMappingIsTwoNullTerminatedStrings() {
        EventSchema s = KernelSchemas.builtIn().find(KernelSchemas.SYS_CONFIG, 35, 2).schema();
        assertNotNull(s);
        assertEquals("SysConfig/VolumeMapping", s.eventName());
        ByteBuffer b = le(64);
        utf16z(b, "\\Device\\HarddiskVolume1\\");
        utf16z(b, "C:\\");
        assertEquals(Map.of("NtPath", "\\Device\\HarddiskVolume1\\", "DosPath", "C:\\"), decode(s, b));
    }

    @Test
    void logDiskFixedArraysKeepTheirDocumentedWidth() {
        EventSchema s = KernelSchemas.builtIn().find(KernelSchemas.SYSTEM_CONFIG, 12, 3).schema();
        assertNotNull(s);
        ByteBuffer b = le(112);
        b.putLong(368_050_176L).putLong(135_996_112_896L).putInt(0).putInt(112).putInt(1);
        b.put("C:".getBytes(StandardCharsets.UTF_16LE)).put(new byte[4]); // DriveLetterString[4]
        b.putInt(0).putInt(2).putInt(8).putInt(512).putInt(0).putLong(29_898_381L).putLong(33_202_175L);
        b.put("NTFS".getBytes(StandardCharsets.UTF_16LE)).put(new byte[24]); // FileSystem[16]
        b.putInt(0).putInt(0);
        Map<String, Object> v = decode(s, b);
        assertEquals("C:", v.get("DriveLetterString"));
        assertEquals("NTFS", v.get("FileSystem"));
        assertEquals(33_202_175L, ((Number) v.get("TotalNumberOfClusters")).longValue());
        assertEquals(512L, ((Number) v.get("BytesPerSector")).longValue());
    }

    @Test
    void pnpVersion4HasItsOwnLayoutWithClassGuidAndFilterArrays() {
        KernelSchemas k = KernelSchemas.builtIn();
        assertEquals("IDLength", k.find(KernelSchemas.SYSTEM_CONFIG, 22, 3).schema().fields().get(0).name(),
                "v2/v3 keep the MS Learn layout");
        EventSchema v4 = k.find(KernelSchemas.SYSTEM_CONFIG, 22, 4).schema();
        Guid serialPorts = Guid.parse("4d36e978-e325-11ce-bfc1-08002be10318");
        ByteBuffer b = le(200);
        b.put(serialPorts.toWindowsBytes()).putInt(2).putInt(0);
        for (String s : new String[] {"ACPI\\PNP0501\\1", "Communications Port", "COM1", "\\Device\\0000002b",
                "Serial", "serenum", "extra"}) {
            utf16z(b, s);
        }
        Map<String, Object> v = decode(v4, b);
        assertEquals(serialPorts, v.get("ClassGuid"));
        assertEquals("Serial", v.get("ServiceName"));
        assertEquals(List.of("serenum", "extra"), v.get("UpperFilters"), "the count field sizes the array");
        assertEquals(List.of(), v.get("LowerFilters"));

        EventSchema v5 = k.find(KernelSchemas.SYSTEM_CONFIG, 22, 5).schema();
        ByteBuffer b5 = le(200);
        b5.put(serialPorts.toWindowsBytes()).putInt(0).putInt(0).putInt(0x180200a).putInt(0);
        for (String s : new String[] {"id", "desc", "", "pdo", "svc"}) {
            utf16z(b5, s);
        }
        Map<String, Object> v5v = decode(v5, b5);
        assertEquals(0x180200aL, ((Number) v5v.get("DevStatus")).longValue());
        assertEquals("id", v5v.get("DeviceID"), "strings start after DevStatus and DevProblem (offset 32)");
    }

    @Test
    void clrSupplementHasTheDocumentedHeapStatsV2AndMarkWithType() {
        EventSchema heapStats = ClrSupplement.event(CLR, 4, 2);
        assertNotNull(heapStats);
        assertEquals("GC/HeapStats", heapStats.eventName());
        assertEquals(List.of("ClrInstanceID", "GenerationSize4", "TotalPromotedSize4"),
                heapStats.fields().subList(13, 16).stream().map(FieldSpec::name).toList());
        EventSchema mark = ClrSupplement.event(CLR, 202, 0);
        assertNotNull(mark);
        ByteBuffer b = le(18);
        b.putInt(3).putShort((short) 8).putInt(2).putLong(24);
        Map<String, Object> v = decode(mark, b);
        assertEquals(List.of("HeapNum", "ClrInstanceID", "Type", "Bytes"), List.copyOf(v.keySet()));
        assertEquals(24L, ((Number) v.get("Bytes")).longValue());
        assertNull(ClrSupplement.event(CLR, 4, 1), "versions the manifest has are not supplemented");
    }
}
