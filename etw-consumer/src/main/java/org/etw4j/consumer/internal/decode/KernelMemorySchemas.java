package org.etw4j.consumer.internal.decode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.internal.schema.SchemaProvider;
import org.etw4j.consumer.internal.schema.SchemaQuery;

/**
 * Built-in layouts for the two Microsoft-Windows-Kernel-Memory manifest events TraceEvent's kernel parser decodes
 * with its own classes (microsoft/perfview f3ec1b38, KernelTraceEventParser.cs, facts only): MemInfo (id 1,
 * MemInfoTraceData) and ProcessMemInfo (id 2, MemoryProcessMemInfoTraceData). Asked last, after registered
 * manifests, in-trace TDH metadata and the machine's TDH, so the provider's own schema always wins where there is
 * one. Immutable; thread-safe.
 */
final class KernelMemorySchemas implements SchemaProvider {

    /** Microsoft-Windows-Kernel-Memory (TraceEvent's MemoryProviderGuid). */
    static final Guid PROVIDER = Guid.parse("d1d93ef7-e1f2-4f45-9943-03d245fe6c00");
    static final String PROVIDER_NAME = "Microsoft-Windows-Kernel-Memory";

    private static final List<String> MEM_INFO_NOTE = List.of("decoded with etw4j's built-in layout of TraceEvent's "
            + "MemInfoTraceData, which reads PriorityLevels and five pointer-sized page counts from offset 1; bytes "
            + "after BadPageCount, which TraceEvent does not read and no public source describes, stay undecoded");
    private static final List<String> PROCESS_NOTE = List.of("decoded with etw4j's built-in layout of TraceEvent's "
            + "MemoryProcessMemInfoTraceData (Count, then Count packed records of a ProcessID and pointer-sized page "
            + "counts, four more from version 2)");

    private static final EventSchema MEM_INFO = schema(1, 0, "MemoryMemInfo", List.of(u8("PriorityLevels"),
            ptr("ZeroPageCount"), ptr("FreePageCount"), ptr("ModifiedPageCount"), ptr("ModifiedNoWritePageCount"),
            ptr("BadPageCount")));
    private static final EventSchema PROCESS_V0 = processMemInfo(0);
    private static final EventSchema PROCESS_V2 = processMemInfo(2);

    @Override
    public Reads reads() {
        return Reads.EVENT_HEADERS;
    }

    @Override
    public boolean resolve(SchemaQuery q) {
        if (!q.provider().equals(PROVIDER)) {
            return false;
        }
        EventSchema s = schema(q.record().id(), q.record().version());
        return s != null && q.found(s, s == MEM_INFO ? MEM_INFO_NOTE : PROCESS_NOTE);
    }

    /** The built-in layout of event {@code id} at {@code version}, or {@code null}. */
    static EventSchema schema(int id, int version) {
        return switch (id) {
            case 1 -> MEM_INFO;
            case 2 -> version >= 2 ? PROCESS_V2 : PROCESS_V0;
            default -> null;
        };
    }

    private static EventSchema processMemInfo(int version) {
        return schema(2, version, "MemoryProcessMemInfo", processMemInfoFields(version));
    }

    /**
     * TraceEvent's MemoryProcessMemInfoTraceData at {@code version}, the layout of this provider's ProcessMemInfo and
     * of the classic kernel Memory/ProcessMemInfo event alike: Count, then Count packed records of
     * MemoryProcessMemInfoValues (ProcessID at the record's start, pointer-sized value k at HostOffset(4 + 4k, k),
     * k = 0..3, and k = 4..7 from version 2; ElementSize HostOffset(5 x 4, 4) or HostOffset(9 x 4, 8)).
     */
    static List<FieldSpec> processMemInfoFields(int version) {
        List<FieldSpec> members = new ArrayList<>(List.of(DataSpec.of("ProcessID", InType.UINT32),
                ptr("WorkingSetPageCount"), ptr("CommitPageCount"), ptr("VirtualSizeInPages"),
                ptr("PrivateWorkingSetPageCount")));
        if (version >= 2) {
            members.addAll(List.of(ptr("StoreSizePageCount"), ptr("StoredPageCount"), ptr("CommitDebtInPages"),
                    ptr("SharedCommitInPages")));
        }
        return List.of(DataSpec.of("Count", InType.UINT32),
                new StructSpec("Values", List.copyOf(members), SizeRule.ref("Count")));
    }

    private static EventSchema schema(int id, int version, String name, List<FieldSpec> fields) {
        // TraceEvent registers both with task name = event name and no opcode name
        return new EventSchema(PROVIDER, PROVIDER_NAME, id, version, 0, 0, name, null, name, null, fields, Map.of(),
                SchemaSource.BUILT_IN);
    }

    private static DataSpec u8(String n) {
        return DataSpec.of(n, InType.UINT8);
    }

    private static DataSpec ptr(String n) {
        return DataSpec.of(n, InType.POINTER, OutType.HEXINT64);
    }
}
