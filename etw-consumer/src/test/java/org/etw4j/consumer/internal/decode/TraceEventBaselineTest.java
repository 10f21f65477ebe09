package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.StructValue;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlLogfileHeader;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.etl.HeaderKind;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Truth test: the events Microsoft's TraceEvent listed in its baselines (decoded on Windows) decode here to the
 * same names and field values.
 *
 * <p>How events are paired: TraceEvent's {@code GeneralParsing} test prints the first 5 events of each
 * {@code Provider/Event} name in time order. We decode the whole .etl in time order (the .etl reader's merged
 * cursor), keep our first 5 events per name, and compare the k-th baseline event of a name with our k-th event
 * of that name (pairing by name keeps one unnamed event from shifting all later pairs). Per pair we compare the
 * relative time, PID, TID, ProceNum, DataLen and every payload field the baseline shows, using
 * {@link BaselineComparator}'s rules. The {@code COUNT} lines are compared with our per-name totals.
 *
 * <p>The trace is read twice, as TraceEvent's TraceLog reads it: a {@link TraceContext} learns the volume mapping,
 * processes, threads and file names first, then presents every event (drive-letter paths, file names behind file
 * keys, the event's process). The figure {@link Report#figure()} prints, and the README quotes, is "fields equal /
 * fields compared": payload fields plus PName.
 *
 * <p>Documented exceptions (each is counted and reported, never silently dropped):
 * <ul>
 *   <li>PName is compared with {@link DecodedEvent#process()}; TraceEvent's {@code Process(<pid>)} for a process it
 *       does not know agrees with our having none. {@link #PNAME_EXCEPTIONS}: attributions that differ, with the
 *       reason.</li>
 *   <li>File names: TraceEvent prints the drive-letter form, compared with our label; {@link #RAW_PATH_FIELDS}
 *       are printed by TraceEvent as written and compared with our value (the NT path).</li>
 *   <li>PID/TID of kernel (SYSTEM/PERFINFO/classic) records: TraceEvent replaces the header's ids with ids from
 *       the payload (e.g. Process events get PID = ProcessID), with -1, or from its thread table (PERFINFO records
 *       have no ids at all). Such a difference counts as a "TraceEvent fixup" when the header has no id (-1), the
 *       baseline shows -1, or the baseline value equals one of the event's own payload fields; otherwise it is a
 *       mismatch.</li>
 *   <li>TraceLog drops samples of the idle process ({@code TraceLog.cs} "Skip samples from the idle thread"): we
 *       drop PerfInfo/Sample events whose payload ThreadID is 0 before pairing; the resulting count is
 *       approximate ({@link #APPROXIMATE_COUNTS}).</li>
 *   <li>{@link #COMPUTED}: fields TraceEvent computes from other events or from bits it interprets itself
 *       (file names from file keys, elapsed times, parent thread ids, priority bits): skipped, counted.</li>
 *   <li>{@link #ALIASES} and {@link #NAME_ALIASES}: the same bytes or event under another name. TraceEvent also
 *       strips names from TDH metadata to [A-Za-z0-9_] and flattens the first struct-array elements as
 *       {@code Member_k}; both are matched.</li>
 *   <li>TraceEvent defaults ({@link #TRACEEVENT_DEFAULT_NAMES}): TraceEvent's hand-written CLR parsers print
 *       every field of their newest layout, with an empty value, 0 or the enum member for 0 when the event's
 *       version lacks the field (e.g. ReJITID=0 on LoadVerbose version 1). Counted per event and field, and only
 *       when our schema consumed every payload byte without error (so there is no byte left that could hold it).</li>
 *   <li>{@link #LABEL_ALIASES}: values whose name in TraceEvent's enum differs from the runtime manifest's string
 *       used by etw4j's CLR supplement; the value is compared through the alias and counted.</li>
 *   <li>Schema gaps (reported): events or fields the schemas we decode with do not define, and map values they
 *       do not name. For the CLR providers (ClrEtwAll.man plus etw4j's CLR supplement, see ClrSupplement) any gap
 *       other than {@link #KNOWN_CLR_GAPS} fails the test.</li>
 *   <li>{@link #KNOWN_TRACEEVENT_DOUBTS}: values where the payload bytes show TraceEvent printed something else.</li>
 *   <li>{@link #TRACEEVENT_SIGNED_PRINTS}: fields the schema declares unsigned that TraceEvent prints as signed
 *       .NET numbers; integers are otherwise compared exactly, with the schema's sign (no modulo 2^width).</li>
 * </ul>
 * What fails the test: any other value, header or name disagreement, a COUNT difference on a name both sides
 * produce (except {@link #APPROXIMATE_COUNTS}), an unexplained CLR schema gap, or fewer compared events than the
 * coverage floor.
 */
class TraceEventBaselineTest {

    /** Baseline field name -> our field name, per event name prefix. Same bytes, different names. */
    static final Map<String, Map<String, String>> ALIASES = Map.of(
            // Process_V2_TypeGroup2 offset 4 is PageFaultCount (MS Learn); TraceEvent calls it MemoryCount.
            "Windows Kernel/Process/PerfCtr", Map.of("MemoryCount", "PageFaultCount"),
            // Thread_V3_TypeGroup1 offset 8+4p is Affinity (MS Learn); TraceEvent still calls it StartAddr (V2 name).
            "Windows Kernel/Thread/", Map.of("StartAddr", "Affinity"),
            // BulkType's struct member is "Name" in ClrEtwAll.man; TraceEvent's CLR parser calls it TypeName.
            "Microsoft-Windows-DotNETRuntime/Type/BulkType", Map.of("TypeName_0", "Name_0"),
            // TraceEvent's Kernel-File parser names the trace metadata's Irp and CreateAttributes differently.
            "Microsoft-Windows-Kernel-File/Create", Map.of("IrpPtr", "Irp", "FileAttributes", "CreateAttributes"),
            // GCMarkWithType's last u64 is "Bytes" (the number of bytes marked) in the .NET docs; TraceEvent: Promoted.
            "Microsoft-Windows-DotNETRuntime/GC/MarkWithType", Map.of("Promoted", "Bytes"));

    /** Fields TraceEvent derives rather than reads from the payload, per event name prefix, with the reason. */
    static final Map<String, Map<String, String>> COMPUTED = computed();

    private static Map<String, Map<String, String>> computed() {
        Map<String, Map<String, String>> m = new LinkedHashMap<>();
        m.put("Windows Kernel/Thread/", Map.of(
                "ThreadName", "TraceEvent reads a name only when the event is longer than the V3 layout",
                "ParentThreadID", "TraceEvent's thread table (the thread that logged the creating event)",
                "ParentProcessID", "TraceEvent's thread table"));
        m.put("Windows Kernel/DiskIO/", Map.of(
                "ElapsedTimeMSec", "TraceEvent converts HighResResponseTime with the QPC frequency",
                "DiskServiceTimeMSec", "TraceEvent computes it from overlapping I/Os"));
        m.put("Windows Kernel/Image/", Map.of(
                "BuildTime", "TraceEvent converts TimeDateStamp to a date"));
        m.put("Windows Kernel/Memory/HardFault", Map.of(
                "ElapsedTimeMSec", "TraceEvent converts InitialTime with the QPC frequency"));
        m.put("Windows Kernel/PerfInfo/Sample", Map.of(
                "ProcessorNumber", "TraceEvent copies the record's processor",
                "Priority", "TraceEvent interprets bits of the reserved u16",
                "ExecutingDPC", "TraceEvent interprets bits of the reserved u16",
                "ExecutingISR", "TraceEvent interprets bits of the reserved u16",
                "Rank", "TraceEvent interprets bits of the reserved u16"));
        m.put("Windows Kernel/UdpIp/", Map.of(
                "context", "TraceEvent reads PID and size together as one pointer-sized 'context' (its older "
                        + "UdpIp layout); the same bytes are PID and size here",
                "dsize", "TraceEvent's older UdpIp layout; the bytes are seqnum here (MS Learn UdpIp_TypeGroup1)"));
        // e.g. PID 0 events hold ProcessName '' (bytes 00 00) and TraceEvent prints 'Idle'; 'svchost.exe' in the
        // payload prints as 'svchost'.
        m.put("Windows Kernel/SystemConfig/Services", Map.of(
                "ProcessName", "TraceEvent prints the name of ProcessID from its process table, not the payload's"));
        m.put("KernelTraceControl/ImageID", Map.of(
                "BuildTime", "TraceEvent converts TimeDateStamp to a date"));
        // GCHeapStats_V2 is 110 bytes: exactly the 16 documented fields, no totals and no generation; e.g.
        // TotalHeapSize 657,192 = 584 + 314,184 + 0 + 326,056 + 16,368 (GenerationSize0..4).
        m.put("Microsoft-Windows-DotNETRuntime/GC/HeapStats", Map.of(
                "TotalHeapSize", "TraceEvent sums GenerationSize0..4",
                "TotalPromoted", "TraceEvent sums the TotalPromotedSize fields",
                "Depth", "TraceEvent takes the generation from the GC/Start it pairs the event with"));
        m.put("Microsoft-Windows-DotNETRuntime/GC/FinalizeObject", Map.of(
                "TypeName", "TraceEvent's type table (filled from BulkType events)"));
        m.put("Microsoft-Windows-DotNETRuntime/Loader/Module", Map.of(
                "ModuleILFileName", "TraceEvent derives it from ModuleILPath (the file name part)"));
        m.put("Microsoft-Windows-DotNETRuntimeRundown/Loader/Module", Map.of(
                "ModuleILFileName", "TraceEvent derives it from ModuleILPath (the file name part)"));
        return m;
    }

    /**
     * {@link #NAME_ALIASES} for events of etw4j's CLR supplement: it names them with the runtime manifest's
     * strings (dotnet/runtime ClrEtwAll.man), TraceEvent's CLR parsers with their own.
     */
    static final Map<String, String> CLR_SUPPLEMENT_NAME_ALIASES = Map.of(
            // The runtime manifest's opcode strings for 208/209 are "GCLOHCompact"/"GCFitBucketInfo"; TraceEvent
            // drops the "GC" prefix.
            "Microsoft-Windows-DotNETRuntime/GC/LOHCompact", "Microsoft-Windows-DotNETRuntime/GC/GCLOHCompact",
            "Microsoft-Windows-DotNETRuntime/GC/FitBucketInfo", "Microsoft-Windows-DotNETRuntime/GC/GCFitBucketInfo",
            // Rundown opcode 10's runtime string is "GCSettingsRundown"; TraceEvent: SettingsRundown.
            "Microsoft-Windows-DotNETRuntimeRundown/GC/SettingsRundown",
            "Microsoft-Windows-DotNETRuntimeRundown/GC/GCSettingsRundown",
            // Rundown task 31's runtime string is "TieredCompilation"; TraceEvent prints the task's name.
            "Microsoft-Windows-DotNETRuntimeRundown/TieredCompilationRundown/SettingsDCStart",
            "Microsoft-Windows-DotNETRuntimeRundown/TieredCompilation/SettingsDCStart");

    private static Map<String, String> merged(Map<String, String> a, Map<String, String> b) {
        Map<String, String> m = new HashMap<>(a);
        m.putAll(b);
        return Map.copyOf(m);
    }

    /**
     * Map labels TraceEvent's CLR parser prints from its own enums where the runtime manifest's string table (which
     * the CLR supplement uses) has another text for the same value: event name + "." + field -> (TraceEvent label
     * -> ours). The value is still compared: the baseline text is translated, then compared with our label.
     */
    static final Map<String, Map<String, String>> LABEL_ALIASES = Map.of(
            // .NET's FileShare, which TraceEvent prints, has the composite ReadWrite (3); etw4j's flag sets name
            // single bits only (wdm.h FILE_SHARE_READ 1, FILE_SHARE_WRITE 2, FILE_SHARE_DELETE 4).
            "Microsoft-Windows-Kernel-File/Create.ShareAccess",
            Map.of("ReadWrite, Delete", "Read|Write|Delete", "ReadWrite", "Read|Write"),
            // runtime manifest GCSegment.PinnedObjectHeapMapMessage = "PinnedHeap"; TraceEvent GCSegmentType
            "Microsoft-Windows-DotNETRuntime/GC/CreateSegment.Type", Map.of("PinnedObjectHeap", "PinnedHeap"),
            // runtime manifest GCBucketKindMap strings "FLItem"/"Plug"; TraceEvent's BucketKind enum
            "Microsoft-Windows-DotNETRuntime/GC/FitBucketInfo.BucketKind",
            Map.of("LargestFreeListItems", "FLItem", "PlugsInCondemned", "Plug"));

    /**
     * What TraceEvent's hand-written CLR parsers print for a field the event's version does not have (they print
     * every field of their newest layout): an empty value, 0, or the enum member for 0 listed here. Such a field
     * counts as a "TraceEvent default" only when our schema consumed the whole payload (no byte is left that could
     * hold it) without errors; otherwise it stays a schema gap.
     */
    static final Map<String, String> TRACEEVENT_DEFAULT_NAMES = Map.of(
            // OptimizationTier.Unknown = 0: "to identify older runtimes that would send this value" (TraceEvent)
            "OptimizationTier", "Unknown");

    /**
     * CLR schema gaps that cannot be closed from a manifest, by TraceEvent event name, with the reason. Any other
     * CLR gap fails the test.
     */
    static final Map<String, String> KNOWN_CLR_GAPS = Map.of(
            "Microsoft-Windows-DotNETRuntimePrivate/GC/PerHeapHistory",
            "version 2 (.NET Framework 4.x) carries a raw copy of the CLR's internal gc_history_per_heap struct: the "
                    + "shipped ClrEtwAll.man defines it with an empty template and the runtime's own manifest gives "
                    + "it the message \"NONE\", so no manifest describes its 433 bytes; TraceEvent reads them with "
                    + "offsets of its own (ClrTraceEventParser.cs GCPerHeapHistoryTraceData)");

    /**
     * Events TraceEvent names differently from what the schema we decode with says (TraceEvent name -> ours), with
     * the reason. Pairing uses our name.
     */
    static final Map<String, String> NAME_ALIASES = merged(CLR_SUPPLEMENT_NAME_ALIASES, Map.of(
            // ClrEtwAll.man's string table has no GC*OpcodeMessage strings for these opcodes, so the opcode's
            // display name is its name; TraceEvent's hand-written CLR parser drops the "GC" prefix.
            "Microsoft-Windows-DotNETRuntime/GC/GenerationRange", "Microsoft-Windows-DotNETRuntime/GC/GCGenerationRange",
            "Microsoft-Windows-DotNETRuntime/GC/BulkMovedObjectRanges",
            "Microsoft-Windows-DotNETRuntime/GC/GCBulkMovedObjectRanges",
            "Microsoft-Windows-DotNETRuntime/GC/BulkSurvivingObjectRanges",
            "Microsoft-Windows-DotNETRuntime/GC/GCBulkSurvivingObjectRanges",
            // TraceEvent's CLR parser lacks event 200; it used the trace's own metadata for the provider, whose task
            // has no localized name. ClrEtwAll.man names the task "GC".
            "Microsoft-Windows-DotNETRuntime/GarbageCollection/IncreaseMemoryPressure",
            "Microsoft-Windows-DotNETRuntime/GC/IncreaseMemoryPressure",
            // TraceEvent's kernel parser has no class for these two; it asked the machine's TDH, which names the MOF
            // root class (MSNT_SystemTrace) as provider. Ours are classic kernel events like the others.
            "MSNT_SystemTrace/SystemConfig/Platform", "Windows Kernel/SystemConfig/Platform",
            "MSNT_SystemTrace/Image/KernelBase", "Windows Kernel/Image/KernelBase"));

    /**
     * Values where the bytes say TraceEvent printed something else than the event holds (event name + field ->
     * why). Counted and reported as doubts, not as agreement.
     */
    static final Map<String, String> KNOWN_TRACEEVENT_DOUBTS = Map.of(
            // TraceEvent's CreateOptions enum (KernelTraceEventParser.cs, "these have not been validated yet") names
            // the bits with FILE_ATTRIBUTE_* names: 0x20 prints FILE_ATTRIBUTE_ARCHIVE. In NtCreateFile's
            // CreateOptions 0x20 is FILE_SYNCHRONOUS_IO_NONALERT (ntdef.h / wdm.h); the value (32) is the same.
            "Microsoft-Windows-Kernel-File/Create.CreateOptions",
            "TraceEvent names CreateOptions bits with FILE_ATTRIBUTE_* names; ntdef.h: 0x20 = "
                    + "FILE_SYNCHRONOUS_IO_NONALERT (same value 32)",
            // ImageIDTraceData.PayloadValue(2) returns the constant 0 (PerfView SymbolTraceEventParser.cs); the
            // payload's u32 after ImageBase and ImageSize holds the process id (4 = System here, as in the header).
            "KernelTraceControl/ImageID.ProcessID",
            "TraceEvent prints a constant 0 for ProcessID; the payload (and the record header) say 4",
            // e.g. bytes e5 07 09 00 04 00 09 00 0e 00 3b 00 23 00 1f 03 = 2021-09-09 (Thu) 14:59:35.799; the same
            // event's FILETIME field says 14:59:35.799 too, but TraceEvent prints .03 for all five events.
            "solar_system/PrimitiveTypesTest.system_time_type",
            "SYSTEMTIME milliseconds: the payload has 799/239/671/48/484 ms (matching the event's FILETIME field); "
                    + "TraceEvent prints .03 for every event");

    /**
     * Fields whose schema type is unsigned but which TraceEvent prints as a signed .NET number (event name + field
     * -> why, with the evidence). BaselineComparator compares integers exactly with the schema's sign; a value that
     * differs from TraceEvent's only by that sign is accepted for these fields alone, and counted and reported.
     */
    static final Map<String, String> TRACEEVENT_SIGNED_PRINTS = signedPrints();

    private static Map<String, String> signedPrints() {
        Map<String, String> m = new LinkedHashMap<>();
        // The trace's own TraceLogging metadata declares the field TlgInUINT64: bytes "uint32_type\0" 08
        // "int64_type\0" 0a "uint64_type\0" 0a at file offset 0x211b of perfview__primitive-types.etl (0x0a = 10 =
        // TlgInUINT64, etw-formats.md 1.4); TDH would print it unsigned. TraceEvent prints -204 because its
        // DynamicTraceEventParser reads TdhInputType.UInt64 as .NET long (microsoft/perfview@f3ec1b38
        // src/TraceEvent/DynamicTraceEventParser.cs, "case TdhInputType.UInt64: ... Type = typeof(long)").
        m.put("solar_system/PrimitiveTypesTest.int64_type", "declared TlgInUINT64 by the trace's metadata; TraceEvent "
                + "reads every UInt64 as a signed long");
        // MS Learn Process_V4_TypeGroup1 / Image_Load / SystemConfig_Network / SystemConfig_NIC declare these
        // uint32 / uint64; TraceEvent's KernelTraceEventParser declares them int / long (microsoft/perfview@f3ec1b38
        // KernelTraceEventParser.cs: "public int SessionID", "public int TimeDateStamp", "public int
        // MaxHashTableSize", "public long PhysicalAddr"), so 0xFFFFFFFF prints -1.
        String kernel = "TraceEvent's KernelTraceEventParser declares the field signed; MS Learn's MOF class says unsigned";
        for (String e : List.of("Process/DCStart", "Process/DCStop", "Process/Start", "Process/Stop")) {
            m.put("Windows Kernel/" + e + ".SessionID", kernel);
        }
        m.put("Windows Kernel/Image/Load.TimeDateStamp", kernel);
        m.put("Windows Kernel/Image/Unload.TimeDateStamp", kernel);
        m.put("Windows Kernel/Image/DCStart.TimeDateStamp", kernel);
        m.put("Windows Kernel/Image/DCStop.TimeDateStamp", kernel);
        m.put("Windows Kernel/SystemConfig/Network.MaxHashTableSize", kernel);
        m.put("Windows Kernel/SystemConfig/NIC.PhysicalAddr", kernel);
        // ClrEtwAll.man: <data name="ExceptionHRESULT" inType="win:UInt32" outType="win:HexInt32"/>; TraceEvent's
        // ClrTraceEventParser.cs: "public int ExceptionHRESULT" (prints 0x80070002 as -2,147,024,894).
        m.put("Microsoft-Windows-DotNETRuntime/Exception/Start.ExceptionHRESULT", "ClrEtwAll.man says win:UInt32; "
                + "TraceEvent's ClrTraceEventParser declares it int");
        return Map.copyOf(m);
    }

    /**
     * File-name fields TraceEvent prints as the trace wrote them (NT form), where etw4j shows the drive-letter form
     * of the trace's volume mapping as label and keeps the NT path as value: compared with the value.
     */
    static final Map<String, String> RAW_PATH_FIELDS = Map.of(
            "Microsoft-Windows-Kernel-Process/ProcessStart/Start.ImageName",
            "TraceEvent's manifest-driven parser does not map Kernel-Process paths (\\Device\\Mup\\...); etw4j "
                    + "labels it \\\\server\\... by the trace's VolumeMapping \\Device\\Mup\\ -> \\\\");

    /**
     * Events whose PName TraceEvent prints otherwise than etw4j attributes them, by event name (or event name and
     * our name, {@code "<event> ours=<name>"}, for a single case), with the reason: compared, counted as an
     * explained difference (not as equal), reported.
     */
    static final Map<String, String> PNAME_EXCEPTIONS = Map.of(
            "Windows Kernel/Process/Defunct",
            "TraceLog's process table takes no Defunct events, so a process that ended before the rundown prints "
                    + "Process(pid); etw4j names it from the Defunct event's own ImageFileName",
            // DiskIO completions have no ids in their header; etw4j attributes one to the process that logged the
            // Init event with the same Irp, which matches TraceEvent for the other 10 compared completions.
            "Windows Kernel/DiskIO/FlushBuffers",
            "TraceEvent shows no process (PID -1) for it; etw4j attributes it to the process that logged the "
                    + "FlushInit with the same Irp (svchost/System here)",
            "Windows Kernel/DiskIO/Write ours=Idle",
            "the WriteInit with this Irp (0xfffffa8300dbc5b0) was logged by the Idle process (PID 0, TID 0), "
                    + "whom etw4j names; TraceEvent shows System (TID 44)");

    private static final int PER_NAME = 5;

    /** Outcome of comparing one baseline file. */
    static final class Report {
        final String file;
        int eventsInBaseline;
        int eventsCompared;
        int eventsMissing;
        int fieldsCompared;
        /** Payload fields whose value agrees with TraceEvent's by {@link BaselineComparator}'s rules. */
        int fieldsEqual;
        int processNamesCompared;
        int processNamesEqual;
        /** PName {@code Process(<pid>)}: TraceEvent's text for a process it does not know; we have none either. */
        int unknownProcessPlaceholders;
        /** File names compared with the NT path as written ({@link #RAW_PATH_FIELDS}). */
        int rawPathsCompared;
        /** Differences a table of this class explains by name (reported, not counted as equal). */
        final List<String> explainedDifferences = new ArrayList<>();
        int fieldsSkipped;
        int headerChecks;
        int headerFixups;
        int idleSamplesDropped;
        final List<String> mismatches = new ArrayList<>();
        final List<String> schemaGaps = new ArrayList<>();
        /** Fields TraceEvent printed with a default although the event's version lacks them (per event.field). */
        final Map<String, Integer> traceEventDefaults = new TreeMap<>();
        int labelsAliased;
        final List<String> traceEventDoubts = new ArrayList<>();
        /** Values TraceEvent printed with another sign than the schema's, for the fields listed by name. */
        final List<String> traceEventSignedPrints = new ArrayList<>();
        final List<String> oursOnly = new ArrayList<>();
        final Map<String, Integer> skippedReasons = new TreeMap<>();
        final List<String> countDifferences = new ArrayList<>();
        final List<String> missingNames = new ArrayList<>();

        Report(String file) {
            this.file = file;
        }

        /** The README's figure: payload fields and PName equal / compared (the skipped ones are listed apart). */
        String figure() {
            return String.format("%s: fields equal %d / fields compared %d (payload %d/%d, PName %d/%d of which "
                            + "%d unknown to both; skipped as TraceEvent-computed %d)", file,
                    fieldsEqual + processNamesEqual, fieldsCompared + processNamesCompared, fieldsEqual,
                    fieldsCompared, processNamesEqual, processNamesCompared, unknownProcessPlaceholders,
                    fieldsSkipped);
        }

        String summary() {
            return String.format("%s: baseline events %d, compared %d (not produced here %d), header checks %d "
                            + "(TraceEvent fixups %d), fields compared %d (TraceEvent-computed, skipped %d), "
                            + "mismatches %d, schema gaps %d, TraceEvent doubts %d, COUNT differences %d, "
                            + "names only we produce %d, idle samples dropped as TraceLog does %d, "
                            + "TraceEvent defaults for fields the version lacks %d, map labels compared via "
                            + "LABEL_ALIASES %d",
                    file, eventsInBaseline, eventsCompared, eventsMissing, headerChecks, headerFixups,
                    fieldsCompared, fieldsSkipped, mismatches.size(), schemaGaps.size(), traceEventDoubts.size(),
                    countDifferences.size(), oursOnly.size(), idleSamplesDropped,
                    traceEventDefaults.values().stream().mapToInt(Integer::intValue).sum(), labelsAliased);
        }
    }

    /** One of our decoded events with the record facts the baseline prints. */
    record Ours(DecodedEvent event, HeaderKind kind, int pid, int tid, int processor, double relativeMsec,
                int pointerSize) {
    }

    static Path etlFor(String baseline) throws IOException {
        Path corpus = SharedData.resolve("etl-corpus");
        try (Stream<Path> s = Files.list(corpus)) {
            return s.filter(p -> p.getFileName().toString().startsWith("perfview__" + baseline + ".")
                            && p.getFileName().toString().endsWith(".etl"))
                    .findFirst().orElseThrow(() -> new AssertionError("no .etl for baseline " + baseline));
        }
    }

    static Report compare(String name) throws IOException {
        TraceEventBaseline baseline = TraceEventBaseline.parse(
                SharedData.resolve("etl-corpus/expected/traceevent/" + name + ".baseline.txt"));
        ManifestRegistry registry = new ManifestRegistry();
        registry.register(SharedData.resolve("manifests/ClrEtwAll.man"));
        EventDecoder decoder = new EventDecoder(registry);

        Map<String, List<Ours>> firstByName = new HashMap<>();
        int idleSamples = 0;
        java.util.Set<String> providersSeen = new java.util.HashSet<>();
        java.util.Set<String> undecodedProviders = new java.util.HashSet<>();
        Map<String, Integer> counts = new TreeMap<>();
        try (EtlFile etl = EtlFile.open(etlFor(name))) {
            EtlLogfileHeader h = etl.header();
            EtlRecordEvent adapter = new EtlRecordEvent();
            // TraceEvent's TraceLog reads the whole trace before it shows an event: so does the context here
            TraceContext context = new TraceContext();
            EtlCursor first = etl.cursor();
            while (first.advance()) {
                context.learn(adapter.of(first.record()), decoder);
            }
            EtlCursor c = etl.cursor();
            while (c.advance()) {
                EtlRecordView v = c.record();
                DecodedEvent e = context.present(adapter.of(v), decoder.decode(adapter.of(v)));
                String full = e.fullName();
                if (full.equals("Windows Kernel/PerfInfo/Sample") && isIdleSample(e)) {
                    // TraceLog.cs "Skip samples from the idle thread": TraceEvent never shows them.
                    idleSamples++;
                    continue;
                }
                counts.merge(full, 1, Integer::sum);
                providersSeen.add(e.providerName());
                if (e.source() == SchemaSource.NONE) {
                    undecodedProviders.add(e.providerName());
                }
                List<Ours> l = firstByName.computeIfAbsent(full, k -> new ArrayList<>());
                if (l.size() < PER_NAME) {
                    double rel = (v.timestamp() - h.headerTimestamp()) * 1000.0 / h.perfFreq();
                    l.add(new Ours(e, v.kind(), v.processId(), v.threadId(), v.processorIndex(), rel,
                            v.pointerSize()));
                }
            }
        }

        Report r = new Report(name);
        r.idleSamplesDropped = idleSamples;
        Map<String, Integer> seen = new HashMap<>();
        for (TraceEventBaseline.Event b : baseline.events()) {
            r.eventsInBaseline++;
            int k = seen.merge(b.name(), 1, Integer::sum) - 1;
            List<Ours> mine = firstByName.getOrDefault(NAME_ALIASES.getOrDefault(b.name(), b.name()), List.of());
            if (k >= mine.size()) {
                r.eventsMissing++;
                if (k == 0) {
                    r.missingNames.add(b.name());
                }
                String provider = b.name().substring(0, b.name().indexOf('/'));
                String msg = "line " + b.line() + " " + b.name() + ": we have no event #" + (k + 1) + " of that name";
                if (!providersSeen.contains(provider)) {
                    r.schemaGaps.add(msg + " (no schema here for provider " + provider + ")");
                } else if (undecodedProviders.contains(provider)) {
                    r.schemaGaps.add(msg + " (" + provider + " has events our schemas do not define)");
                } else {
                    r.mismatches.add(msg);
                }
                continue;
            }
            r.eventsCompared++;
            compareEvent(r, b, mine.get(k));
        }
        for (Map.Entry<String, Integer> e : baseline.counts().entrySet()) {
            Integer ours = counts.get(NAME_ALIASES.getOrDefault(e.getKey(), e.getKey()));
            if (ours != null && !e.getValue().equals(ours)) {
                r.countDifferences.add("COUNT " + e.getKey() + ": TraceEvent " + e.getValue() + ", ours " + ours);
            }
        }
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            if (!baseline.counts().containsKey(e.getKey()) && !NAME_ALIASES.containsValue(e.getKey())) {
                r.oursOnly.add(e.getKey() + ":" + e.getValue());
            }
        }
        return r;
    }

    private static void compareEvent(Report r, TraceEventBaseline.Event b, Ours o) {
        String where = "line " + b.line() + " " + b.name() + ": ";
        DecodedEvent e = o.event();
        // time: printed with n3
        BigDecimal ours = BigDecimal.valueOf(o.relativeMsec()).setScale(3, RoundingMode.HALF_UP);
        BigDecimal theirs = new BigDecimal(b.timeMsec().replace(",", ""));
        r.headerChecks++;
        if (ours.subtract(theirs).abs().compareTo(new BigDecimal("0.001")) > 0) {
            r.mismatches.add(where + "time " + ours + " vs " + theirs);
        }
        r.headerChecks++;
        if (o.processor() != b.processor()) {
            r.mismatches.add(where + "ProceNum " + o.processor() + " vs " + b.processor());
        }
        r.headerChecks++;
        if (e.payloadLength() != b.dataLength()) {
            r.mismatches.add(where + "DataLen " + e.payloadLength() + " vs " + b.dataLength());
        }
        checkId(r, where, "PID", o.pid(), b.pid(), o, e);
        checkId(r, where, "TID", o.tid(), b.tid(), o, e);
        checkProcessName(r, where, b, e);

        Map<String, String> aliases = forEvent(ALIASES, b.name());
        Map<String, String> computed = forEvent(COMPUTED, b.name());
        for (Map.Entry<String, String> f : b.fields().entrySet()) {
            String fieldName = f.getKey();
            if (computed.containsKey(fieldName)) {
                r.fieldsSkipped++;
                r.skippedReasons.merge(b.name().replaceAll("/[^/]*$", "/*") + "." + fieldName + ": "
                        + computed.get(fieldName), 1, Integer::sum);
                continue;
            }
            String alias = aliases.getOrDefault(fieldName, fieldName);
            EventField mineField = e.field(alias);
            if (mineField == null) {
                mineField = e.field(fieldName);
            }
            if (mineField == null) {
                mineField = flattenedElement(e, alias);
            }
            if (mineField == null) {
                // TraceEvent removes every character but [A-Za-z0-9_] from names it reads from TDH metadata.
                for (EventField candidate : e.fields()) {
                    if (candidate.name().replaceAll("[^A-Za-z0-9_]", "").equals(fieldName)) {
                        mineField = candidate;
                        break;
                    }
                }
            }
            r.fieldsCompared++;
            if (mineField == null) {
                String msg = where + "field " + fieldName + " missing (ours: "
                        + e.fields().stream().map(EventField::name).toList() + ")";
                if (isTraceEventDefault(fieldName, f.getValue()) && e.undecodedLength() == 0
                        && !e.hasFieldErrors()) {
                    // Our schema read every payload byte, so this version has no such field; TraceEvent's parser
                    // printed its default for it (e.g. ReJITID=0 on LoadVerbose version 1).
                    r.traceEventDefaults.merge(b.name() + " v" + e.version() + " " + fieldName + "='"
                            + f.getValue() + "'", 1, Integer::sum);
                    continue;
                }
                if (e.notes().stream().anyMatch(n -> n.startsWith("decoded with the template of version"))) {
                    r.schemaGaps.add(msg + "; " + e.notes());
                } else if (e.source() == SchemaSource.MANIFEST || e.source() == SchemaSource.EVENT_SOURCE_MANIFEST) {
                    // The manifest's template for this (id, version) has no such field: TraceEvent's own parser
                    // shows an extension or a default for it (e.g. ReJITID=0 on version-1 events).
                    r.schemaGaps.add(msg + "; not in the manifest template for version " + e.version()
                            + (e.undecodedLength() > 0 ? ", " + e.undecodedLength() + " payload bytes undecoded" : ""));
                } else {
                    r.mismatches.add(msg);
                }
                continue;
            }
            String printed = f.getValue();
            String ourLabel = LABEL_ALIASES.getOrDefault(b.name() + "." + fieldName, Map.of()).get(printed);
            if (ourLabel != null) {
                r.labelsAliased++;
                printed = ourLabel;
            }
            if (mineField.labelKind() == EventField.LabelKind.DOS_PATH
                    && RAW_PATH_FIELDS.containsKey(b.name() + "." + fieldName)) {
                r.rawPathsCompared++;
            } else if (mineField.labelKind() == EventField.LabelKind.DOS_PATH) {
                // a file name: TraceEvent prints the drive-letter form, which is our label (the value keeps the NT path)
                mineField = EventField.of(mineField.name(), mineField.inType(), mineField.outType(), mineField.label(),
                        null);
            }
            String why = BaselineComparator.compare(mineField, printed, o.pointerSize());
            if (why == null) {
                r.fieldsEqual++;
                continue;
            }
            String doubt = KNOWN_TRACEEVENT_DOUBTS.get(b.name() + "." + fieldName);
            String signed = TRACEEVENT_SIGNED_PRINTS.get(b.name() + "." + fieldName);
            if (why.startsWith(BaselineComparator.SIGN_ONLY)) {
                if (signed != null) {
                    r.traceEventSignedPrints.add(where + fieldName + ": " + why + " -- " + signed);
                } else {
                    r.mismatches.add(where + fieldName + ": " + why);
                }
            } else if (doubt != null) {
                r.traceEventDoubts.add(where + fieldName + ": " + why + " -- " + doubt);
            } else if (mineField.inType().isInteger() && mineField.error() == null
                    && (mineField.label() == null ? mapNamed(e, fieldName) : mineField.label().contains("0x"))) {
                r.schemaGaps.add(where + fieldName + ": " + why + " (the schema's map has no name for it)");
            } else {
                r.mismatches.add(where + fieldName + ": " + why);
            }
        }
    }

    /**
     * TraceEvent flattens the first elements of struct arrays as {@code Member_k} (e.g. BulkType's
     * {@code TypeID_0}); the same value is member {@code Member} of element k of our struct-array field.
     */
    private static EventField flattenedElement(DecodedEvent e, String name) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(.+)_(\\d+)").matcher(name);
        if (!m.matches()) {
            return null;
        }
        int k = Integer.parseInt(m.group(2));
        for (EventField f : e.fields()) {
            if (f.value() instanceof List<?> l && k < l.size() && l.get(k) instanceof StructValue sv
                    && sv.field(m.group(1)) != null) {
                return sv.field(m.group(1));
            }
        }
        return null;
    }

    /** Whether {@code printed} is what TraceEvent prints for a field the event lacks (see TRACEEVENT_DEFAULT_NAMES). */
    private static boolean isTraceEventDefault(String fieldName, String printed) {
        if (printed.isEmpty() || printed.equals(TRACEEVENT_DEFAULT_NAMES.get(fieldName))) {
            return true;
        }
        java.math.BigInteger n = BaselineComparator.parseNumber(printed);
        return n != null && n.signum() == 0;
    }

    /** The schema gaps of the CLR providers, except those {@link #KNOWN_CLR_GAPS} explains. */
    static List<String> unexplainedClrGaps(Report r) {
        return r.schemaGaps.stream()
                .filter(g -> g.contains(" Microsoft-Windows-DotNETRuntime"))
                .filter(g -> KNOWN_CLR_GAPS.keySet().stream().noneMatch(k -> g.contains(" " + k + ":")))
                .toList();
    }

    /** Whether our schema gives the field a map (so a name TraceEvent printed is a map entry we lack). */
    private static boolean mapNamed(DecodedEvent e, String fieldName) {
        return e.source() == SchemaSource.MANIFEST || e.source() == SchemaSource.EVENT_SOURCE_MANIFEST;
    }

    /**
     * PName: TraceEvent's name of the event's process from its process table (TraceLog: the whole trace's process
     * events); ours is {@link DecodedEvent#process()} from the {@link TraceContext} that read the trace first.
     * Compared exactly ({@code ""} when there is no process), with TraceEvent's 20-character truncation. For a
     * process its table does not know TraceEvent prints the placeholder {@code Process(<pid>)}
     * ({@code TraceEventSource.ProcessName}, microsoft/perfview f3ec1b38); that agrees with our having no process
     * for that event, and is counted apart.
     */
    private static void checkProcessName(Report r, String where, TraceEventBaseline.Event b, DecodedEvent e) {
        r.processNamesCompared++;
        String ours = e.process() == null ? "" : e.process().name();
        String theirs = b.processName();
        if (e.process() == null && theirs.equals("Process(" + b.pid() + ")")) {
            r.processNamesEqual++;
            r.unknownProcessPlaceholders++;
            return;
        }
        boolean truncated = theirs.length() == 23 && theirs.endsWith("...");
        if (truncated ? ours.length() > 20 && ours.startsWith(theirs.substring(0, 20)) : ours.equals(theirs)) {
            r.processNamesEqual++;
        } else if (PNAME_EXCEPTIONS.containsKey(b.name()) || PNAME_EXCEPTIONS.containsKey(b.name() + " ours=" + ours)) {
            r.explainedDifferences.add(where + "PName '" + ours + "' vs '" + theirs + "' -- "
                    + PNAME_EXCEPTIONS.getOrDefault(b.name(), PNAME_EXCEPTIONS.get(b.name() + " ours=" + ours)));
        } else {
            r.mismatches.add(where + "PName '" + ours + "' vs '" + theirs + "'");
        }
    }

    private static void checkId(Report r, String where, String what, int ours, int theirs, Ours o, DecodedEvent e) {
        r.headerChecks++;
        if (ours == theirs) {
            return;
        }
        boolean kernel = o.kind() != HeaderKind.EVENT_HEADER;
        if (kernel && (ours == -1 || theirs == -1 || payloadHas(e, theirs))) {
            r.headerFixups++;
            return;
        }
        r.mismatches.add(where + what + " " + ours + " vs " + theirs);
    }

    private static boolean isIdleSample(DecodedEvent e) {
        EventField tid = e.field("ThreadID");
        return tid != null && tid.asLong() != null && tid.asLong() == 0;
    }

    private static boolean payloadHas(DecodedEvent e, int value) {
        for (EventField f : e.fields()) {
            Long l = f.asLong();
            if (l != null && (int) (long) l == value) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, String> forEvent(Map<String, Map<String, String>> table, String eventName) {
        Map<String, String> out = new LinkedHashMap<>();
        table.forEach((prefix, m) -> {
            if (eventName.startsWith(prefix)) {
                out.putAll(m);
            }
        });
        return out;
    }

    static void print(Report r) {
        System.out.println(r.summary());
        System.out.println(r.figure());
        int limit = Integer.getInteger("baseline.report.limit", 60);
        r.mismatches.stream().limit(limit).forEach(m -> System.out.println("  MISMATCH " + m));
        if (r.mismatches.size() > limit) {
            System.out.println("  ... " + (r.mismatches.size() - limit) + " more");
        }
        r.countDifferences.stream().limit(40).forEach(m -> System.out.println("  " + m));
        r.schemaGaps.stream().limit(limit).forEach(m -> System.out.println("  GAP " + m));
        r.traceEventDoubts.forEach(m -> System.out.println("  DOUBT " + m));
        r.traceEventSignedPrints.forEach(m -> System.out.println("  SIGNED " + m));
        r.explainedDifferences.forEach(m -> System.out.println("  EXPLAINED " + m));
        System.out.println("  names only we produce: " + r.oursOnly);
        r.skippedReasons.forEach((k, v) -> System.out.println("  skipped " + v + "x " + k));
        r.traceEventDefaults.forEach((k, v) -> System.out.println("  TraceEvent default for a field this version "
                + "lacks (payload fully decoded) " + v + "x " + k));
    }

    /**
     * COUNT lines that legitimately differ: TraceLog drops idle-process samples using its thread table, which
     * we approximate by the sample's own ThreadID 0; samples of threads TraceLog has not met yet (before the
     * rundown) keep PID -1 there and are not dropped.
     */
    static final java.util.Set<String> APPROXIMATE_COUNTS = java.util.Set.of("Windows Kernel/PerfInfo/Sample");

    @ParameterizedTest
    @ValueSource(strings = {"gcevents:52", "gcrundownevents:25", "primitive-types:6", "net.4.5.2.x64:480"})
    void decodesLikeTraceEvent(String baselineAndFloor) throws IOException {
        String baseline = baselineAndFloor.substring(0, baselineAndFloor.lastIndexOf(':'));
        int floor = Integer.parseInt(baselineAndFloor.substring(baselineAndFloor.lastIndexOf(':') + 1));
        Report r = compare(baseline);
        print(r);
        assertEquals(List.of(), r.mismatches, "values that disagree with TraceEvent");
        assertEquals(List.of(), r.countDifferences.stream()
                .filter(c -> APPROXIMATE_COUNTS.stream().noneMatch(a -> c.startsWith("COUNT " + a + ":"))).toList());
        // Coverage floor: the number of baseline events we decode and compare must not regress.
        assertTrue(r.eventsCompared >= floor, r.eventsCompared + " < " + floor);
        // CLR schemas (ClrEtwAll.man + etw4j's CLR supplement) must leave no gap but the explained ones.
        assertEquals(List.of(), unexplainedClrGaps(r), "CLR schema gaps not explained by KNOWN_CLR_GAPS");
    }
}
