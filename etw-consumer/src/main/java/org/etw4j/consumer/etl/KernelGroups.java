package org.etw4j.consumer.etl;

import org.etw4j.Guid;
import org.etw4j.controller.KernelEventGroup;

/**
 * The kernel event-trace groups (the high byte of a SYSTEM/PERFINFO record's hook id) and the provider
 * GUID each stands for (their name: {@code Windows Kernel}, the group is the events' task; see
 * {@link org.etw4j.controller.WellKnownProviders}, which the naming rule reads).
 *
 * <p>Immutable table; thread-safe. The GUIDs are etw-api's {@link KernelEventGroup} (the one table: ntwmi.h's
 * {@code EVENT_TRACE_GROUP_*} 0x00..0x1E and the kernel MOF class GUIDs, as dissect.etl {@code utils.py
 * GROUP_GUID_MAP} lists them); this class adds dissect.etl's sechost.dll rule that group 3 (Process) type 10 is an
 * image load (group 20) and flat arrays for the reader's hot path. The corpus' expected per-provider counts agree
 * with this mapping. Groups past the table map to GUID_NULL.
 */
final class KernelGroups {
    private KernelGroups() {
    }

    private static final int COUNT = KernelEventGroup.hookGroupCount();
    private static final long[] MSB = new long[COUNT];
    private static final long[] LSB = new long[COUNT];
    private static final Guid[] GUIDS = new Guid[COUNT];

    static {
        for (int i = 0; i < COUNT; i++) {
            GUIDS[i] = KernelEventGroup.ofHookGroup(i).map(KernelEventGroup::guid).orElse(Guid.NULL);
            MSB[i] = GUIDS[i].mostSignificantBits();
            LSB[i] = GUIDS[i].leastSignificantBits();
        }
    }

    private static final int PROCESS = KernelEventGroup.PROCESS.hookGroup();
    private static final int IMAGE = KernelEventGroup.IMAGE.hookGroup();
    private static final int PROCESS_TYPE_IMAGE_LOAD = 10;

    /** The table row a hook's group and type select, or -1 when the group is past the table. */
    static int row(int group, int type) {
        if (group == PROCESS && type == PROCESS_TYPE_IMAGE_LOAD) {
            return IMAGE;
        }
        return group >= 0 && group < COUNT ? group : -1;
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
