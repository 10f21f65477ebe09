package org.etw4j.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.etw4j.Guid;
import org.junit.jupiter.api.Test;

/**
 * {@link KernelEventGroup}, the one table of kernel group GUIDs: ntwmi.h's EVENT_TRACE_GROUP_* 0x00..0x1E each once
 * and in order, every GUID once, and the tables that read it (ClassicEventId, WellKnownProviders) see the same
 * facts. The GUIDs evntrace.h defines are checked against mingw-w64 by native-bindings'
 * KernelConstantsMatchHeadersTest; etw-consumer's kernel baselines check the rest against TraceEvent's output.
 */
class KernelEventGroupTest {

    @Test
    void hookGroupsAreContiguousAndGuidsUnique() {
        assertEquals(0x1F, KernelEventGroup.hookGroupCount());
        for (int g = 0; g < KernelEventGroup.hookGroupCount(); g++) {
            int group = g;
            KernelEventGroup k = KernelEventGroup.ofHookGroup(g).orElseThrow();
            assertEquals(group, k.hookGroup());
        }
        assertEquals(Optional.empty(), KernelEventGroup.ofHookGroup(0x1F));
        assertEquals(Optional.empty(), KernelEventGroup.ofHookGroup(-1));
        Set<Guid> seen = new HashSet<>();
        for (KernelEventGroup k : KernelEventGroup.values()) {
            assertTrue(seen.add(k.guid()), "GUID twice: " + k);
            assertTrue(k.taskName().isPresent() != k.traceEventProvider().isPresent(), "one name rule: " + k);
        }
    }

    @Test
    void theTablesThatReadItAgree() {
        assertEquals(Guid.parse("ce1dbfb4-137e-4da6-87b0-3f59aa102cbc"), ClassicEventId.SAMPLED_PROFILE.eventGuid());
        assertEquals(KernelEventGroup.THREAD.guid(), ClassicEventId.CSWITCH.eventGuid());
        for (KernelEventGroup k : KernelEventGroup.values()) {
            assertEquals(k.taskName(), WellKnownProviders.kernelGroupOf(k.guid()), k.name());
            assertEquals(Optional.of(k.traceEventProvider().orElse(WellKnownProviders.KERNEL)),
                    WellKnownProviders.nameOf(k.guid()), k.name());
        }
        assertEquals(Optional.of(KernelEventGroup.HEAP.guid()), WellKnownProviders.idOf("HeapTraceProvider"));
    }
}
