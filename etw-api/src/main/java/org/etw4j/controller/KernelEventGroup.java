package org.etw4j.controller;

import java.util.Optional;
import org.etw4j.Guid;

/**
 * The classic kernel's event groups: the event class GUID of each SystemTraceProvider group, the group number a
 * SYSTEM_TRACE_HEADER or PERFINFO_TRACE_HEADER hook carries in its high byte, and the name TraceEvent gives it. This
 * is etw4j's one table of these GUIDs: {@link ClassicEventId}, {@link WellKnownProviders} and etw-consumer's kernel
 * schemas and hook-group mapping read it.
 *
 * <p>Enum; immutable and thread-safe. Sources: the group numbers are ntwmi.h's {@code EVENT_TRACE_GROUP_*}
 * (0x00..0x1E, in that order) and the GUIDs the kernel MOF classes' (MS Learn "Process class", "Thread class",
 * "PerfInfo class"...), as dissect.etl's {@code GROUP_GUID_MAP} lists them; SysConfig and LostEvent are no hook
 * group ({@link #hookGroup()} -1) and come from TraceEvent's kernel parser. The names are TraceEvent's task names
 * ({@code Windows Kernel/PerfInfo/Sample}); Heap, CritSec and ThreadPool have none, because TraceEvent parses them
 * with providers of their own ({@link #traceEventProvider()}). The corpus' expected per-provider counts and
 * TraceEvent baselines agree with this table (etw-consumer's kernel baseline tests).
 */
public enum KernelEventGroup {
    EVENT_TRACE(0x00, "68fdd900-4a3e-11d1-84f4-0000f80464e3", "EventTrace", null),
    DISK_IO(0x01, "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c", "DiskIO", null),
    PAGE_FAULT(0x02, "3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c", "Memory", null),
    PROCESS(0x03, "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c", "Process", null),
    FILE_IO(0x04, "90cbdc39-4a3e-11d1-84f4-0000f80464e3", "FileIO", null),
    THREAD(0x05, "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c", "Thread", null),
    TCP_IP(0x06, "9a280ac0-c8e0-11d1-84e2-00c04fb998a2", "TcpIp", null),
    JOB(0x07, "3282fc76-feed-498e-8aa7-e70f459d430e", "Job", null),
    UDP_IP(0x08, "bf3a50c5-a9c9-4988-a005-2df0b7c80f80", "UdpIp", null),
    REGISTRY(0x09, "ae53722e-c863-11d2-8659-00c04fa321a1", "Registry", null),
    DBG_PRINT(0x0A, "13976d09-a327-438c-950b-7f03192815c7", "DbgPrint", null),
    /** EVENT_TRACE_GROUP_CONFIG: the SystemConfig events (evntrace.h's EventTraceConfigGuid). */
    EVENT_TRACE_CONFIG(0x0B, "01853a65-418f-4f36-aefc-dc0f1d2fd235", "SystemConfig", null),
    /** EVENT_TRACE_GROUP_SPARE1: TraceEvent names it LastBranchRecording. */
    EVENT_TRACE_SPARE1(0x0C, "99134383-5248-43fc-834b-529454e75df3", "LastBranchRecording", null),
    WNF(0x0D, "42695762-ea50-497a-9068-5cbbb35e0b95", "Wnf", null),
    POOL(0x0E, "0268a8b6-74fd-4302-9dd0-6e8f1795c0cf", "Pool", null),
    PERF_INFO(0x0F, "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc", "PerfInfo", null),
    HEAP(0x10, "222962ab-6180-4b88-a825-346b75f2a24a", null, "HeapTraceProvider"),
    OBJECT(0x11, "89497f50-effe-4440-8cf2-ce6b1cdcaca7", "Object", null),
    POWER(0x12, "e43445e0-0903-48c3-b878-ff0fccebdd04", "Power", null),
    MOD_BOUND(0x13, "a9152f00-3f58-4bee-92a1-70c7d079d5dd", "ModBound", null),
    IMAGE(0x14, "2cb15d1d-5fc1-11d2-abe1-00a0c911f518", "Image", null),
    DPC(0x15, "b2d14872-7c5b-463d-8419-ee9bf7d23e04", "Dpc", null),
    CC(0x16, "7687a439-f752-45b8-b741-321aec0f8df9", "Cc", null),
    CRIT_SEC(0x17, "3ac66736-cc59-4cff-8115-8df50e39816b", null, "CritSecTraceProvider"),
    STACK_WALK(0x18, "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3", "StackWalk", null),
    UMS_EVENT(0x19, "9aec974b-5b8e-4118-9b92-3186d8002ce5", "UmsEvent", null),
    ALPC(0x1A, "45d8cccd-539f-4b72-a8b7-5c683142609a", "ALPC", null),
    SPLIT_IO(0x1B, "d837ca92-12b9-44a5-ad6a-3a65b3578aa8", "SplitIo", null),
    THREAD_POOL(0x1C, "c861d0e2-a2c1-4d36-9f9c-970bab943a12", null, "ThreadPool"),
    HYPERVISOR_TRACE(0x1D, "7f2a405c-69b5-4bf9-a1f5-30e8f1afab5e", "HypervisorTrace", null),
    HYPERVISOR_X_TRACE(0x1E, "2ce9a149-effe-42f0-a635-a1d39e26c8f2", "HypervisorXTrace", null),
    /** TraceEvent's SysConfig class (KernelTraceEventParser): no hook group. */
    SYS_CONFIG(-1, "9b79ee91-b5fd-41c0-a243-4248e266e9d0", "SysConfig", null),
    /** TraceEvent's LostEvent class (KernelTraceEventParser): no hook group. */
    LOST_EVENT(-1, "6a399ae0-4bc6-4de9-870b-3657f8947e7e", "LostEvent", null);

    private static final KernelEventGroup[] BY_HOOK_GROUP;

    static {
        int n = 0;
        for (KernelEventGroup g : values()) {
            n = Math.max(n, g.hookGroup + 1);
        }
        BY_HOOK_GROUP = new KernelEventGroup[n];
        for (KernelEventGroup g : values()) {
            if (g.hookGroup >= 0) {
                BY_HOOK_GROUP[g.hookGroup] = g;
            }
        }
    }

    private final int hookGroup;
    private final Guid guid;
    private final String taskName;
    private final String traceEventProvider;

    KernelEventGroup(int hookGroup, String guid, String taskName, String traceEventProvider) {
        this.hookGroup = hookGroup;
        this.guid = Guid.parse(guid);
        this.taskName = taskName;
        this.traceEventProvider = traceEventProvider;
    }

    /** The group number in a kernel hook id's high byte (ntwmi.h EVENT_TRACE_GROUP_*), or -1 for none. */
    public int hookGroup() {
        return hookGroup;
    }

    /** The event class GUID of the group's events. */
    public Guid guid() {
        return guid;
    }

    /**
     * TraceEvent's task name for the group's events (provider {@code Windows Kernel}); empty for Heap, CritSec and
     * ThreadPool, which TraceEvent names after a provider of their own ({@link #traceEventProvider()}).
     */
    public Optional<String> taskName() {
        return Optional.ofNullable(taskName);
    }

    /** The provider name TraceEvent gives this group when it is not {@code Windows Kernel}; empty otherwise. */
    public Optional<String> traceEventProvider() {
        return Optional.ofNullable(traceEventProvider);
    }

    /** The group with this hook group number; empty past the table. */
    public static Optional<KernelEventGroup> ofHookGroup(int group) {
        return group >= 0 && group < BY_HOOK_GROUP.length ? Optional.ofNullable(BY_HOOK_GROUP[group])
                : Optional.empty();
    }

    /** The number of hook groups (one past the highest EVENT_TRACE_GROUP_* in the table). */
    public static int hookGroupCount() {
        return BY_HOOK_GROUP.length;
    }
}
