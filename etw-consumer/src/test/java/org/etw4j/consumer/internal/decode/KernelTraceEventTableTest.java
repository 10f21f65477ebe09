package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.StructValue;
import org.etw4j.consumer.testing.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * Every classic kernel event TraceEvent's {@code KernelTraceEventParser} knows (the generated list
 * {@code kernel-traceevent.txt}, microsoft/perfview f3ec1b38), at every version its payload class asserts and with
 * 4- and 8-byte pointers, decoded from a synthetic record: the event name is TraceEvent's, every payload property
 * TraceEvent reads comes out under its name, in offset order, with the value at TraceEvent's offset. The two
 * Kernel-Memory manifest events it registers alongside decode through etw4j's built-in {@link KernelMemorySchemas}.
 * Layouts with bytes TraceEvent reads no field from name them {@code UnreadN} and their events' notes say so. Prints
 * the coverage (entries known, entries decoded, how many with such notes) and lists what is not decoded with the
 * reason.
 */
class KernelTraceEventTableTest {

    /**
     * Hand-written layouts (KernelSchemas, from MS Learn and checked against the corpus) that name a field
     * differently from TraceEvent: (payload class, TraceEvent name) to ours, each with its reason. Nothing else is
     * forgiven.
     */
    private static final Map<String, String> RENAMED = Map.ofEntries(
            // MS Learn Process_V2_TypeGroup2 names the second field PageFaultCount; TraceEvent MemoryCount
            Map.entry("ProcessCtrTraceData.MemoryCount", "PageFaultCount"),
            // MS Learn Thread_V3_TypeGroup1 has Affinity where V2 had StartAddr; TraceEvent keeps StartAddr
            Map.entry("ThreadTraceData.StartAddr", "Affinity"),
            // MS Learn CSwitch: PreviousCState and SpareByte; TraceEvent reads the same two bytes as quantums
            Map.entry("CSwitchTraceData.NewThreadQuantum", "PreviousCState"),
            Map.entry("CSwitchTraceData.OldThreadQuantum", "SpareByte"),
            // MS Learn FileIo_Name: FileObject; TraceEvent FileKey (the same pointer)
            Map.entry("FileIONameTraceData.FileKey", "FileObject"),
            // MS Learn FileIo_Create: OpenPath; TraceEvent FileName
            Map.entry("FileIOCreateTraceData.FileName", "OpenPath"),
            // MS Learn ReadyThread: Flag; TraceEvent Flags
            Map.entry("DispatcherReadyThreadTraceData.Flags", "Flag"),
            // the 8-bit string of Process version 1 (an XP layout written by hand from TraceEvent's getters):
            // TraceEvent's KernelImageFileName property, ImageFileName as in the hand-written versions 2-4 (its
            // ImageFileName property converts that kernel path)
            Map.entry("ProcessTraceData.KernelImageFileName", "ImageFileName"));

    /**
     * TraceEvent facts at the right place whose value is, by design, not the raw bytes (field, reason): checked
     * for presence and position only.
     */
    private static final Map<String, String> VALUE_DIFFERS = Map.of(
            // both mask the low 24 bits and give the high byte as CreateDisposition (KernelFieldNames), the
            // extracted fact is the unmasked read
            "FileIOCreateTraceData.CreateOptions", "low 24 bits, as TraceEvent's own getter");

    /**
     * TraceEvent facts that disagree with the layout MS Learn documents (field, the disagreement): the hand-written
     * layout follows MS Learn; these are checked for presence only.
     */
    private static final Map<String, String> OUT_OF_ORDER = Map.of(
            "TcpIpTraceData.connid", "MS Learn TcpIp_TypeGroup1: seqnum then connid; TraceEvent's TcpIpTraceData "
                    + "reads connid at 20 and seqnum after it, while its TcpIpV6TraceData and TcpIpSendTraceData "
                    + "read seqnum first; no corpus record tells (all are zero)",
            "TcpIpTraceData.seqnum", "see connid",
            "TcpIpV6TraceData.connid", "MS Learn TcpIp_TypeGroup2: seqnum then connid; TraceEvent reads connid at 44",
            "TcpIpV6TraceData.seqnum", "see connid",
            "SystemConfigCPUTraceData.HyperThreadingFlag", "MS Learn SystemConfig_CPU: DomainName Max(132) "
                    + "characters, so the flag is at 796; TraceEvent reads DomainName as 134 characters from "
                    + "version 2 and the flag at 800");

    /**
     * TraceEvent properties that read the payload but are not separate fields of our layout (field, why): checked
     * only to be absent.
     */
    private static final Map<String, String> NOT_A_FIELD = Map.of(
            "SampledProfileTraceData.Priority", "TraceEvent derives it from bits of the byte our layout (MS Learn "
                    + "SampledProfile) reads as part of Reserved",
            "SampledProfileTraceData.ExecutingDPC", "a bit of Reserved, as Priority",
            "SampledProfileTraceData.ExecutingISR", "a bit of Reserved, as Priority",
            "SampledProfileTraceData.Rank", "a bit field of Reserved, as Priority",
            "UdpIpTraceData.context", "TraceEvent's XP-era reading: a pointer over PID and size of the version-2 "
                    + "layout (MS Learn UdpIp_TypeGroup1)",
            "UdpIpTraceData.dsize", "TraceEvent's XP-era reading over the version-2 sport (MS Learn UdpIp_TypeGroup1)");

    private final KernelTraceEventTable table = KernelTraceEventTable.get();
    private final EventDecoder decoder = new EventDecoder();

    @Test
    void everyKernelEventTraceEventKnowsDecodesAtTraceEventsOffsets() {
        int known = 0;
        int decoded = 0;
        Map<String, String> withNotes = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        Map<String, String> undecoded = new LinkedHashMap<>();
        for (KernelTraceEventTable.Entry e : table.entries()) {
            for (int version : table.versions(e.payloadClass())) {
                known++;
                if (e.kind() == 'K' && table.unversioned(e.payloadClass())) {
                    // TraceEvent reads every version alike: check the version the layout starts at
                    version = KernelSchemas.builtIn().firstVersion(e.guid(), e.opcode());
                }
                String why = e.kind() == 'K' ? KernelSchemas.builtIn().whyUndecoded(e.guid(), e.opcode(), version)
                        : KernelMemorySchemas.schema(e.opcode(), version) == null ? "no built-in layout" : null;
                if (why != null) {
                    undecoded.put(e.eventName() + " (opcode " + e.opcode() + ") v" + version, why);
                    continue;
                }
                List<String> problems = new ArrayList<>();
                for (int ptr : new int[] {4, 8}) {
                    problems.addAll(check(e, version, ptr));
                }
                String note = e.kind() == 'K' ? note(e, version) : null;
                if (note != null) {
                    withNotes.put(e.eventName() + " (opcode " + e.opcode() + ") v" + version, note);
                }
                if (problems.isEmpty()) {
                    decoded++;
                } else {
                    failures.add(e.eventName() + " v" + version + " (" + e.payloadClass() + "): " + problems);
                }
            }
        }
        System.out.printf("TraceEvent kernel events (KernelTraceEventParser, microsoft/perfview f3ec1b38): %d known "
                + "(template x version), %d decoded and checked with 4- and 8-byte pointers, %d not decoded%n",
                known, decoded, undecoded.size());
        System.out.printf("  of the decoded, %d have bytes TraceEvent reads no field from, named UnreadN and said in "
                + "the event's notes%n", withNotes.size());
        withNotes.forEach((k, v) -> System.out.println("  decoded with a note: " + k + ": " + v));
        undecoded.forEach((k, v) -> System.out.println("  not decoded: " + k + ": " + v));
        assertEquals(List.of(), failures, String.join("\n", failures));
        assertEquals(known, decoded + undecoded.size());
    }

    /**
     * The records of Kernel-Memory ProcessMemInfo (id 2) and of the classic Memory/ProcessMemInfo (opcode 125), both
     * read by TraceEvent's MemoryProcessMemInfoTraceData, at the offsets its MemoryProcessMemInfoValues reads
     * (ProcessID at the record's start, pointer-sized value k at 4 + k x pointer size; records ElementSize =
     * HostOffset(5 x 4, 4) apart, HostOffset(9 x 4, 8) from version 2), with both pointer sizes.
     */
    @Test
    void kernelMemoryProcessMemInfoRecordsAtTraceEventsOffsets() {
        for (int version : new int[] {0, 2}) {
            for (int ptr : new int[] {4, 8}) {
                for (boolean classic : new boolean[] {false, true}) {
                    TestRecord.Builder record = classic
                            ? TestRecord.builder(Guid.parse("3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c")).classic()
                                    .opcode(125)
                            : TestRecord.builder(KernelMemorySchemas.PROVIDER).id(2);
                    checkProcessMemInfo(record, classic, version, ptr);
                }
            }
        }
    }

    private void checkProcessMemInfo(TestRecord.Builder record, boolean classic, int version, int ptr) {
        int values = version >= 2 ? 8 : 4;
        int element = 4 + values * ptr;
        ByteBuffer b = ByteBuffer.allocate(4 + 2 * element).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) (0x21 + i * 7));
        }
        b.putInt(0, 2);
        DecodedEvent d = decoder.decode(record.version(version).pointerSize(ptr).data(b.array()).build());
        String where = (classic ? "classic " : "") + "v" + version + " ptr " + ptr + ": ";
        assertEquals(classic ? "Windows Kernel/Memory/ProcessMemInfo"
                : "Microsoft-Windows-Kernel-Memory/MemoryProcessMemInfo", d.fullName(), where);
        assertTrue(!d.hasFieldErrors() && d.undecodedLength() == 0, where + d);
        @SuppressWarnings("unchecked")
        List<StructValue> records = (List<StructValue>) d.field("Values").value();
        assertEquals(2, records.size(), where);
        List<String> names = List.of("WorkingSetPageCount", "CommitPageCount", "VirtualSizeInPages",
                "PrivateWorkingSetPageCount", "StoreSizePageCount", "StoredPageCount", "CommitDebtInPages",
                "SharedCommitInPages");
        for (int i = 0; i < 2; i++) {
            int base = 4 + i * element;
            StructValue r = records.get(i);
            assertEquals(b.getInt(base) & 0xFFFF_FFFFL, r.field("ProcessID").value(), where);
            for (int k = 0; k < values; k++) {
                int at = base + 4 + k * ptr;
                long expected = ptr == 4 ? b.getInt(at) & 0xFFFF_FFFFL : b.getLong(at);
                assertEquals(expected, r.field(names.get(k)).value(), where + names.get(k));
            }
            assertEquals(values + 1, r.fields().size(), where);
        }
    }

    /**
     * The note a decoded event of this entry carries, or {@code null}; when its layout has UnreadN fields the note
     * must name each of them (the reader sees what TraceEvent leaves unexplained).
     */
    private String note(KernelTraceEventTable.Entry e, int version) {
        EventSchema schema = KernelSchemas.builtIn().find(e.guid(), e.opcode(), version).schema();
        DecodedEvent d = decoder.decode(TestRecord.builder(e.guid()).classic().opcode(e.opcode()).version(version)
                .pointerSize(8).data(new byte[0]).build());
        List<String> unread = schema.fields().stream().map(FieldSpec::name)
                .filter(n -> n.startsWith("Unread")).map(n -> n.replaceAll("_\\d+$", "")).distinct().toList();
        String note = d.notes().stream().filter(n -> n.contains(" reads no field from ")).findFirst().orElse(null);
        if (!unread.isEmpty()) {
            assertTrue(note != null && unread.stream().allMatch(note::contains), e.eventName() + " v" + version
                    + ": fields " + unread + " but notes " + d.notes());
        }
        return note;
    }

    /** Problems of one entry at one pointer size (empty: decoded right). */
    private List<String> check(KernelTraceEventTable.Entry e, int version, int ptr) {
        List<KernelTraceEventTable.Fact> facts = table.facts(e.payloadClass(),
                table.unversioned(e.payloadClass()) ? 0 : version);
        boolean classic = e.kind() == 'K';
        EventSchema schema = classic ? KernelSchemas.builtIn().find(e.guid(), e.opcode(), version).schema()
                : KernelMemorySchemas.schema(e.opcode(), version);
        ByteBuffer b = ByteBuffer.allocate(8192).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) (0x21 + i * 7));
        }
        // the payload as our layout reads it: numbers are the fill pattern (distinct at every offset), strings
        // their field's name, so TraceEvent's facts can be checked against it at TraceEvent's offsets
        Map<String, Integer> at = new LinkedHashMap<>();
        int end = payload(b, schema.fields(), ptr, at);
        byte[] payload = new byte[end];
        b.get(0, payload);
        TestRecord.Builder record = TestRecord.builder(e.guid()).version(version).pointerSize(ptr).data(payload);
        DecodedEvent d = decoder.decode((classic ? record.classic().opcode(e.opcode()) : record.id(e.opcode())).build());
        List<String> problems = new ArrayList<>();
        String where = "ptr " + ptr + ": ";
        // a manifest event (TraceEvent registers the Kernel-Memory ones with its task name alone) or a MOF class
        String name = classic ? KernelSchemas.PROVIDER_NAME + "/"
                + EventSchema.traceEventName(e.task(), e.opcode(), e.opcodeName(), e.task())
                : KernelMemorySchemas.PROVIDER_NAME + "/" + e.task();
        if (!d.fullName().equals(name)) {
            problems.add(where + "name " + d.fullName() + ", TraceEvent " + name);
        }
        if (d.source() != (classic ? SchemaSource.KERNEL_MOF : SchemaSource.BUILT_IN) || d.hasFieldErrors()
                || d.undecodedLength() != 0) {
            problems.add(where + "source " + d.source() + ", undecoded " + d.undecodedLength() + " " + d.notes()
                    + d.fields());
            return problems;
        }
        boolean handWritten = classic && KernelSchemas.builtIn().isHandWritten(e.guid(), e.opcode(), version);
        int last = -1;
        for (KernelTraceEventTable.Fact f : facts) {
            if (handWritten && !f.payload() || KernelTraceEventTable.derived(facts, f)) {
                // hand-written layouts name the bytes TraceEvent reads but does not list their own way; a second
                // reading of the same bytes (bit fields) is no field of its own
                continue;
            }
            String key = e.payloadClass() + "." + f.name();
            String ours = d.field(f.name()) == null ? RENAMED.getOrDefault(key, f.name()) : f.name();
            EventField field = d.field(ours);
            if (field == null && NOT_A_FIELD.containsKey(key)) {
                continue;
            }
            if (field == null) {
                problems.add(where + "no field " + ours);
                continue;
            }
            int index = d.fields().indexOf(field);
            if (index < last && !OUT_OF_ORDER.containsKey(key)) {
                problems.add(where + ours + " out of TraceEvent's offset order");
            }
            last = Math.max(last, index);
            int pos = f.offset(ptr) >= 0 ? f.offset(ptr) : at.getOrDefault(ours, -1);
            if (VALUE_DIFFERS.containsKey(key) || OUT_OF_ORDER.containsKey(key)) {
                continue;
            }
            Object expected = expected(b, pos, f, ptr);
            Object actual = f.type().equals("ipv6") ? address(String.valueOf(field.value()))
                    : field.value() instanceof java.time.Instant t ? fileTime(t)
                    : field.asLong() != null ? field.asLong() : String.valueOf(field.value());
            int width = KernelTraceEventTable.size(f.type(), ptr);
            if (expected instanceof Long x && actual instanceof Long y && width > 0 && width < 8) {
                // the same bits: signedness is the schema's choice (MS Learn's MOF types in the hand-written
                // layouts, TraceEvent's C# types in the generated ones), the width and offset are not
                long mask = (1L << (8 * width)) - 1;
                expected = x & mask;
                actual = y & mask;
            }
            if (!expected.equals(actual)) {
                problems.add(where + ours + " = " + actual + ", TraceEvent reads " + expected + " at " + pos);
            }
        }
        return problems;
    }

    /** Writes a payload for {@code fields} into {@code b} (positions of the fields into {@code at}); its length. */
    private static int payload(ByteBuffer b, List<FieldSpec> fields, int ptr, Map<String, Integer> at) {
        int pos = 0;
        for (FieldSpec spec : fields) {
            if (spec instanceof StructSpec st) {
                b.putInt(at.get(st.count().fieldName()), 0); // no record (the records: a test of their own)
                continue;
            }
            DataSpec d = (DataSpec) spec;
            at.put(d.name(), pos);
            if (d.count().isReference()) {
                b.putInt(at.get(d.count().fieldName()), 0); // an empty array
                continue;
            }
            if (d.count().isToEnd()) {
                pos += 2 * ptr; // two frames
                continue;
            }
            pos += switch (d.inType()) {
                case UNICODE_STRING -> {
                    String text = "S" + d.name();
                    if (d.length().present()) {
                        int chars = d.length().literal();
                        byte[] t = text.substring(0, Math.min(text.length(), chars - 1))
                                .getBytes(StandardCharsets.UTF_16LE);
                        for (int i = 0; i < 2 * chars; i++) {
                            b.put(pos + i, i < t.length ? t[i] : 0);
                        }
                        yield 2 * chars;
                    }
                    byte[] t = (text + "\0").getBytes(StandardCharsets.UTF_16LE);
                    b.put(pos, t);
                    yield t.length;
                }
                case ANSI_STRING -> {
                    byte[] t = ("S" + d.name() + "\0").getBytes(StandardCharsets.US_ASCII);
                    b.put(pos, t);
                    yield t.length;
                }
                case WBEM_SID -> {
                    b.putInt(pos, 0); // no SID
                    yield 4;
                }
                case POINTER, SIZET -> ptr;
                case BINARY -> d.length().literal();
                default -> d.inType().fixedSize(ptr);
            };
        }
        return pos;
    }

    private static long fileTime(java.time.Instant t) {
        return (t.getEpochSecond() + 11_644_473_600L) * 10_000_000L + t.getNano() / 100;
    }

    /** The value TraceEvent reads for {@code f} at {@code pos}, as the decoder presents it. */
    private static Object expected(ByteBuffer b, int pos, KernelTraceEventTable.Fact f, int ptr) {
        String t = f.type();
        if (t.equals("ustr") || t.equals("astr") || t.startsWith("fstr")) {
            return readString(b, pos, !t.equals("astr"));
        }
        return switch (t) {
            case "u8" -> (long) (b.get(pos) & 0xFF);
            case "i16" -> (long) b.getShort(pos);
            case "u16" -> (long) (b.getShort(pos) & 0xFFFF);
            case "port" -> (long) (((b.get(pos) & 0xFF) << 8) | (b.get(pos + 1) & 0xFF));
            case "i32" -> (long) b.getInt(pos);
            case "u32" -> b.getInt(pos) & 0xFFFF_FFFFL;
            case "ipv4" -> (b.get(pos) & 0xFF) + "." + (b.get(pos + 1) & 0xFF) + "." + (b.get(pos + 2) & 0xFF) + "."
                    + (b.get(pos + 3) & 0xFF);
            case "i64", "u64" -> b.getLong(pos);
            case "ptr" -> ptr == 4 ? b.getInt(pos) & 0xFFFF_FFFFL : b.getLong(pos);
            case "guid" -> Guid.readFrom(b, pos).toString();
            case "ipv6" -> {
                byte[] a = new byte[16];
                b.get(pos, a);
                yield List.of(a).toString().length() > 0 ? java.util.HexFormat.of().formatHex(a) : "";
            }
            default -> throw new IllegalStateException(t);
        };
    }

    /** The NUL-terminated string at {@code pos} (UTF-16 or 8-bit). */
    private static String readString(ByteBuffer b, int pos, boolean utf16) {
        StringBuilder sb = new StringBuilder();
        for (int i = pos; ; i += utf16 ? 2 : 1) {
            char c = utf16 ? b.getChar(i) : (char) (b.get(i) & 0xFF);
            if (c == 0) {
                return sb.toString();
            }
            sb.append(c);
        }
    }

    private static String address(String text) {
        try {
            return java.util.HexFormat.of().formatHex(InetAddress.getByName(text).getAddress());
        } catch (java.io.IOException ex) {
            return "not an address: " + text;
        }
    }
}
