package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.etl.HeaderKind;
import org.etw4j.consumer.testing.TestRecord;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;

/**
 * The CLR events TraceEvent's ClrTraceEventParser, ClrRundownTraceEventParser and ClrPrivateTraceEventParser know
 * (the generated list {@code clr-traceevent.txt}, microsoft/perfview f3ec1b38) against ClrEtwAll.man as published
 * ({@code ../shared/manifests}): an event is a gap when TraceEvent reads payload properties that no template of that
 * event id in the manifest has. Every gap is either decoded through etw4j's built-in CLR supplement (a registry
 * holding the manifest then has every property TraceEvent reads for that id, and each supplement template of the id
 * decodes a synthetic record of its own layout with both pointer sizes, under TraceEvent's task/opcode name, with
 * every value read back where it was written)
 * or listed in {@link #PENDING} with why. Prints the coverage.
 */
class ClrTraceEventTableTest {

    /** Gaps the supplement does not fill yet: (provider/id) to why. */
    private static final Map<String, String> PENDING = pending();

    private static Map<String, String> pending() {
        // every gap of microsoft/perfview f3ec1b38 is filled; an entry here names the event and the reason it
        // cannot be decoded
        return new TreeMap<>();
    }

    /**
     * Properties TraceEvent's shared payload class reads for other versions or providers than this event's
     * ((provider/id).property to why): not expected from this event's templates.
     */
    private static final Map<String, String> OTHER_VERSIONS = otherVersions();

    private static Map<String, String> otherVersions() {
        Map<String, String> m = new TreeMap<>();
        String priv = "763fd754-7086-4dfe-95eb-c01a46faf4ca/";
        String pub = "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4/";
        // GCPerHeapHistoryTraceData serves the private id 4 (versions 0 and 2, .NET 4.0-4.5.2) and the public id 204
        // (version 3+, .NET 4.6+); it reads these only for the versions named
        for (String n : List.of("FreeListAllocated", "FreeListRejected", "EndOfSegAllocated", "CondemnedAllocated",
                "PinnedAllocated", "PinnedAllocatedAdvance", "RunningFreeListEfficiency", "Count")) {
            m.put(priv + "4." + n, "version 3 only (the public id 204)");
        }
        m.put(priv + "4.ConcurrentCompactMechanisms", "version 0 of .NET 4.0 only (TraceEvent's MinorVersion 2)");
        m.put(pub + "204.ConcurrentCompactMechanisms", "version 0 of .NET 4.0 only (the private id 4)");
        m.put(pub + "204.MemoryPressure", "versions 0 and 2 only (the private id 4)");
        // GCGlobalHeapHistoryTraceData serves the private id 5 (version 1) and the public id 205 (versions 2-4)
        for (String n : List.of("PauseMode", "MemoryPressure", "CondemnReasons0", "CondemnReasons1", "Count")) {
            m.put(priv + "5." + n, "versions 2-4 only (the public id 205)");
        }
        // the runtime manifest's GCMarkWithType calls the promoted byte count Bytes; TraceEvent Promoted
        m.put(pub + "202.Promoted", "the runtime manifest's field Bytes (same bytes, its name)");
        return m;
    }

    /**
     * Events whose TraceEvent payload-name list is not in payload order ((provider/id) to why): their supplement
     * layout follows the offsets TraceEvent reads, which the order check cannot see.
     */
    private static final Map<String, String> ORDER_DIFFERS = Map.of(
            "763fd754-7086-4dfe-95eb-c01a46faf4ca/4", "GCPerHeapHistoryTraceData lists ClrInstanceID first and "
                    + "MemoryPressure last, but reads version 2's values back from the end of the payload in the "
                    + "order the supplement's ETW4J_GCPerHeapHistory_V2 lays out (see its comment; a real 433-byte "
                    + ".NET 4.5.2 record uses every byte: privatePerHeapHistoryOfDotNet452DecodesEveryByte)");

    record Entry(Guid provider, int id, String name, String payloadClass, List<String> read) {
        String key() {
            return provider + "/" + id;
        }
    }

    @Test
    void everyClrEventTraceEventReadsAndTheManifestLacksIsDecodedThroughTheSupplement() throws IOException {
        ManifestRegistry registry = new ManifestRegistry();
        List<ProviderManifest> published = registry.register(SharedData.resolve("manifests/ClrEtwAll.man"));
        Map<Guid, ProviderManifest> raw = new LinkedHashMap<>();
        published.forEach(p -> raw.put(p.guid(), p));
        List<Entry> entries = entries();
        List<String> gaps = new ArrayList<>();
        List<String> decoded = new ArrayList<>();
        Map<String, String> notDecoded = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (Entry e : entries) {
            Set<String> inManifest = names(raw.get(e.provider()), e.id());
            List<String> missing = e.read().stream().filter(n -> !inManifest.contains(n))
                    .filter(n -> !OTHER_VERSIONS.containsKey(e.key() + "." + n)).toList();
            if (missing.isEmpty()) {
                continue;
            }
            String label = e.key() + " " + e.name() + " (" + e.payloadClass() + ")";
            gaps.add(label);
            ProviderManifest supplement = ClrSupplement.provider(e.provider());
            Set<String> withSupplement = names(registry.provider(e.provider()), e.id());
            withSupplement.addAll(names(supplement, e.id()));
            List<String> stillMissing = missing.stream().filter(n -> !withSupplement.contains(n)).toList();
            if (!stillMissing.isEmpty()) {
                notDecoded.put(label, "the supplement lacks " + stillMissing);
                continue;
            }
            for (EventSchema s : supplement.schemas()) {
                if (s.eventId() == e.id()) {
                    for (int ptr : new int[] {4, 8}) {
                        problems.addAll(roundTrip(registry, s, ptr, e.name()));
                    }
                    problems.addAll(inTraceEventsOrder(s, e));
                }
            }
            decoded.add(label);
        }
        System.out.printf("TraceEvent CLR events (ClrTraceEventParser, ClrRundownTraceEventParser, "
                + "ClrPrivateTraceEventParser, microsoft/perfview f3ec1b38): %d known, %d with properties "
                + "ClrEtwAll.man does not describe, %d of those decoded through the CLR supplement%n",
                entries.size(), gaps.size(), decoded.size());
        decoded.forEach(d -> System.out.println("  decoded: " + d));
        notDecoded.forEach((k, v) -> System.out.println("  not decoded: " + k + ": " + v));
        assertEquals(List.of(), problems);
        Map<String, String> pendingFound = new TreeMap<>();
        notDecoded.keySet().forEach(k -> pendingFound.put(k.substring(0, k.indexOf(' ')),
                PENDING.getOrDefault(k.substring(0, k.indexOf(' ')), "NOT LISTED")));
        assertEquals(PENDING.keySet(), pendingFound.keySet(), "gaps not decoded must be the listed ones: "
                + notDecoded);
        assertTrue(decoded.stream().anyMatch(d -> d.startsWith("763fd754-7086-4dfe-95eb-c01a46faf4ca/4 ")),
                "the private GC/PerHeapHistory of .NET 4.5 is decoded: " + decoded);
    }

    /**
     * The private GC/PerHeapHistory version 2 of a real .NET 4.5.2 64-bit trace (net.4.5.2.x64, 264 events of 433
     * bytes) decodes with every byte used, and with the values TraceEvent printed for it on Windows
     * ({@code expected/traceevent/net.4.5.2.x64.baseline.txt} samples a few: ClrInstanceID=9, CondemnReasons0=0,
     * CondemnReasons1=0, CompactMechanisms and ExpandMechanisms not_specified, HeapIndex=0, ExtraGen0Commit=0,
     * MemoryPressure=0; zeros, so the value check is weak, the exact byte use is the strong one). It printed no
     * field here before: ClrEtwAll.man's template is empty.
     */
    @Test
    void privatePerHeapHistoryOfDotNet452DecodesEveryByte() throws IOException {
        ManifestRegistry registry = new ManifestRegistry();
        registry.register(SharedData.resolve("manifests/ClrEtwAll.man"));
        EventDecoder decoder = new EventDecoder(registry);
        Guid priv = Guid.parse("763fd754-7086-4dfe-95eb-c01a46faf4ca");
        List<DecodedEvent> events = new ArrayList<>();
        try (EtlFile etl = EtlFile.open(SharedData.resolve("etl-corpus/perfview__net.4.5.2.x64.etl"))) {
            EtlCursor c = etl.cursor();
            EtlRecordEvent adapter = new EtlRecordEvent();
            while (c.advance()) {
                if (c.record().kind() != HeaderKind.EVENT_HEADER) {
                    continue;
                }
                EtlRecordEvent r = adapter.of(c.record());
                if (r.providerId().equals(priv) && r.id() == 4 && r.version() == 2) {
                    events.add(decoder.decode(r));
                }
            }
        }
        assertEquals(264, events.size());
        for (DecodedEvent e : events) {
            assertEquals("Microsoft-Windows-DotNETRuntimePrivate/GC/PerHeapHistory", e.fullName());
            assertEquals(SchemaSource.BUILT_IN, e.source());
            assertTrue(!e.hasFieldErrors() && e.undecodedLength() == 0, e.toString());
        }
        // the baseline samples a few of them (process 3676, ClrInstanceID 9): all with these values
        assertTrue(events.stream().anyMatch(e -> e.field("ClrInstanceID").asLong() == 9
                && e.field("CondemnReasons0").asLong() == 0 && e.field("CondemnReasons1").asLong() == 0
                && "not_specified".equals(e.field("CompactMechanisms").label())
                && "not_specified".equals(e.field("ExpandMechanisms").label())
                && e.field("HeapIndex").asLong() == 0 && e.field("ExtraGen0Commit").asLong() == 0
                && e.field("MemoryPressure").asLong() == 0), events.get(0).toString());
    }

    /**
     * The fields of supplement template {@code s} that TraceEvent reads come in the order TraceEvent lists them
     * (its payload names follow the payload's offsets), unless {@link #ORDER_DIFFERS} names the case.
     */
    private static List<String> inTraceEventsOrder(EventSchema s, Entry e) {
        Set<String> ours = new HashSet<>();
        addNames(s.fields(), ours);
        List<String> theirs = e.read().stream().filter(ours::contains).toList();
        List<String> order = new ArrayList<>();
        addNames(s.fields(), order);
        order.retainAll(theirs);
        if (order.equals(theirs) || ORDER_DIFFERS.containsKey(e.key())) {
            return List.of();
        }
        return List.of(s.providerName() + "/" + s.eventName() + " id " + s.eventId() + " v" + s.version()
                + ": fields in the order " + order + ", TraceEvent " + theirs);
    }

    /** Top-level and struct member names of every template of {@code id} in {@code m}. */
    private static Set<String> names(ProviderManifest m, int id) {
        Set<String> out = new HashSet<>();
        if (m != null) {
            for (EventSchema s : m.schemas()) {
                if (s.eventId() == id) {
                    addNames(s.fields(), out);
                }
            }
        }
        return out;
    }

    /** Adds top-level and struct member names of {@code fields} to {@code out}, in wire order. */
    private static void addNames(List<FieldSpec> fields, java.util.Collection<String> out) {
        for (FieldSpec f : fields) {
            if (f instanceof DataSpec d) {
                out.add(d.name());
            } else if (f instanceof StructSpec s) {
                out.add(s.name());
                addNames(s.members(), out);
            }
        }
    }

    /**
     * A record of {@code s}'s own layout (numbers: a fill pattern distinct at every offset, counts 1, strings
     * "S" + name) decoded through {@code registry}: no field error, nothing left over, every scalar read back.
     */
    private static List<String> roundTrip(ManifestRegistry registry, EventSchema s, int ptr, String traceEventName) {
        ByteBuffer b = ByteBuffer.allocate(16384).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) (0x31 + i * 13));
        }
        Map<String, Object> written = new LinkedHashMap<>();
        int end = write(b, s.fields(), 0, ptr, written, new LinkedHashMap<>(), new LinkedHashMap<>());
        byte[] payload = new byte[end];
        b.get(0, payload);
        DecodedEvent d = new EventDecoder(registry).decode(TestRecord.builder(s.providerId()).id(s.eventId())
                .version(s.version()).opcode(s.opcode()).task(s.task()).pointerSize(ptr).data(payload).build());
        List<String> problems = new ArrayList<>();
        String where = s.providerName() + "/" + s.eventName() + " id " + s.eventId() + " v" + s.version() + " ptr "
                + ptr + ": ";
        if (d.hasFieldErrors() || d.undecodedLength() != 0 || d.source() == SchemaSource.NONE) {
            problems.add(where + "errors or leftover: " + d);
            return problems;
        }
        String eventName = d.fullName().substring(d.fullName().indexOf('/') + 1);
        if (!eventName.equals(traceEventName)) {
            problems.add(where + "named " + eventName + ", TraceEvent " + traceEventName);
        }
        written.forEach((name, value) -> {
            EventField f = d.field(name);
            Object actual = f == null ? null : f.asLong() != null ? (Object) f.asLong() : String.valueOf(f.value());
            if (!value.equals(actual)) {
                problems.add(where + name + " = " + actual + ", written " + value);
            }
        });
        return problems;
    }

    /** Writes {@code fields} at {@code pos}; scalars at top level are remembered in {@code written}. */
    private static int write(ByteBuffer b, List<FieldSpec> fields, int pos, int ptr, Map<String, Object> written,
                             Map<String, Integer> at, Map<String, Integer> sizes) {
        for (FieldSpec spec : fields) {
            if (spec instanceof StructSpec st) {
                int n = st.count().present() && !st.count().isReference() ? st.count().literal() : 1;
                if (st.count().isReference()) {
                    String count = st.count().fieldName();
                    setCount(b, at.get(count), sizes.get(count), 1);
                    if (written.containsKey(count)) {
                        written.put(count, 1L);
                    }
                }
                for (int i = 0; i < n; i++) {
                    pos = write(b, st.members(), pos, ptr, new LinkedHashMap<>(), new LinkedHashMap<>(),
                            new LinkedHashMap<>());
                }
                continue;
            }
            DataSpec d = (DataSpec) spec;
            at.put(d.name(), pos);
            if (d.count().isReference() || d.length().isReference()) {
                // an empty array (or zero-length value): its count field becomes 0
                String count = d.count().isReference() ? d.count().fieldName() : d.length().fieldName();
                setCount(b, at.get(count), sizes.get(count), 0);
                if (written.containsKey(count)) {
                    written.put(count, 0L);
                }
                continue;
            }
            switch (d.inType()) {
                case UNICODE_STRING -> {
                    byte[] t = ("S" + d.name() + "\0").getBytes(StandardCharsets.UTF_16LE);
                    b.put(pos, t);
                    written.put(d.name(), "S" + d.name());
                    pos += t.length;
                }
                case ANSI_STRING -> {
                    byte[] t = ("S" + d.name() + "\0").getBytes(StandardCharsets.US_ASCII);
                    b.put(pos, t);
                    written.put(d.name(), "S" + d.name());
                    pos += t.length;
                }
                case BOOLEAN -> {
                    b.putInt(pos, 1);
                    written.put(d.name(), 1L);
                    pos += 4;
                }
                default -> {
                    int size = d.length().present() ? d.length().literal() : d.inType().fixedSize(ptr);
                    sizes.put(d.name(), size);
                    if (size == 4 || size == 8 || size == 2 || size == 1) {
                        long v = size == 1 ? b.get(pos) & 0xFFL : size == 2 ? b.getShort(pos) & 0xFFFFL
                                : size == 4 ? b.getInt(pos) & 0xFFFF_FFFFL : b.getLong(pos);
                        if (d.inType() != InType.FLOAT && d.inType() != InType.DOUBLE && d.inType() != InType.GUID
                                && d.inType() != InType.FILETIME && d.inType() != InType.SYSTEMTIME
                                && d.mapName() == null) {
                            written.put(d.name(), signed(d.inType(), v));
                        }
                    }
                    pos += size;
                }
            }
        }
        return pos;
    }

    private static Object signed(InType t, long v) {
        return switch (t) {
            case INT8 -> (long) (byte) v;
            case INT16 -> (long) (short) v;
            case INT32 -> (long) (int) v;
            default -> v;
        };
    }

    /** Sets the count or length field at {@code pos} ({@code size} bytes) to {@code value}. */
    private static void setCount(ByteBuffer b, Integer pos, Integer size, int value) {
        if (pos == null || size == null) {
            return;
        }
        for (int i = 0; i < size; i++) {
            b.put(pos + i, i == 0 ? (byte) value : 0);
        }
    }

    private static List<Entry> entries() throws IOException {
        List<Entry> out = new ArrayList<>();
        try (InputStream in = ClrTraceEventTableTest.class.getResourceAsStream("clr-traceevent.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.startsWith("C ")) {
                    continue;
                }
                String[] p = line.split(" ");
                String read = p[5].substring("read=".length());
                out.add(new Entry(Guid.parse(p[1]), Integer.parseInt(p[2]), p[3], p[4],
                        read.isEmpty() ? List.of() : List.of(read.split(","))));
            }
        }
        return out;
    }
}
