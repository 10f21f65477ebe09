package org.etw4j.consumer.etl;

import org.etw4j.Guid;

/**
 * The kernel event-trace groups (the high byte of a SYSTEM/PERFINFO record's hook id) and the provider
 * GUID each stands for (their name: {@code Windows Kernel}, the group is the events' task; see
 * {@link org.etw4j.controller.WellKnownProviders}, which the naming rule reads).
 *
 * <p>Immutable table; thread-safe. The GUIDs are the kernel's MOF class GUIDs, {@code EVENT_TRACE_GROUP_*}
 * 0x00..0x1E in order, as dissect.etl {@code utils.py GROUP_GUID_MAP} lists them (the comments are its constant
 * names without the {@code Guid} suffix), including its sechost.dll rule that group 3 (Process) type 10
 * is an image load (group 20). Source: ntwmi.h {@code EVENT_TRACE_GROUP_*}; the corpus'
 * expected per-provider counts agree with this mapping. Groups past the table map to GUID_NULL.
 */
final class KernelGroups {
    private KernelGroups() {
    }

    private static final String[] TABLE = {
        "68fdd900-4a3e-11d1-84f4-0000f80464e3", // EventTrace
        "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c", // DiskIo
        "3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c", // PageFault
        "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c", // Process
        "90cbdc39-4a3e-11d1-84f4-0000f80464e3", // FileIo
        "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c", // Thread
        "9a280ac0-c8e0-11d1-84e2-00c04fb998a2", // TcpIp
        "3282fc76-feed-498e-8aa7-e70f459d430e", // Job
        "bf3a50c5-a9c9-4988-a005-2df0b7c80f80", // UdpIp
        "ae53722e-c863-11d2-8659-00c04fa321a1", // Registry
        "13976d09-a327-438c-950b-7f03192815c7", // DbgPrint
        "01853a65-418f-4f36-aefc-dc0f1d2fd235", // EventTraceConfig
        "99134383-5248-43fc-834b-529454e75df3", // EventTraceSpare1
        "42695762-ea50-497a-9068-5cbbb35e0b95", // Wnf
        "0268a8b6-74fd-4302-9dd0-6e8f1795c0cf", // Pool
        "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc", // PerfInfo
        "222962ab-6180-4b88-a825-346b75f2a24a", // Heap
        "89497f50-effe-4440-8cf2-ce6b1cdcaca7", // Object
        "e43445e0-0903-48c3-b878-ff0fccebdd04", // Power
        "a9152f00-3f58-4bee-92a1-70c7d079d5dd", // ModBound
        "2cb15d1d-5fc1-11d2-abe1-00a0c911f518", // ImageLoad
        "b2d14872-7c5b-463d-8419-ee9bf7d23e04", // Dpc
        "7687a439-f752-45b8-b741-321aec0f8df9", // Cc
        "3ac66736-cc59-4cff-8115-8df50e39816b", // CritSec
        "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3", // StackWalk
        "9aec974b-5b8e-4118-9b92-3186d8002ce5", // UmsEvent
        "45d8cccd-539f-4b72-a8b7-5c683142609a", // ALPC
        "d837ca92-12b9-44a5-ad6a-3a65b3578aa8", // SplitIo
        "c861d0e2-a2c1-4d36-9f9c-970bab943a12", // ThreadPool
        "7f2a405c-69b5-4bf9-a1f5-30e8f1afab5e", // HypervisorTrace
        "2ce9a149-effe-42f0-a635-a1d39e26c8f2", // HypervisorXTrace
    };

    private static final long[] MSB = new long[TABLE.length];
    private static final long[] LSB = new long[TABLE.length];
    private static final Guid[] GUIDS = new Guid[TABLE.length];

    static {
        for (int i = 0; i < TABLE.length; i++) {
            GUIDS[i] = Guid.parse(TABLE[i]);
            MSB[i] = GUIDS[i].mostSignificantBits();
            LSB[i] = GUIDS[i].leastSignificantBits();
        }
    }

    private static final int PROCESS = 3;
    private static final int IMAGE = 20;
    private static final int PROCESS_TYPE_IMAGE_LOAD = 10;

    /** The table row a hook's group and type select, or -1 when the group is past the table. */
    static int row(int group, int type) {
        if (group == PROCESS && type == PROCESS_TYPE_IMAGE_LOAD) {
            return IMAGE;
        }
        return group < TABLE.length ? group : -1;
    }

    static long msb(int row) {
        return row < 0 ? 0L : MSB[row];
    }

    static long lsb(int row) {
        return row < 0 ? 0L : LSB[row];
    }

    static Guid guid(int row) {
        return row < 0 ? Guid.NULL : GUIDS[row];
    }
}
