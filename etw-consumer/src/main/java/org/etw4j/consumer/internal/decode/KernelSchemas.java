package org.etw4j.consumer.internal.decode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.etw4j.Guid;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.controller.KernelEventGroup;

/**
 * Built-in layouts of the common classic kernel (MOF) event classes, keyed by (event-class GUID, opcode,
 * version), named as TraceEvent names them ({@code Windows Kernel/Process/Start}).
 * Immutable after construction; thread-safe. Layouts follow the MS Learn MOF class pages ("EventTrace",
 * "Process_V2/V3/V4_TypeGroup1", "Process_V2_TypeGroup2", "Thread_V2/V3_TypeGroup1", "CSwitch", "Image_Load",
 * "DiskIo_TypeGroup1/2/3", "FileIo_V2/V3 ...", "SampledProfile", "SampledProfileInterval", "StackWalk_Event",
 * "PageFault_HardFault", "PageFault_TypeGroup1", "TcpIp_TypeGroup1..4", "UdpIp_TypeGroup1/2", "SystemConfig_CPU,
 * _PhyDisk, _LogDisk, _NIC, _Services, _Power, _Network, _PnP, _IDEChannel"; SysConfig VolumeMapping from the WPT page
 * "Custom Injection of System Information") and were
 * cross-checked against the offsets PerfView's {@code KernelTraceEventParser} reads (microsoft/perfview f3ec1b38).
 * A few classes have no public page: SystemConfig PnP v4/v5 and SysConfig BuildInfo/SystemPaths/UnknownVolume
 * follow PerfView, Image KernelBase follows LibTrace, SystemConfig Platform follows the field list Windows' TDH
 * printed in a TraceEvent baseline; each is marked where it is defined, and {@code KernelSchemasCorpusTest} checks
 * that real records use exactly their bytes. Pointer-sized fields follow the record's
 * pointer size. Field names are TraceEvent's where it exposes the same bytes under a name (so decoded events
 * line up with PerfView output: {@code ProcessID}, {@code PageDirectoryBase}, {@code FileKey} ...), otherwise
 * the MS Learn property names. Fields TraceEvent computes from other events (file names from file keys,
 * elapsed times, parent thread ids) are not produced: they are not in the payload.
 *
 * <p>Beyond these hand-written layouts, every other classic event TraceEvent's kernel parser knows is added from the
 * facts {@link KernelTraceEventTable} holds (generated from microsoft/perfview f3ec1b38 by
 * {@code tools/traceevent-tables/kernel_facts.py}): TraceEvent's task and opcode names, and a layout per version
 * TraceEvent asserts, built from the offsets it reads, or one written here where the offsets leave bytes
 * unexplained ({@code traceEventOverrides}). Hand-written layouts win from their first version; TraceEvent's facts
 * fill the older versions below them. {@link #whyUndecoded} says why an event still has no layout;
 * {@code KernelTraceEventTableTest} checks every entry with both pointer sizes.
 *
 * <p>Lookup picks the layout of the highest version not above the event's (newer kernels append fields; the
 * extra bytes are then reported as undecoded by the caller).
 */
public final class KernelSchemas {

    /** The provider name TraceEvent gives all classic kernel events. */
    public static final String PROVIDER_NAME = org.etw4j.controller.WellKnownProviders.KERNEL;

    public static final Guid EVENT_TRACE = KernelEventGroup.EVENT_TRACE.guid();
    public static final Guid PROCESS = KernelEventGroup.PROCESS.guid();
    public static final Guid THREAD = KernelEventGroup.THREAD.guid();
    public static final Guid PAGE_FAULT = KernelEventGroup.PAGE_FAULT.guid();
    public static final Guid DISK_IO = KernelEventGroup.DISK_IO.guid();
    public static final Guid FILE_IO = KernelEventGroup.FILE_IO.guid();
    public static final Guid IMAGE = KernelEventGroup.IMAGE.guid();
    public static final Guid PERF_INFO = KernelEventGroup.PERF_INFO.guid();
    public static final Guid STACK_WALK = KernelEventGroup.STACK_WALK.guid();
    public static final Guid TCP_IP = KernelEventGroup.TCP_IP.guid();
    public static final Guid UDP_IP = KernelEventGroup.UDP_IP.guid();
    public static final Guid REGISTRY = KernelEventGroup.REGISTRY.guid();
    public static final Guid SYSTEM_CONFIG = KernelEventGroup.EVENT_TRACE_CONFIG.guid();
    public static final Guid SYS_CONFIG = KernelEventGroup.SYS_CONFIG.guid();
    public static final Guid ALPC = KernelEventGroup.ALPC.guid();
    public static final Guid SPLIT_IO = KernelEventGroup.SPLIT_IO.guid();
    public static final Guid OBJECT = KernelEventGroup.OBJECT.guid();
    public static final Guid LOST_EVENT = KernelEventGroup.LOST_EVENT.guid();
    /** xperf/KernelTraceControl image identity events (merged traces); layouts from TraceEvent only. */
    public static final Guid IMAGE_ID = Guid.parse("b3e675d7-2554-4f18-830b-2762732560de");

    /**
     * The result of a lookup (immutable value; thread-safe).
     *
     * @param schema   the layout, or {@code null} when the class is known but the opcode/version is not (or the
     *                 class is unknown)
     * @param taskName the class's task name when the class is known, else {@code null}
     * @param notes    what the layout leaves unexplained (bytes TraceEvent's kernel parser reads no field from),
     *                 for the decoded event's notes; empty for most layouts
     */
    public record Lookup(EventSchema schema, String taskName, String providerName, List<String> notes) {
        /** A lookup without notes. */
        public Lookup(EventSchema schema, String taskName, String providerName) {
            this(schema, taskName, providerName, List.of());
        }
    }

    /**
     * One opcode of a class: its name, its layouts by first version ({@code null}: undocumented from there on), the
     * task name TraceEvent gives it when that differs from the class's ({@code null} otherwise: e.g. ReadyThread's
     * "Dispatcher" on the Thread class), and, for versions without layout, why there is none.
     */
    private record OpcodeDef(String name, NavigableMap<Integer, List<FieldSpec>> layouts, String taskName,
                             Map<Integer, String> why, java.util.Set<Integer> generated) {
        OpcodeDef(String name, NavigableMap<Integer, List<FieldSpec>> layouts) {
            this(name, layouts, null, Map.of(), java.util.Set.of());
        }
    }

    private record ClassDef(String providerName, String taskName, Map<Integer, OpcodeDef> opcodes,
                            Map<String, ValueMap> maps) {
    }

    private final Map<Guid, ClassDef> classes;
    private final Map<String, EventSchema> cache = new java.util.concurrent.ConcurrentHashMap<>();

    private KernelSchemas(Map<Guid, ClassDef> classes) {
        this.classes = classes;
    }

    private static final KernelSchemas BUILT_IN = build();

    /** The built-in table. */
    public static KernelSchemas builtIn() {
        return BUILT_IN;
    }

    /**
     * Every answer of {@link #find} so far (the tables are immutable, so answers never change), by class, then
     * opcode and version (both u8 in event headers): array reads instead of the class, opcode and floor-version
     * lookups, and no key object per event (the view decodes without allocating). Inner arrays are made on first
     * use and published racily: a reader that sees a slot empty resolves again, which gives an equal answer.
     * Bounded for event classes the table does not know (a trace can hold any number of them).
     */
    private final Map<Guid, Lookup[][]> found = new java.util.concurrent.ConcurrentHashMap<>();

    /** The layout for an event of class {@code eventClass}. */
    public Lookup find(Guid eventClass, int opcode, int version) {
        if ((opcode & ~0xFF) != 0 || (version & ~0xFF) != 0) {
            return resolve(eventClass, opcode, version);
        }
        Lookup[][] byOpcode = found.get(eventClass);
        Lookup[] byVersion = byOpcode == null ? null : byOpcode[opcode];
        Lookup hit = byVersion == null ? null : byVersion[version];
        if (hit == null) {
            hit = resolve(eventClass, opcode, version);
            if (byOpcode == null && (hit.providerName() != null || found.size() < 256)) {
                byOpcode = found.computeIfAbsent(eventClass, k -> new Lookup[256][]);
            }
            if (byOpcode != null) {
                if (byOpcode[opcode] == null) {
                    byOpcode[opcode] = new Lookup[256];
                }
                byOpcode[opcode][version] = hit;
            }
        }
        return hit;
    }

    private Lookup resolve(Guid eventClass, int opcode, int version) {
        ClassDef c = classes.get(eventClass);
        if (c == null) {
            return new Lookup(null, null, null);
        }
        OpcodeDef o = c.opcodes.get(opcode);
        if (o == null) {
            return new Lookup(null, c.taskName, c.providerName);
        }
        String taskName = o.taskName != null ? o.taskName : c.taskName;
        Map.Entry<Integer, List<FieldSpec>> layout = o.layouts.floorEntry(version);
        if (layout == null || layout.getValue() == null) {
            // no layout at or below this version, or a later version whose layout no public source documents
            return new Lookup(null, taskName, c.providerName);
        }
        String key = eventClass + "/" + opcode + "/" + layout.getKey();
        EventSchema s = cache.computeIfAbsent(key, k -> new EventSchema(eventClass, c.providerName, opcode,
                layout.getKey(), 0, opcode, taskName, o.name,
                EventSchema.traceEventName(taskName, opcode, o.name, taskName), null, layout.getValue(),
                c.maps, SchemaSource.KERNEL_MOF));
        String note = o.why.get(layout.getKey());
        return new Lookup(s, taskName, c.providerName, note == null ? List.of() : List.of(note));
    }

    /** Event classes known here. */
    public java.util.Set<Guid> classes() {
        return classes.keySet();
    }

    // ------------------------------------------------------------------------------------------ table

    private static final class ClassBuilder {
        final String providerName;
        final String taskName;
        final Map<Integer, OpcodeDef> opcodes = new HashMap<>();
        final Map<String, ValueMap> maps = new HashMap<>();

        ClassBuilder(String taskName) {
            this(PROVIDER_NAME, taskName);
        }

        ClassBuilder(String providerName, String taskName) {
            this.providerName = providerName;
            this.taskName = taskName;
        }

        /** Layout {@code fields} for {@code opcodes} (name pairs) from {@code version} on. */
        ClassBuilder layout(int version, Object[] opcodeNames, FieldSpec... fields) {
            for (int i = 0; i < opcodeNames.length; i += 2) {
                int op = (Integer) opcodeNames[i];
                String name = (String) opcodeNames[i + 1];
                OpcodeDef d = opcodes.computeIfAbsent(op, k -> new OpcodeDef(name, new TreeMap<>()));
                d.layouts.put(version, List.of(fields));
            }
            return this;
        }

        /**
         * Marks {@code opcodes} from {@code version} on as undocumented: such events stay undecoded instead of being
         * read with an older layout that no longer matches their bytes.
         */
        ClassBuilder undocumentedFrom(int version, Object[] opcodeNames) {
            for (int i = 0; i < opcodeNames.length; i += 2) {
                int op = (Integer) opcodeNames[i];
                String name = (String) opcodeNames[i + 1];
                opcodes.computeIfAbsent(op, k -> new OpcodeDef(name, new TreeMap<>())).layouts.put(version, null);
            }
            return this;
        }

        ClassBuilder bitMap(String name, Object... valueNames) {
            maps.put(name, ValueMap.of(name, true, valueNames));
            return this;
        }

        ClassBuilder valueMap(String name, Object... valueNames) {
            maps.put(name, ValueMap.of(name, false, valueNames));
            return this;
        }

        ClassDef build() {
            return new ClassDef(providerName, taskName, Map.copyOf(opcodes), Map.copyOf(maps));
        }
    }

    private static Object[] ops(Object... pairs) {
        return pairs;
    }

    private static DataSpec u8(String n) {
        return DataSpec.of(n, InType.UINT8);
    }

    private static DataSpec i8(String n) {
        return DataSpec.of(n, InType.INT8);
    }

    private static DataSpec u16(String n) {
        return DataSpec.of(n, InType.UINT16);
    }

    private static DataSpec u32(String n) {
        return DataSpec.of(n, InType.UINT32);
    }

    private static DataSpec i32(String n) {
        return DataSpec.of(n, InType.INT32);
    }

    private static DataSpec hex32(String n) {
        return DataSpec.of(n, InType.UINT32, OutType.HEXINT32);
    }

    private static DataSpec hex64(String n) {
        return DataSpec.of(n, InType.UINT64, OutType.HEXINT64);
    }

    private static DataSpec u64(String n) {
        return DataSpec.of(n, InType.UINT64);
    }

    private static DataSpec i64(String n) {
        return DataSpec.of(n, InType.INT64);
    }

    private static DataSpec ptr(String n) {
        return DataSpec.of(n, InType.POINTER, OutType.HEXINT64);
    }

    /** A pointer-sized count or size (a SIZE_T, printed in decimal). */
    private static DataSpec sizeT(String n) {
        return DataSpec.of(n, InType.SIZET);
    }

    private static DataSpec fileTime(String n) {
        return DataSpec.of(n, InType.FILETIME);
    }

    private static DataSpec ustr(String n) {
        return DataSpec.of(n, InType.UNICODE_STRING);
    }

    /** An array of NUL-terminated UTF-16 strings whose element count is the value of field {@code countField}. */
    private static DataSpec ustrArray(String n, String countField) {
        return new DataSpec(n, InType.UNICODE_STRING, OutType.NULL, null, SizeRule.none(), SizeRule.ref(countField));
    }

    private static DataSpec astr(String n) {
        return DataSpec.of(n, InType.ANSI_STRING);
    }

    private static DataSpec fixedUstr(String n, int chars) {
        return new DataSpec(n, InType.UNICODE_STRING, OutType.NULL, null, SizeRule.of(chars), SizeRule.none());
    }

    private static DataSpec bytes(String n, int length) {
        return new DataSpec(n, InType.BINARY, OutType.NULL, null, SizeRule.of(length), SizeRule.none());
    }

    private static DataSpec ipv4(String n) {
        return DataSpec.of(n, InType.UINT32, OutType.IPV4);
    }

    private static DataSpec ipv6(String n) {
        return new DataSpec(n, InType.BINARY, OutType.IPV6, null, SizeRule.of(16), SizeRule.none());
    }

    private static DataSpec port(String n) {
        return DataSpec.of(n, InType.UINT16, OutType.PORT);
    }

    private static DataSpec sid(String n) {
        return DataSpec.of(n, InType.WBEM_SID);
    }

    private static DataSpec mapped(DataSpec d, String map) {
        return new DataSpec(d.name(), d.inType(), d.outType(), map, d.length(), d.count());
    }

    private static KernelSchemas build() {
        Map<Guid, ClassDef> m = new HashMap<>();

        // EventTrace: the logfile header (opcode 0; TRACE_LOGFILE_HEADER, etw-formats.md 3.5 / MS Learn
        // "EventTrace_Header"), header extensions and rundown markers.
        m.put(EVENT_TRACE, new ClassBuilder("EventTrace")
                .layout(0, ops(0, "Header"),
                        u32("BufferSize"), u32("Version"), u32("ProviderVersion"), u32("NumberOfProcessors"),
                        fileTime("EndTime"), u32("TimerResolution"), u32("MaxFileSize"),
                        hex32("LogFileMode"), u32("BuffersWritten"), u32("StartBuffers"), u32("PointerSize"),
                        u32("EventsLost"), u32("CPUSpeed"), ptr("LoggerNamePointer"), ptr("LogFileNamePointer"),
                        // TIME_ZONE_INFORMATION; TraceEvent calls its Bias "UtcOffsetMinutes".
                        i32("UtcOffsetMinutes"), fixedUstr("TimeZoneStandardName", 32),
                        bytes("TimeZoneStandardDate", 16), i32("TimeZoneStandardBias"),
                        fixedUstr("TimeZoneDaylightName", 32), bytes("TimeZoneDaylightDate", 16),
                        i32("TimeZoneDaylightBias"),
                        // LARGE_INTEGER alignment padding after the 0xAC-byte TIME_ZONE_INFORMATION
                        bytes("Padding", 4),
                        fileTime("BootTime"), i64("PerfFreq"), fileTime("StartTime"), hex32("ReservedFlags"),
                        u32("BuffersLost"), ustr("SessionName"), ustr("LogFileName"))
                .layout(0, ops(5, "Extension", 32, "EndExtension"),
                        u32("GroupMask1"), u32("GroupMask2"), u32("GroupMask3"), u32("GroupMask4"),
                        u32("GroupMask5"), u32("GroupMask6"), u32("GroupMask7"), u32("GroupMask8"))
                .layout(2, ops(5, "Extension", 32, "EndExtension"),
                        u32("GroupMask1"), u32("GroupMask2"), u32("GroupMask3"), u32("GroupMask4"),
                        u32("GroupMask5"), u32("GroupMask6"), u32("GroupMask7"), u32("GroupMask8"),
                        u32("KernelEventVersion"))
                .layout(0, ops(8, "RundownComplete"))
                .build());

        // Process: Process_V2/V3/V4_TypeGroup1 (Start 1, Stop 2, DCStart 3, DCStop 4, Defunct 39) and
        // Process_V2_TypeGroup2 (PerfCtr 32, PerfCtrRundown 33).
        Object[] processOps = ops(1, "Start", 2, "Stop", 3, "DCStart", 4, "DCStop", 39, "Defunct");
        m.put(PROCESS, new ClassBuilder("Process")
                .layout(2, processOps, ptr("UniqueProcessKey"), u32("ProcessID"), u32("ParentID"),
                        u32("SessionID"), i32("ExitStatus"), sid("UserSID"), astr("ImageFileName"),
                        ustr("CommandLine"))
                .layout(3, processOps, ptr("UniqueProcessKey"), u32("ProcessID"), u32("ParentID"),
                        u32("SessionID"), i32("ExitStatus"), ptr("PageDirectoryBase"), sid("UserSID"),
                        astr("ImageFileName"), ustr("CommandLine"))
                .layout(4, processOps, ptr("UniqueProcessKey"), u32("ProcessID"), u32("ParentID"),
                        u32("SessionID"), i32("ExitStatus"), ptr("PageDirectoryBase"),
                        mapped(u32("Flags"), "ProcessFlags"), sid("UserSID"), astr("ImageFileName"),
                        ustr("CommandLine"), ustr("PackageFullName"), ustr("ApplicationID"))
                .layout(2, ops(32, "PerfCtr", 33, "PerfCtrRundown"), u32("ProcessID"), u32("PageFaultCount"),
                        u32("HandleCount"), u32("Reserved"), sizeT("PeakVirtualSize"), sizeT("PeakWorkingSetSize"),
                        sizeT("PeakPagefileUsage"), sizeT("QuotaPeakPagedPoolUsage"),
                        sizeT("QuotaPeakNonPagedPoolUsage"), sizeT("VirtualSize"), sizeT("WorkingSetSize"),
                        sizeT("PagefileUsage"), sizeT("QuotaPagedPoolUsage"), sizeT("QuotaNonPagedPoolUsage"),
                        sizeT("PrivatePageCount"))
                // Process_V4 Flags bits as TraceEvent's ProcessFlags enum names them (None = 0 as there).
                .bitMap("ProcessFlags", 0, "None", 1, "PackageFullName", 2, "Wow64", 4, "Protected")
                .build());

        // Thread: Thread_V2/V3_TypeGroup1 (Start 1, Stop 2, DCStart 3, DCStop 4), CSwitch 36, ReadyThread 50,
        // SetName 72.
        Object[] threadOps = ops(1, "Start", 2, "Stop", 3, "DCStart", 4, "DCStop");
        m.put(THREAD, new ClassBuilder("Thread")
                .layout(2, threadOps, u32("ProcessID"), u32("ThreadID"), ptr("StackBase"), ptr("StackLimit"),
                        ptr("UserStackBase"), ptr("UserStackLimit"), ptr("StartAddr"), ptr("Win32StartAddr"),
                        ptr("TebBase"), u32("SubProcessTag"))
                .layout(3, threadOps, u32("ProcessID"), u32("ThreadID"), ptr("StackBase"), ptr("StackLimit"),
                        ptr("UserStackBase"), ptr("UserStackLimit"), ptr("Affinity"), ptr("Win32StartAddr"),
                        ptr("TebBase"), u32("SubProcessTag"), u8("BasePriority"), u8("PagePriority"),
                        u8("IoPriority"), u8("ThreadFlags"),
                        // Windows 10 appends the thread name to version-3 events (TraceEvent ThreadTraceData reads
                        // it when the event is long enough); Windows 8 events end before it.
                        ustr("ThreadName").asOptional())
                .layout(2, ops(36, "CSwitch"), u32("NewThreadID"), u32("OldThreadID"), i8("NewThreadPriority"),
                        i8("OldThreadPriority"), u8("PreviousCState"), i8("SpareByte"), i8("OldThreadWaitReason"),
                        i8("OldThreadWaitMode"), i8("OldThreadState"), i8("OldThreadWaitIdealProcessor"),
                        u32("NewThreadWaitTime"), u32("Reserved"))
                .layout(2, ops(50, "ReadyThread"), u32("AwakenedThreadID"), mapped(i8("AdjustReason"), "AdjustReason"),
                        i8("AdjustIncrement"), mapped(i8("Flag"), "ReadyThreadFlags"), i8("Reserved"))
                .layout(2, ops(72, "SetName"), u32("ProcessID"), u32("ThreadID"), ustr("ThreadName"))
                // ReadyThread's AdjustReason and Flag as TraceEvent's DispatcherReadyThreadTraceData names them
                // (AdjustReasonEnum, ReadyThreadFlags). MS Learn ReadyThread: AdjustReason 0 ignores the increment,
                // 1 applies it decaying per quantum, 2 applies it as a boost; Flag 0x1 readied from a DPC, 0x2 kernel
                // stack swapped out, 0x4 process address space swapped out.
                .valueMap("AdjustReason", 0, "None", 1, "Unwait", 2, "Boost")
                .bitMap("ReadyThreadFlags", 0, "None", 1, "ReadiedFromDPC", 2, "KernelSwappedOut",
                        4, "ProcessSwappedOut")
                .build());

        // Image: Image_Load v2 (Reserved0 u32) and v3 (SignatureLevel, SignatureType, Reserved0 u16).
        Object[] imageOps = ops(10, "Load", 2, "Unload", 3, "DCStart", 4, "DCStop");
        m.put(IMAGE, new ClassBuilder("Image")
                .layout(2, imageOps, ptr("ImageBase"), sizeT("ImageSize"), u32("ProcessID"), u32("ImageChecksum"),
                        u32("TimeDateStamp"), u32("Reserved0"), ptr("DefaultBase"), u32("Reserved1"),
                        u32("Reserved2"), u32("Reserved3"), u32("Reserved4"), ustr("FileName"))
                .layout(3, imageOps, ptr("ImageBase"), sizeT("ImageSize"), u32("ProcessID"), u32("ImageChecksum"),
                        u32("TimeDateStamp"), u8("SignatureLevel"), u8("SignatureType"), u16("Reserved0"),
                        ptr("DefaultBase"), u32("Reserved1"), u32("Reserved2"), u32("Reserved3"), u32("Reserved4"),
                        ustr("FileName"))
                // KernelBase (33): the kernel's load address, one pointer-sized value. Not on MS Learn; the MOF class
                // Image_KernelBase as LibTrace decodes it (fdoray/libtrace, etw_raw_kernel_payload_decoder.cc:
                // "BaseAddress", pointer-sized); named ImageBase as Windows' TDH names it (TraceEvent baseline).
                .layout(2, ops(33, "KernelBase"), ptr("ImageBase"))
                .build());

        // DiskIo: TypeGroup1 (Read 10, Write 11), TypeGroup2 (ReadInit 12, WriteInit 13, FlushInit 15),
        // TypeGroup3 (FlushBuffers 14); v3 appends IssuingThreadId. TraceEvent calls FileObject "FileKey".
        Object[] diskOps = ops(10, "Read", 11, "Write");
        Object[] diskInitOps = ops(12, "ReadInit", 13, "WriteInit", 15, "FlushInit");
        m.put(DISK_IO, new ClassBuilder("DiskIO")
                .layout(2, diskOps, u32("DiskNumber"), hex32("IrpFlags"), u32("TransferSize"), u32("Reserved"),
                        i64("ByteOffset"), ptr("FileKey"), ptr("Irp"), u64("HighResResponseTime"))
                .layout(3, diskOps, u32("DiskNumber"), hex32("IrpFlags"), u32("TransferSize"), u32("Reserved"),
                        i64("ByteOffset"), ptr("FileKey"), ptr("Irp"), u64("HighResResponseTime"),
                        u32("IssuingThreadId"))
                .layout(2, diskInitOps, ptr("Irp"))
                .layout(3, diskInitOps, ptr("Irp"), u32("IssuingThreadId"))
                .layout(2, ops(14, "FlushBuffers"), u32("DiskNumber"), hex32("IrpFlags"),
                        u64("HighResResponseTime"), ptr("Irp"))
                .layout(3, ops(14, "FlushBuffers"), u32("DiskNumber"), hex32("IrpFlags"),
                        u64("HighResResponseTime"), ptr("Irp"), u32("IssuingThreadId"))
                .build());

        // FileIo: FileIo_Name (Name 0, FileCreate 32, FileDelete 35, FileRundown 36) and the V3 operation
        // classes (Windows 8+; V2 had the thread id as a pointer-sized TTID before FileObject).
        Object[] nameOps = ops(0, "Name", 32, "FileCreate", 35, "FileDelete", 36, "FileRundown");
        Object[] simpleOps = ops(65, "Cleanup", 66, "Close", 73, "Flush");
        Object[] infoOps = ops(69, "SetInfo", 70, "Delete", 71, "Rename", 74, "QueryInfo", 75, "FSControl");
        Object[] dirOps = ops(72, "DirEnum", 77, "DirNotify");
        m.put(FILE_IO, new ClassBuilder("FileIO")
                .layout(2, nameOps, ptr("FileObject"), ustr("FileName"))
                .layout(2, ops(64, "Create"), ptr("IrpPtr"), ptr("TTID"), ptr("FileObject"), u32("CreateOptions"),
                        u32("FileAttributes"), u32("ShareAccess"), ustr("OpenPath"))
                .layout(3, ops(64, "Create"), ptr("IrpPtr"), ptr("FileObject"), u32("TTID"), u32("CreateOptions"),
                        u32("FileAttributes"), u32("ShareAccess"), ustr("OpenPath"))
                .layout(2, ops(67, "Read", 68, "Write"), u64("Offset"), ptr("IrpPtr"), ptr("TTID"),
                        ptr("FileObject"), ptr("FileKey"), u32("IoSize"), u32("IoFlags"))
                .layout(3, ops(67, "Read", 68, "Write"), u64("Offset"), ptr("IrpPtr"), ptr("FileObject"),
                        ptr("FileKey"), u32("TTID"), u32("IoSize"), u32("IoFlags"))
                .layout(2, simpleOps, ptr("IrpPtr"), ptr("TTID"), ptr("FileObject"), ptr("FileKey"))
                .layout(3, simpleOps, ptr("IrpPtr"), ptr("FileObject"), ptr("FileKey"), u32("TTID"))
                .layout(2, infoOps, ptr("IrpPtr"), ptr("TTID"), ptr("FileObject"), ptr("FileKey"),
                        ptr("ExtraInfo"), u32("InfoClass"))
                .layout(3, infoOps, ptr("IrpPtr"), ptr("FileObject"), ptr("FileKey"), ptr("ExtraInfo"),
                        u32("TTID"), u32("InfoClass"))
                .layout(2, dirOps, ptr("IrpPtr"), ptr("TTID"), ptr("FileObject"), ptr("FileKey"), u32("Length"),
                        u32("InfoClass"), u32("FileIndex"), ustr("FileName"))
                .layout(3, dirOps, ptr("IrpPtr"), ptr("FileObject"), ptr("FileKey"), u32("TTID"), u32("Length"),
                        u32("InfoClass"), u32("FileIndex"), ustr("FileName"))
                .layout(2, ops(76, "OperationEnd"), ptr("IrpPtr"), ptr("ExtraInfo"), hex32("NtStatus"))
                .build());

        // PerfInfo: SampledProfile (Sample 46), SampledProfileInterval (SetInterval 72, CollectionStart 73,
        // CollectionEnd 74; v3 appends the source name).
        Object[] intervalOps = ops(72, "SetInterval", 73, "CollectionStart", 74, "CollectionEnd");
        m.put(PERF_INFO, new ClassBuilder("PerfInfo")
                .layout(2, ops(46, "Sample"), ptr("InstructionPointer"), u32("ThreadID"), u16("Count"),
                        u16("Reserved"))
                .layout(2, intervalOps, u32("SampleSource"), u32("NewInterval"), u32("OldInterval"))
                .layout(3, intervalOps, u32("SampleSource"), u32("NewInterval"), u32("OldInterval"),
                        ustr("SourceName"))
                .build());

        // StackWalk_Event (Stack 32): the frames fill the rest of the event.
        m.put(STACK_WALK, new ClassBuilder("StackWalk")
                .layout(2, ops(32, "Stack"), u64("EventTimeStamp"), u32("StackProcess"), u32("StackThread"),
                        new DataSpec("Stack", InType.POINTER, OutType.HEXINT64, null, SizeRule.none(),
                                SizeRule.toEnd()))
                .build());

        // TcpIp (MS Learn TcpIp_SendIPV4, TcpIp_TypeGroup1..4, TcpIp_Fail) and UdpIp (UdpIp_TypeGroup1/2,
        // UdpIp_Fail), Windows Vista+ (v2). Addresses and ports are in network byte order on the wire.
        Object[] tcp4 = ops(11, "Recv", 13, "Disconnect", 14, "Retransmit", 16, "Reconnect", 18, "TCPCopy");
        Object[] tcp6 = ops(27, "RecvIPV6", 29, "DisconnectIPV6", 30, "RetransmitIPV6", 32, "ReconnectIPV6",
                34, "TCPCopyIPV6");
        m.put(TCP_IP, new ClassBuilder("TcpIp")
                .layout(2, ops(10, "Send"), u32("PID"), u32("size"), ipv4("daddr"), ipv4("saddr"), port("dport"),
                        port("sport"), u32("startime"), u32("endtime"), u32("seqnum"), ptr("connid"))
                .layout(2, tcp4, u32("PID"), u32("size"), ipv4("daddr"), ipv4("saddr"), port("dport"), port("sport"),
                        u32("seqnum"), ptr("connid"))
                .layout(2, ops(12, "Connect", 15, "Accept"), u32("PID"), u32("size"), ipv4("daddr"), ipv4("saddr"),
                        port("dport"), port("sport"), u16("mss"), u16("sackopt"), u16("tsopt"), u16("wsopt"),
                        u32("rcvwin"), DataSpec.of("rcvwinscale", InType.INT16), DataSpec.of("sndwinscale", InType.INT16),
                        u32("seqnum"), ptr("connid"))
                .layout(2, ops(26, "SendIPV6"), u32("PID"), u32("size"), ipv6("daddr"), ipv6("saddr"), port("dport"),
                        port("sport"), u32("startime"), u32("endtime"), u32("seqnum"), ptr("connid"))
                .layout(2, tcp6, u32("PID"), u32("size"), ipv6("daddr"), ipv6("saddr"), port("dport"), port("sport"),
                        u32("seqnum"), ptr("connid"))
                .layout(2, ops(28, "ConnectIPV6", 31, "AcceptIPV6"), u32("PID"), u32("size"), ipv6("daddr"),
                        ipv6("saddr"), port("dport"), port("sport"), u16("mss"), u16("sackopt"), u16("tsopt"),
                        u16("wsopt"), u32("rcvwin"), DataSpec.of("rcvwinscale", InType.INT16),
                        DataSpec.of("sndwinscale", InType.INT16), u32("seqnum"), ptr("connid"))
                .layout(2, ops(17, "Fail"), u16("Proto"), u16("FailureCode"))
                .build());
        m.put(UDP_IP, new ClassBuilder("UdpIp")
                .layout(2, ops(10, "Send", 11, "Recv"), u32("PID"), u32("size"), ipv4("daddr"), ipv4("saddr"),
                        port("dport"), port("sport"), u32("seqnum"), ptr("connid"))
                .layout(2, ops(26, "SendIPV6", 27, "RecvIPV6"), u32("PID"), u32("size"), ipv6("daddr"),
                        ipv6("saddr"), port("dport"), port("sport"), u32("seqnum"), ptr("connid"))
                .layout(2, ops(17, "Fail"), u16("Proto"), u16("FailureCode"))
                .build());

        // PageFault: PageFault_TypeGroup1 (10-15) and PageFault_HardFault (32). TraceEvent names the task "Memory".
        m.put(PAGE_FAULT, new ClassBuilder("Memory")
                .layout(2, ops(10, "TransitionFault", 11, "DemandZeroFault", 12, "CopyOnWrite", 13, "GuardMemory",
                        14, "HardMemory", 15, "AccessViolation"), ptr("VirtualAddress"), ptr("ProgramCounter"))
                .layout(2, ops(32, "HardFault"), u64("InitialTime"), i64("ReadOffset"), ptr("VirtualAddress"),
                        ptr("FileKey"), u32("ThreadID"), u32("ByteCount"))
                .build());

        // SystemConfig (EventTraceConfig) hardware/configuration rundown, Vista+ (v2) MOF classes as MS Learn
        // documents them; field names follow TraceEvent where it prints the same bytes (ProcessID, TargetID, S1..S5).
        // Fixed char16[Max(n)] arrays occupy n characters whatever the string length.
        m.put(SYSTEM_CONFIG, new ClassBuilder("SystemConfig")
                // https://learn.microsoft.com/en-us/windows/win32/etw/systemconfig-cpu
                .layout(2, ops(10, "CPU"), u32("MHz"), u32("NumberOfProcessors"), u32("MemSize"), u32("PageSize"),
                        u32("AllocationGranularity"), fixedUstr("ComputerName", 256), fixedUstr("DomainName", 132),
                        hex32("HyperThreadingFlag"))
                // https://learn.microsoft.com/en-us/windows/win32/etw/systemconfig-phydisk
                .layout(2, ops(11, "PhyDisk"), u32("DiskNumber"), u32("BytesPerSector"), u32("SectorsPerTrack"),
                        u32("TracksPerCylinder"), u64("Cylinders"), u32("SCSIPort"), u32("SCSIPath"),
                        u32("SCSITarget"), u32("SCSILun"), fixedUstr("Manufacturer", 256), u32("PartitionCount"),
                        u8("WriteCacheEnabled"), u8("Pad"), fixedUstr("BootDriveLetter", 3), fixedUstr("Spare", 2))
                // https://learn.microsoft.com/en-us/windows/win32/etw/systemconfig-logdisk
                .layout(2, ops(12, "LogDisk"), u64("StartOffset"), u64("PartitionSize"), u32("DiskNumber"),
                        u32("Size"), u32("DriveType"), fixedUstr("DriveLetterString", 4), u32("Pad1"),
                        u32("PartitionNumber"), u32("SectorsPerCluster"), u32("BytesPerSector"), u32("Pad2"),
                        i64("NumberOfFreeClusters"), i64("TotalNumberOfClusters"), fixedUstr("FileSystem", 16),
                        u32("VolumeExt"), u32("Pad3"))
                // https://learn.microsoft.com/en-us/windows/win32/etw/systemconfig-nic (PhysicalAddr is Format("x")
                // there; kept decimal as TraceEvent prints it)
                .layout(2, ops(13, "NIC"), u64("PhysicalAddr"), u32("PhysicalAddrLen"), u32("Ipv4Index"),
                        u32("Ipv6Index"), ustr("NICDescription"), ustr("IpAddresses"), ustr("DnsServerAddresses"))
                // https://learn.microsoft.com/en-us/windows/win32/etw/systemconfig-services
                .layout(2, ops(15, "Services"), u32("ProcessID"), u32("ServiceState"), u32("SubProcessTag"),
                        ustr("ServiceName"), ustr("DisplayName"), ustr("ProcessName"))
                // https://learn.microsoft.com/en-us/windows/win32/etw/systemconfig-power
                .layout(2, ops(16, "Power"), u8("S1"), u8("S2"), u8("S3"), u8("S4"), u8("S5"), u8("Pad1"),
                        u8("Pad2"), u8("Pad3"))
                // https://learn.microsoft.com/en-us/windows/win32/etw/systemconfig-network
                .layout(2, ops(17, "Network"), u32("TcbTablePartitions"), u32("MaxHashTableSize"),
                        u32("MaxUserPort"), u32("TcpTimedWaitDelay"))
                // https://learn.microsoft.com/en-us/windows/win32/etw/systemconfig-pnp
                .layout(2, ops(22, "PnP"), u32("IDLength"), u32("DescriptionLength"), u32("FriendlyNameLength"),
                        ustr("DeviceID"), ustr("DeviceDescription"), ustr("FriendlyName"))
                // Versions 4 and 5 (WMI_PNP_RECORD_V4/_V5 in ntwmi.h, not public): no MS Learn page. Layout as
                // PerfView's SystemConfigPnPTraceData reads it (microsoft/perfview f3ec1b38, KernelTraceEventParser.cs):
                // v4 = ClassGuid, UpperFilterCount, LowerFilterCount, then five NUL-terminated strings from offset
                // 24; v5 adds DevStatus and DevProblem (strings from offset 32). PerfView leaves the upper and lower
                // filter names unread; here they are the count-sized string arrays the two counts announce (every
                // v4 event of the corpus then decodes with no byte left over).
                .layout(4, ops(22, "PnP"), DataSpec.of("ClassGuid", InType.GUID), u32("UpperFilterCount"),
                        u32("LowerFilterCount"), ustr("DeviceID"), ustr("DeviceDescription"), ustr("FriendlyName"),
                        ustr("PdoName"), ustr("ServiceName"), ustrArray("UpperFilters", "UpperFilterCount"),
                        ustrArray("LowerFilters", "LowerFilterCount"))
                .layout(5, ops(22, "PnP"), DataSpec.of("ClassGuid", InType.GUID), u32("UpperFilterCount"),
                        u32("LowerFilterCount"), u32("DevStatus"), u32("DevProblem"), ustr("DeviceID"),
                        ustr("DeviceDescription"), ustr("FriendlyName"), ustr("PdoName"), ustr("ServiceName"),
                        ustrArray("UpperFilters", "UpperFilterCount"), ustrArray("LowerFilters", "LowerFilterCount"))
                // https://learn.microsoft.com/en-us/windows/win32/etw/systemconfig-idechannel
                .layout(2, ops(23, "IDEChannel"), u32("TargetID"), u32("DeviceType"), u32("DeviceTimingMode"),
                        u32("LocationInformationLen"), ustr("LocationInformation"))
                // Platform (opcode 25): no public page and no PerfView parser. Names and order are the ones Windows'
                // own TDH gave for this MOF class (provider MSNT_SystemTrace) on the machine that made the TraceEvent
                // baseline net.4.5.2.x64; the corpus payload (112 bytes) is exactly four NUL-terminated UTF-16
                // strings. Inferred, not documented: kept only because both facts agree.
                .layout(2, ops(25, "Platform"), ustr("SystemManufacturer"), ustr("SystemProductName"),
                        ustr("BiosDate"), ustr("BiosVersion"))
                .build());

        // SysConfig: system information KernelTraceControl injects when it merges traces. Only VolumeMapping (opcode
        // 35) has a public payload description: "two NULL-terminated Unicode strings. The first string contains the
        // Windows NT path and the second string contains the MS-DOS path" (EVENT_TRACE_MERGE_EXTENDED_DATA_
        // VOLUME_MAPPING, https://learn.microsoft.com/en-us/windows-hardware/test/wpt/custom-injection-of-system-information).
        // Field names are TraceEvent's. BuildInfo (32), SystemPaths (33) and UnknownVolume (34) have no public
        // documentation; their layouts are the ones PerfView reads (microsoft/perfview f3ec1b38,
        // KernelTraceEventParser.cs: BuildInfoTraceData = FILETIME InstallDate + BuildLab + ProductName,
        // SystemPathsTraceData = two strings, UnknownVolume = one string it calls Value).
        m.put(SYS_CONFIG, new ClassBuilder("SysConfig")
                .layout(0, ops(32, "BuildInfo"), fileTime("InstallDate"), ustr("BuildLab"), ustr("ProductName"))
                .layout(0, ops(33, "SystemPaths"), ustr("SystemDirectory"), ustr("SystemWindowsDirectory"))
                .layout(0, ops(34, "UnknownVolume"), ustr("Value"))
                .layout(0, ops(35, "VolumeMapping"), ustr("NtPath"), ustr("DosPath"))
                .build());

        // KernelTraceControl ImageID (added by xperf/PerfView when merging): no public documentation; layouts as
        // PerfView's SymbolTraceEventParser reads them (ImageIDTraceData, DbgIDRSDSTraceData, FileVersionTraceData).
        Object[] rsdsOps = ops(36, "DbgID_RSDS", 37, "DbgID_ILRSDS");
        m.put(IMAGE_ID, new ClassBuilder(EventDecoder.METADATA_PROVIDER_NAME, "ImageID")
                .layout(0, ops(0, "Info"), ptr("ImageBase"), sizeT("ImageSize"), u32("ProcessID"),
                        u32("TimeDateStamp"), ustr("OriginalFileName"))
                .layout(0, rsdsOps, ptr("ImageBase"), u32("ProcessID"), DataSpec.of("GuidSig", InType.GUID),
                        u32("Age"), DataSpec.of("PDBFileName", InType.ANSI_STRING, OutType.UTF8))
                .layout(0, ops(32, "None"))
                .layout(0, ops(64, "FileVersion"), u32("ImageSize"), u32("TimeDateStamp"), ustr("OrigFileName"),
                        ustr("FileDescription"), ustr("FileVersion"), ustr("BinFileVersion"), ustr("VerLanguage"),
                        ustr("ProductName"), ustr("CompanyName"), ustr("ProductVersion"), ustr("FileId"),
                        ustr("ProgramId"))
                .build());

        addTraceEventTable(m);
        return new KernelSchemas(Map.copyOf(m));
    }

    /**
     * Adds every classic event of TraceEvent's kernel parser ({@link KernelTraceEventTable}) that the hand-written
     * table above does not define: its class (with TraceEvent's task name) when new, its opcode with TraceEvent's
     * opcode and task names, and for each version TraceEvent knows the layout built from its payload facts, or none
     * (the reason is kept for {@link #whyUndecoded}). Hand-written layouts always win: they carry MS Learn's names
     * and types and were checked against the corpus.
     */
    private static void addTraceEventTable(Map<Guid, ClassDef> m) {
        KernelTraceEventTable table = KernelTraceEventTable.get();
        Map<Guid, Map<Integer, OpcodeDef>> added = new HashMap<>();
        Map<Guid, String> newTasks = new HashMap<>();
        Map<String, NavigableMap<Integer, List<FieldSpec>>> overrides = traceEventOverrides();
        for (KernelTraceEventTable.Entry e : table.entries()) {
            if (e.kind() != 'K') {
                continue;
            }
            ClassDef c = m.get(e.guid());
            OpcodeDef hand = c == null ? null : c.opcodes.get(e.opcode());
            Map<Integer, OpcodeDef> ops = added.computeIfAbsent(e.guid(), k -> new HashMap<>());
            if (ops.containsKey(e.opcode())) {
                continue; // registered twice by TraceEvent under one opcode
            }
            String classTask = c != null ? c.taskName : newTasks.computeIfAbsent(e.guid(), k -> e.task());
            NavigableMap<Integer, List<FieldSpec>> layouts = new TreeMap<>();
            Map<Integer, String> why = new HashMap<>();
            java.util.Set<Integer> generated = new java.util.HashSet<>();
            NavigableMap<Integer, List<FieldSpec>> override = overrides.get(e.payloadClass());
            java.util.SortedSet<Integer> versions = new java.util.TreeSet<>(table.versions(e.payloadClass()));
            if (override != null) {
                versions.addAll(override.keySet()); // versions a hand-written layout starts at (TraceEvent tests
                                                    // them inside getters, not by assertion)
            }
            for (int v : versions) {
                if (hand != null && (v >= hand.layouts.firstKey() || table.unversioned(e.payloadClass()))) {
                    continue; // the hand-written layouts decide from their first version on
                }
                generated.add(v);
                Map.Entry<Integer, List<FieldSpec>> o = override == null ? null : override.floorEntry(v);
                if (o != null) {
                    layouts.put(v, o.getValue());
                    continue;
                }
                KernelTraceEventTable.Layout l = table.layout(e.payloadClass(), v);
                layouts.put(v, l.fields());
                if (l.fields() == null) {
                    why.put(v, l.why());
                } else if (l.note() != null) {
                    why.put(v, l.note()); // a layout with bytes TraceEvent reads nothing from: the note says which
                }
            }
            if (hand != null) {
                // TraceEvent's task name where it differs (ReadyThread is "Dispatcher/ReadyThread" there)
                String task = e.task().equals(c.taskName) ? hand.taskName : e.task();
                if (generated.isEmpty() && java.util.Objects.equals(task, hand.taskName)) {
                    continue;
                }
                // older versions (Windows XP/2003 layouts) from TraceEvent's facts below the hand-written ones
                layouts.putAll(hand.layouts);
                ops.put(e.opcode(), new OpcodeDef(hand.name, layouts, task, Map.copyOf(why),
                        java.util.Set.copyOf(generated)));
                continue;
            }
            ops.put(e.opcode(), new OpcodeDef(e.opcodeName(), layouts,
                    e.task().equals(classTask) ? null : e.task(), Map.copyOf(why), java.util.Set.copyOf(generated)));
        }
        added.forEach((guid, ops) -> {
            ClassDef c = m.get(guid);
            Map<Integer, OpcodeDef> all = new HashMap<>(c != null ? c.opcodes : Map.of());
            all.putAll(ops);
            m.put(guid, c != null ? new ClassDef(c.providerName, c.taskName, Map.copyOf(all), c.maps)
                    : new ClassDef(PROVIDER_NAME, newTasks.get(guid), Map.copyOf(all), Map.of()));
        });
    }

    /** The first version this class and opcode has a layout entry for (0 when unknown). */
    int firstVersion(Guid eventClass, int opcode) {
        ClassDef c = classes.get(eventClass);
        OpcodeDef o = c == null ? null : c.opcodes.get(opcode);
        return o == null || o.layouts.isEmpty() ? 0 : o.layouts.firstKey();
    }

    /** Whether the layout for this event is one of the hand-written ones (not built from TraceEvent's facts). */
    boolean isHandWritten(Guid eventClass, int opcode, int version) {
        ClassDef c = classes.get(eventClass);
        OpcodeDef o = c == null ? null : c.opcodes.get(opcode);
        if (o == null) {
            return false;
        }
        Map.Entry<Integer, List<FieldSpec>> layout = o.layouts.floorEntry(version);
        return layout != null && !o.generated.contains(layout.getKey());
    }

    /**
     * Hand-written layouts for TraceEvent payload classes whose facts alone do not give a sequential layout (bytes
     * TraceEvent skips or reads twice), by payload class; each names its source.
     */
    private static Map<String, NavigableMap<Integer, List<FieldSpec>>> traceEventOverrides() {
        Map<String, NavigableMap<Integer, List<FieldSpec>>> o = new HashMap<>();
        // TraceEvent's EmptyTraceData: it names these events and reads no field (their payload, if any, stays
        // undecoded here as it does there).
        override(o, "EmptyTraceData", 0);
        // TraceEvent's StringTraceData (TraceEvent.cs) with isUnicode false, as its kernel parser registers PerfInfo
        // Mark: one NUL-terminated 8-bit string it calls Value.
        override(o, "StringTraceData", 0, astr("Value"));
        // Registry_TypeGroup1 (MS Learn, Vista+ = version 2): InitialTime, Status, Index, KeyHandle, KeyName. Names as
        // TraceEvent's RegistryTraceData gives them (InitialTimeQPC); it reads KeyName at HostOffset(20, 1), after
        // the pointer. Versions 0 and 1 (Windows XP) keep no layout.
        override(o, "RegistryTraceData", 2, i64("InitialTimeQPC"), i32("Status"), u32("Index"), ptr("KeyHandle"),
                ustr("KeyName"));
        // TcpIp_TypeGroup1 (MS Learn, version 2) for the opcodes TraceEvent reads with TcpIpTraceData that the
        // hand-written table above does not define (ARPCopy, FullACK, PartACK, DupACK): the same layout as Recv.
        override(o, "TcpIpTraceData", 2, u32("PID"), u32("size"), ipv4("daddr"), ipv4("saddr"), port("dport"),
                port("sport"), u32("seqnum"), ptr("connid"));
        // StackWalk_Event's header (MS Learn: EventTimeStamp, StackProcess, StackThread), then the stack key
        // TraceEvent's StackWalkRefTraceData reads at offset 16 (pointer-sized).
        override(o, "StackWalkRefTraceData", 0, i64("EventTimeStampQPC"), u32("StackProcess"), u32("StackThread"),
                ptr("StackKey"));
        // VirtualAlloc (MS Learn PageFault_VirtualAlloc: BaseAddress, RegionSize, ProcessId, Flags); names as
        // TraceEvent's VirtualAllocTraceData (BaseAddr, Length, Flags; it takes ProcessID from the header).
        override(o, "VirtualAllocTraceData", 0, ptr("BaseAddr"), sizeT("Length"), u32("ProcessID"),
                hex32("Flags"));
        // SystemConfig IRQ version 3 (Windows 7): TraceEvent reads IRQAffinity at 0, IRQNum at 8 and
        // DeviceDescriptionLen at 16, so four bytes follow IRQNum that no public source names (MS Learn's
        // SystemConfig_IRQ is the version-2 layout); they are kept as Reserved bytes rather than dropped.
        override(o, "SystemConfigIRQTraceData", 3, hex64("IRQAffinity"), u32("IRQNum"), bytes("Reserved", 4),
                u32("DeviceDescriptionLen"), ustr("DeviceDescription"));
        // Windows XP/2003 layouts whose facts TraceEvent reads through version-dependent getters (the extracted
        // table keeps only plain reads), at the offsets those getters read for the version named:
        // TcpIpTraceData version 0: daddr at 0, saddr at 4, dport 8, sport 10, size 12.
        override(o, "TcpIpTraceData", 0, ipv4("daddr"), ipv4("saddr"), port("dport"), port("sport"), i32("size"));
        // version 1: size at 4, daddr 8, saddr 12, dport 16, sport 18, connid at 20 (pointer), seqnum after it.
        // TraceEvent reads nothing at 0; MS Learn's TcpIp_TypeGroup1 (version 2, the same first 20 bytes) names it PID.
        override(o, "TcpIpTraceData", 1, u32("PID"), i32("size"), ipv4("daddr"), ipv4("saddr"), port("dport"),
                port("sport"), ptr("connid"), u32("seqnum"));
        // UdpIpTraceData version 0: context (pointer) at 0, saddr at HostOffset(4, 1), sport, size (16-bit), daddr,
        // dport, dsize (16-bit) at HostOffset(18, 1).
        override(o, "UdpIpTraceData", 0, ptr("context"), ipv4("saddr"), port("sport"), DataSpec.of("size", InType.INT16),
                ipv4("daddr"), port("dport"), DataSpec.of("dsize", InType.INT16));
        // version 1: size at 4, daddr 8, saddr 12, dport 16, sport 18, as TraceEvent's version >= 1 getters read
        // them. Its context (a pointer at 0) and dsize (at HostOffset(18, 1)) getters ignore the version and overlap
        // size (8-byte pointers) and sport (4-byte pointers), so those two are not fields here; the u32 at 0 is named
        // PID as MS Learn's UdpIp_TypeGroup1 (version 2, the same first 20 bytes) names it.
        override(o, "UdpIpTraceData", 1, u32("PID"), i32("size"), ipv4("daddr"), ipv4("saddr"), port("dport"),
                port("sport"));
        // ProcessTraceData version 1: TraceEvent's payload names list PageDirectoryBase (the pointer at 0 it skips),
        // then it reads ProcessID at HostOffset(4, 1), ParentID, SessionID, ExitStatus, skips the user SID
        // (GetKernelImageNameOffset) and reads the 8-bit image file name; names as the hand-written versions 2-4.
        override(o, "ProcessTraceData", 1, ptr("PageDirectoryBase"), u32("ProcessID"), u32("ParentID"),
                u32("SessionID"), i32("ExitStatus"), sid("UserSID"), astr("ImageFileName"));
        // ThreadTraceData version 1: ProcessID at 0, ThreadID at 4 (TraceEvent swaps them for versions < 2) and
        // WaitMode at HostOffset(32, 6); the six pointers between are read by its version >= 2 getters at the same
        // offsets (StackBase at 8 .. Win32StartAddr at HostOffset(28, 5)) and named so here.
        override(o, "ThreadTraceData", 1, u32("ProcessID"), u32("ThreadID"), ptr("StackBase"), ptr("StackLimit"),
                ptr("UserStackBase"), ptr("UserStackLimit"), ptr("StartAddr"), ptr("Win32StartAddr"), u8("WaitMode"));
        // SystemConfigServicesTraceData versions 0-1: the 34 characters at 580 are ProcessName, in TraceEvent's payload
        // names between DisplayName and ProcessID (it has no getter for them); MS Learn SystemConfig_Services.
        override(o, "SystemConfigServicesTraceData", 0, fixedUstr("ServiceName", 34), fixedUstr("DisplayName", 256),
                fixedUstr("ProcessName", 34), u32("ProcessID"));
        // MemoryProcessMemInfoTraceData (classic Memory/ProcessMemInfo, opcode 125): Count, then Count records whose
        // layout grows at version 2 (TraceEvent's ElementSize and getters test Version >= 2); the Kernel-Memory
        // provider's ProcessMemInfo event shares it (KernelMemorySchemas).
        for (int v : new int[] {0, 2}) {
            override(o, "MemoryProcessMemInfoTraceData", v,
                    KernelMemorySchemas.processMemInfoFields(v).toArray(FieldSpec[]::new));
        }
        return o;
    }

    private static void override(Map<String, NavigableMap<Integer, List<FieldSpec>>> o, String payloadClass,
                                 int fromVersion, FieldSpec... fields) {
        o.computeIfAbsent(payloadClass, k -> new TreeMap<>()).put(fromVersion, List.of(fields));
    }

    /**
     * Why an event of this class, opcode and version has no layout here, or {@code null} when it has one or the
     * table has nothing to say.
     */
    public String whyUndecoded(Guid eventClass, int opcode, int version) {
        ClassDef c = classes.get(eventClass);
        OpcodeDef o = c == null ? null : c.opcodes.get(opcode);
        if (o == null) {
            return c == null ? null : "neither etw4j's kernel table nor TraceEvent's kernel parser knows opcode "
                    + opcode + " of class " + c.taskName;
        }
        Map.Entry<Integer, List<FieldSpec>> layout = o.layouts.floorEntry(version);
        if (layout == null) {
            return "no layout below version " + o.layouts.firstKey() + " of " + c.taskName + "/" + o.name;
        }
        if (layout.getValue() != null) {
            return null;
        }
        String why = o.why.get(layout.getKey());
        return why != null ? why : "no public source documents version " + layout.getKey() + " of " + c.taskName
                + "/" + o.name;
    }

    /** For tests: every (class, opcode) pair known, as {@code task/opcode} names. */
    List<String> names() {
        List<String> l = new ArrayList<>();
        classes.forEach((g, c) -> c.opcodes.forEach((op, d) -> l.add(c.taskName + "/" + d.name)));
        return l;
    }
}
