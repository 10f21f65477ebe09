package org.etw4j.consumer.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Stack caching's key definitions: which frames a stack key stood for. Mutable while {@link TraceModel}'s first
 * pass fills it, read-only afterwards; not thread-safe while filled. State per cached stack, not per event.
 *
 * <p>With stack caching the kernel logs, instead of a StackWalk/Stack (opcode 32) event after an event, a
 * StackWalk/StackKeyKernel (37) or StackKeyUser (38) event naming a key (EventTimeStamp, StackProcess, StackThread,
 * StackKey); the frames of the key come in a StackWalk/KeyDelete (35) event when the kernel evicts the entry from its
 * cache, or in a KeyRundown (36) at the end of the session, or a KeyCreate (34) (StackKey, then the frames). Layouts
 * as TraceEvent's StackWalkRefTraceData / StackWalkDefTraceData read them (microsoft/perfview, KernelTraceEventParser)
 * and as perfview__net.4.5.2.x64.etl shows (37/38 payloads of 24 bytes on x64; 35/36 a key then frames). A key is a
 * cache entry's address, reused after its deletion: a reference at time t means the first definition of the key at
 * or after t (the one that ended the entry's life), else the last one before it.
 */
final class StackKeyTable {

    private record Definition(long rawTime, long[] frames) {
    }

    private final Map<Long, List<Definition>> byKey = new HashMap<>();
    private int definitions;

    /** Opcodes of the key events. */
    static final int KEY_CREATE = 34;
    static final int KEY_DELETE = 35;
    static final int KEY_RUNDOWN = 36;
    static final int KEY_KERNEL = 37;
    static final int KEY_USER = 38;

    /** Records that {@code key} stood for {@code frames} (leaf first) until {@code rawTime} (raw trace clock). */
    void define(long key, long rawTime, long[] frames) {
        byKey.computeIfAbsent(key, k -> new ArrayList<>(1)).add(new Definition(rawTime, frames));
        definitions++;
    }

    /** The frames (leaf first) {@code key} stood for when referenced at {@code rawTime}, or {@code null}. */
    long[] resolve(long key, long rawTime) {
        List<Definition> l = byKey.get(key);
        if (l == null) {
            return null;
        }
        for (Definition d : l) { // in trace (time) order
            if (d.rawTime() >= rawTime) {
                return d.frames();
            }
        }
        return l.get(l.size() - 1).frames();
    }

    /** Number of definitions recorded. */
    int definitions() {
        return definitions;
    }
}
