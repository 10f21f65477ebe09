package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.internal.EventFormatterAccess;
import org.etw4j.consumer.output.JsonWriter;
import org.etw4j.consumer.testing.TestRecord;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;

/**
 * {@link EventView} against {@link DecodedEvent}: for every record of every corpus file (CLR files also with
 * ClrEtwAll.man, and every event also as a {@link TraceContext} presents it) and for synthetic vectors of every
 * {@link InType} in every shape (scalar, mapped, length, count, to-the-end array, optional, struct, truncated), the
 * view's copy, header, texts, JSON values, typed getters and array elements equal the decoded event's, exactly.
 */
class EventViewTest {

    private static final Guid SYNTHETIC = Guid.parse("5e1f0000-0000-4000-8000-00000000e7e7");

    @Test
    void everyCorpusRecordReadsExactlyAsItsDecodedEvent() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(SharedData.resolve("etl-corpus"))) {
            files = s.filter(p -> p.toString().endsWith(".etl")).sorted().toList();
        }
        Path clr = SharedData.resolve("manifests/ClrEtwAll.man");
        Map<String, String> inPlace = new TreeMap<>();
        long total = 0;
        for (Path file : files) {
            for (boolean withManifest : new boolean[] {false, true}) {
                if (withManifest && !isClrFile(file)) {
                    continue;
                }
                long[] counts = compareFile(file, withManifest ? clr : null);
                total += counts[0];
                inPlace.put(file.getFileName() + (withManifest ? " +ClrEtwAll.man" : ""),
                        counts[1] + "/" + counts[0]);
            }
        }
        System.out.println("EventView: records read in place per file: " + inPlace);
        assertTrue(total > 300_000, "records compared: " + total);
        // the point of the view: most records of the large kernel and CLR files are read in place
        assertMostlyInPlace(inPlace.get("airbus__ShutdownPerfDiagLogger.etl"));
        assertMostlyInPlace(inPlace.get("perfview__net.4.5.2.x64.etl"));
        assertMostlyInPlace(inPlace.get("perfview__net.4.5.2.x64.etl +ClrEtwAll.man"));
    }

    private static void assertMostlyInPlace(String counts) {
        String[] p = counts.split("/");
        assertTrue(Long.parseLong(p[0]) * 10 >= Long.parseLong(p[1]) * 8, "in place: " + counts);
    }

    private static boolean isClrFile(Path file) {
        String n = file.getFileName().toString();
        return n.contains("net.4.5.2") || n.contains("gcevents") || n.contains("clrRundown") || n.contains("smallEtl");
    }

    /** Compares every record of {@code file}; returns {records, records read in place}. */
    private static long[] compareFile(Path file, Path manifest) throws IOException {
        // separate decoders (in-band manifests and metadata are harvested as they come: same order, same state)
        EventDecoder full = new EventDecoder(registry(manifest));
        EventView view = new EventView(new EventDecoder(registry(manifest)));
        TraceContext context = new TraceContext();
        EventDecoder learner = new EventDecoder(registry(manifest));
        EtlRecordEvent r = new EtlRecordEvent();
        try (EtlFile etl = EtlFile.open(file)) {
            EtlCursor c = etl.cursor();
            while (c.advance()) {
                context.learn(r.of(c.record()), learner);
            }
            c = etl.cursor();
            long records = 0;
            long inPlace = 0;
            while (c.advance()) {
                r.of(c.record());
                String where = file.getFileName() + " record " + records;
                DecodedEvent e = full.decode(r);
                view.decode(r);
                if (view.isInPlace()) {
                    inPlace++;
                }
                assertViewEquals(e, view, where);
                context.present(r, view);
                assertViewEquals(context.present(r, e), view, where + " (presented)");
                records++;
            }
            return new long[] {records, inPlace};
        }
    }

    private static ManifestRegistry registry(Path manifest) throws IOException {
        ManifestRegistry m = new ManifestRegistry();
        if (manifest != null) {
            m.register(manifest);
        }
        return m;
    }

    /** Everything the view says about the event equals what {@code e} says. */
    static void assertViewEquals(DecodedEvent e, EventView v, String where) {
        assertViewEquals(e, v, where, false);
    }

    private static boolean deepEquals(Object a, Object b) {
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!deepEquals(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return Objects.deepEquals(a, b);
    }

    /** {@code refusals}: also check that the getters of other types refuse (slow: exceptions). */
    static void assertViewEquals(DecodedEvent e, EventView v, String where, boolean refusals) {
        DecodedEvent copy = v.copy();
        if (!e.equals(copy)) {
            // EventField.equals compares arrays of binaries (lists of byte[]) by identity: compare them deeply
            assertEquals(EventFormatterAccess.json(e), EventFormatterAccess.json(copy), where + ": copy()");
            assertEquals(e.fields().size(), copy.fields().size(), where);
            for (int i = 0; i < e.fields().size(); i++) {
                EventField a = e.fields().get(i);
                EventField b = copy.fields().get(i);
                assertTrue(deepEquals(a.value(), b.value()) && a.equals(new EventField(b.name(), b.inType(), b.outType(), a.value(), b.label(),
                                b.error(), b.raw(), b.labelKind())),
                        where + ": copy() field " + i + ": " + a + " vs " + b);
            }
        }
        assertEquals(e.providerId(), v.providerId(), where);
        assertEquals(e.providerName(), v.providerName(), where);
        assertEquals(e.eventName(), v.eventName(), where);
        assertEquals(e.taskName(), v.taskName(), where);
        assertEquals(e.opcodeName(), v.opcodeName(), where);
        assertEquals(e.eventId(), v.eventId(), where);
        assertEquals(e.version(), v.version(), where);
        assertEquals(e.opcode(), v.opcode(), where);
        assertEquals(e.source(), v.source(), where);
        assertEquals(e.payloadLength(), v.payloadLength(), where);
        assertEquals(e.notes(), v.notes(), where);
        assertEquals(e.process(), v.process(), where);
        assertEquals(e.undecodedLength(), v.undecodedLength(), where);
        assertEquals(FieldText.hex(e.undecoded()), v.appendUndecodedHex(new StringBuilder()).toString(), where);
        if (e.message() != null || v.message() != null) {
            assertEquals(e.message(), v.message(), where + ": message");
        }
        assertEquals(e.fields().size(), v.fieldCount(), where + ": field count");
        for (int i = 0; i < v.fieldCount(); i++) {
            assertFieldEquals(e.fields().get(i), v, i, where + " field " + i, refusals);
        }
    }

    private static void assertFieldEquals(EventField f, EventView v, int i, String w, boolean refusals) {
        String where = w + " (" + f.name() + ")";
        assertEquals(f.name(), v.fieldName(i), where);
        assertEquals(i, v.indexOf(f.name()) == i ? i : firstIndexOf(v, f.name(), i), where);
        assertEquals(f.inType(), v.inType(i), where);
        assertEquals(f.outType(), v.outType(i), where);
        assertEquals(f.label(), v.label(i), where);
        assertEquals(f.labelKind(), v.labelKind(i), where);
        assertEquals(f.error(), v.error(i), where);
        assertArrayEquals(f.raw(), v.raw(i), where);
        assertEquals(f.ntPath(), v.ntPath(i), where);
        assertEquals(f.flagNames(), v.flagNames(i), where);
        if (!f.equals(v.field(i))) {
            assertTrue(deepEquals(f.value(), v.field(i).value()), where);
        }
        assertEquals(FieldText.display(f), v.appendText(i, new StringBuilder()).toString(), where + ": text");
        assertEquals(FieldText.display(f), v.appendText(i, (Appendable) new StringBuilder()).toString(), where);
        assertEquals(FieldText.value(f, f.value()), v.appendValue(i, new StringBuilder()).toString(), where);
        assertTrue(deepEquals(f.value(), v.getValue(i)), where + ": value " + v.getValue(i));
        assertEquals(json(f), json(v, i), where + ": JSON");
        Long asLong = f.error() == null ? f.asLong() : null;
        assertEquals(asLong != null, v.isInteger(i), where + ": isInteger");
        if (asLong != null) {
            assertEquals((long) asLong, v.getLong(i), where);
        } else if (refusals) {
            assertThrows(IllegalStateException.class, () -> v.getLong(i), where);
        }
        Object value = f.value();
        if (value instanceof Double d) {
            assertEquals(Double.doubleToRawLongBits(d), Double.doubleToRawLongBits(v.getDouble(i)), where);
        } else if (refusals) {
            assertThrows(IllegalStateException.class, () -> v.getDouble(i), where);
        }
        if (value instanceof Boolean b) {
            assertEquals(b, v.getBoolean(i), where);
        } else if (refusals) {
            assertThrows(IllegalStateException.class, () -> v.getBoolean(i), where);
        }
        assertEquals(value instanceof String s ? s : null, v.getString(i), where);
        if (value instanceof List<?> l) {
            assertTrue(v.isArray(i), where);
            assertEquals(l.size(), v.elementCount(i), where);
            for (int j = 0; j < l.size(); j++) {
                Object o = l.get(j);
                if (o instanceof Integer || o instanceof Long) {
                    assertEquals(((Number) o).longValue(), v.getLong(i, j), where + " element " + j);
                } else if (o instanceof Boolean b) {
                    assertEquals(b ? 1L : 0L, v.getLong(i, j), where + " element " + j);
                } else if (o instanceof Double d) {
                    assertEquals(Double.doubleToRawLongBits(d), Double.doubleToRawLongBits(v.getDouble(i, j)),
                            where + " element " + j);
                }
            }
        } else {
            assertFalse(v.isArray(i), where);
            assertEquals(-1, v.elementCount(i), where);
        }
    }

    private static int firstIndexOf(EventView v, String name, int i) {
        int first = v.indexOf(name);
        assertTrue(first >= 0 && first < i, "indexOf finds an earlier field of the same name");
        return i;
    }

    private static String json(EventField f) {
        StringBuilder sb = new StringBuilder();
        JsonWriter w = new JsonWriter(sb).beginArray();
        DecodedEventJson.writeValue(w, f, f.value(), s -> w.value("struct " + s));
        w.endArray();
        return sb.toString();
    }

    private static String json(EventView v, int i) {
        StringBuilder sb = new StringBuilder();
        JsonWriter w = new JsonWriter(sb).beginArray();
        DecodedEventJson.writeValue(w, v, i, s -> w.value("struct " + s));
        w.endArray();
        return sb.toString();
    }

    // ------------------------------------------------------------------------------------- synthetic vectors

    /** Out types tried with every in type: none, hexadecimal, the ones that change the value, UTF-8. */
    private static final List<OutType> OUT_TYPES = List.of(OutType.NULL, OutType.HEXINT32, OutType.BOOLEAN,
            OutType.PORT, OutType.IPV4, OutType.IPV6, OutType.SOCKET_ADDRESS, OutType.UTF8, OutType.STRING);

    private static final ValueMap NAMES = ValueMap.of("Names", false, 0, "Zero", 1, "One", 2, "Two", 0x10, "Sixteen");
    private static final ValueMap FLAGS = ValueMap.of("Flags", true, 1, "A", 2, "B", 4, "C");

    @Test
    void syntheticVectorsOfEveryInTypeInEveryShapeReadExactlyAsDecoded() {
        Map<ProviderManifest.EventKey, EventSchema> events = new HashMap<>();
        List<EventSchema> schemas = new ArrayList<>();
        int id = 1;
        Set<InType> types = EnumSet.allOf(InType.class);
        types.remove(InType.STRUCT); // TraceLogging's marker, never a template type
        for (InType t : types) {
            for (OutType out : OUT_TYPES) {
                for (List<FieldSpec> template : shapes(t, out)) {
                    EventSchema s = new EventSchema(SYNTHETIC, "Synthetic", id, 0, 0, 0, "T" + id, "", "T" + id,
                            null, template, Map.of("Names", NAMES, "Flags", FLAGS), SchemaSource.MANIFEST);
                    events.put(new ProviderManifest.EventKey(id, 0), s);
                    schemas.add(s);
                    id++;
                }
            }
        }
        ManifestRegistry registry = new ManifestRegistry();
        registry.register(new ProviderManifest(SYNTHETIC, "Synthetic", events, Map.of(), SchemaSource.MANIFEST));
        EventDecoder decoder = new EventDecoder(registry);
        EventView view = new EventView(decoder);
        Random random = new Random(11);
        int inPlace = 0;
        int compared = 0;
        for (EventSchema s : schemas) {
            for (byte[] payload : payloads(random)) {
                for (int pointerSize : new int[] {4, 8}) {
                    TestRecord r = TestRecord.builder(SYNTHETIC).id(s.eventId()).pointerSize(pointerSize)
                            .data(payload).build();
                    DecodedEvent e = decoder.decode(r);
                    view.decode(r);
                    inPlace += view.isInPlace() ? 1 : 0;
                    compared++;
                    assertViewEquals(e, view, s.fields() + " over " + FieldText.hex(payload) + " ptr " + pointerSize,
                            true);
                }
            }
        }
        System.out.println("EventView synthetic vectors: " + compared + " compared, " + inPlace + " in place");
        // both modes are exercised: random payloads often fail to decode (full decoder), the rest is read in place
        assertTrue(inPlace > compared / 5 && inPlace < compared, "in place: " + inPlace + " of " + compared);
    }

    /** Templates with one field of type {@code t} in each shape, after a u8 {@code N} that lengths and counts name. */
    private static List<List<FieldSpec>> shapes(InType t, OutType out) {
        DataSpec n = DataSpec.of("N", InType.UINT8);
        List<List<FieldSpec>> l = new ArrayList<>();
        l.add(List.of(new DataSpec("V", t, out, null, null, null)));
        l.add(List.of(new DataSpec("V", t, out, "Names", null, null)));
        l.add(List.of(new DataSpec("V", t, out, "Flags", null, null), DataSpec.of("V", InType.UINT8)));
        l.add(List.of(new DataSpec("V", t, out, null, SizeRule.of(3), null)));
        l.add(List.of(n, new DataSpec("V", t, out, null, SizeRule.ref("N"), null)));
        l.add(List.of(new DataSpec("V", t, out, null, null, SizeRule.of(2))));
        l.add(List.of(n, new DataSpec("V", t, out, null, null, SizeRule.ref("N"))));
        l.add(List.of(n, new DataSpec("V", t, out, null, null, SizeRule.ref("Missing"))));
        l.add(List.of(n, new DataSpec("V", t, out, null, null, SizeRule.toEnd())));
        l.add(List.of(n, new DataSpec("V", t, out, null, null, null, true)));
        l.add(List.of(new StructSpec("S", List.of(n, new DataSpec("V", t, out, null, null, null)), SizeRule.none())));
        return l;
    }

    /** Random payloads biased to zeros (terminators, small counts), and texts no random bytes would make. */
    private static List<byte[]> payloads(Random random) {
        List<byte[]> l = new ArrayList<>();
        for (int k = 0; k < 8; k++) {
            byte[] b = new byte[random.nextInt(40)];
            for (int i = 0; i < b.length; i++) {
                b[i] = random.nextInt(3) == 0 ? (byte) random.nextInt(256) : random.nextInt(4) == 0 ? (byte) 1 : 0;
            }
            l.add(b);
        }
        l.add(new byte[0]);
        l.add(new Bytes().u8(2).raw("ab".getBytes(StandardCharsets.UTF_16LE)).u16(0).u32(7).get());
        l.add(new Bytes().u8(3).raw("a\uD83D\uDE00".getBytes(StandardCharsets.UTF_16LE)).u16(0).get()); // pair
        l.add(new Bytes().u8(1).u16(0xD800).u16('x').u16(0).u16(0).get()); // lone high surrogate
        l.add(new Bytes().u8(2).u8(0x80).u8(0xE9).u8('a').u8(0).u64(-1L).get()); // windows-1252
        l.add(new Bytes().u8(2).raw("é\n\r".getBytes(StandardCharsets.UTF_8)).u8(0).u64(-2L).get()); // UTF-8, breaks
        l.add(new Bytes().u8(1).raw(new byte[] {1, 2, 0, 0, 0, 0, 0, 5, 0x15, 0, 0, 0, 0x20, 0, 0, 0}).u32(0).get()); // SID
        l.add(new Bytes().u8(0xff).u64(Long.MIN_VALUE).u64(0x01d1f2c3b4a59687L).u64(-1).u64(1).get());
        l.add(new Bytes().u8(2).u16(0x07E0).u16(8).u16(3).u16(17).u16(23).u16(30).u16(22).u16(37)
                .u16(0x07E0).u16(13).u16(3).u16(17).u16(23).u16(30).u16(22).u16(37).get()); // SYSTEMTIME ok, bad
        return l;
    }

    // ------------------------------------------------------------------------------------- contract

    @Test
    void theViewIsReusedAndCopiesOutliveIt() {
        EventSchema s = new EventSchema(SYNTHETIC, "Synthetic", 1, 0, 0, 0, "Task", "", "Task", "%1 and %2",
                List.of(DataSpec.of("A", InType.UINT32), DataSpec.of("B", InType.UNICODE_STRING)), Map.of(),
                SchemaSource.MANIFEST);
        ManifestRegistry registry = new ManifestRegistry();
        registry.register(new ProviderManifest(SYNTHETIC, "Synthetic", Map.of(new ProviderManifest.EventKey(1, 0), s),
                Map.of(), SchemaSource.MANIFEST));
        EventView view = new EventView(new EventDecoder(registry));
        assertSame(view, view.decode(TestRecord.builder(SYNTHETIC).id(1)
                .data(new Bytes().u32(7).utf16z("seven").get()).build()));
        assertTrue(view.isInPlace());
        DecodedEvent first = view.copy();
        view.decode(TestRecord.builder(SYNTHETIC).id(1).data(new Bytes().u32(8).utf16z("eight").get()).build());
        assertEquals(8, view.getLong(0));
        assertEquals("eight", view.getString(1));
        assertEquals("7 and seven", first.message());
        assertEquals("8 and eight", view.message());
        assertNull(view.getString(0));
        assertThrows(IndexOutOfBoundsException.class, () -> view.getLong(2));
        assertThrows(IllegalStateException.class, () -> view.getLong(0, 0));
        assertThrows(IllegalStateException.class, () -> EventView.forDecodedEvents().decode(
                TestRecord.builder(SYNTHETIC).id(1).data(new byte[0]).build()));
    }
}
