package org.etw4j.consumer.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The images of a trace per process, found by address and time; also the code ranges of JIT-compiled .NET methods
 * (same lifetime rules: load, rundown, unload), with the method's name as path. Mutable while {@link TraceModel} fills it from the
 * trace's Image events in time order, read-only afterwards; not thread-safe while filled.
 *
 * <p>An image is open from its Load (or rundown DCStart, or a DCStop that no Load preceded: mapped before the trace)
 * until the Unload of the same base in the same process. Lookup by (address, pid, time): among the images of the
 * process whose range holds the address, the one mapped at the time, else (an address logged after the unload or
 * before a load the trace shows late) the one mapped nearest in time.
 */
final class ImageTable {

    /** An image while the trace describes it. */
    private static final class Open {
        final int pid;
        final long base;
        final long size;
        final String ntPath;
        final long load;
        /** What the caller attached (a JIT-compiled method's ModuleID), 0 when nothing. */
        long tag;
        long unload = Long.MAX_VALUE;
        TraceImage done;

        Open(int pid, long base, long size, String ntPath, long load) {
            this.pid = pid;
            this.base = base;
            this.size = size;
            this.ntPath = ntPath;
            this.load = load;
        }
    }

    private final List<Open> all = new ArrayList<>();
    /** Per process: images by base address (unsigned order), several per base when reloaded. */
    private final Map<Integer, NavigableMap<Long, List<Open>>> byProcess = new HashMap<>();
    private final java.util.function.UnaryOperator<String> toDos;

    ImageTable(java.util.function.UnaryOperator<String> toDos) {
        this.toDos = toDos;
    }

    /** An image (or method) found, with the tag its events carried. */
    record Entry(TraceImage image, long tag) {
    }

    /** Image Load (10) or DCStart (3): mapped from {@code time} (MIN for a rundown). */
    void load(int pid, long base, long size, String ntPath, long time) {
        load(pid, base, size, ntPath, time, 0);
    }

    /** {@link #load(int, long, long, String, long)} with a tag (kept from the first description). */
    void load(int pid, long base, long size, String ntPath, long time, long tag) {
        List<Open> at = byProcess.computeIfAbsent(pid, k -> new TreeMap<>(Long::compareUnsigned))
                .computeIfAbsent(base, k -> new ArrayList<>(1));
        if (!at.isEmpty() && at.get(at.size() - 1).unload == Long.MAX_VALUE && time == Long.MIN_VALUE) {
            return; // a rundown repeating what a load said
        }
        Open o = new Open(pid, base, size, ntPath, time);
        o.tag = tag;
        at.add(o);
        all.add(o);
    }

    /** Image DCStop (4): still mapped at the end; describes it when nothing did before. */
    void stillMapped(int pid, long base, long size, String ntPath) {
        stillMapped(pid, base, size, ntPath, 0);
    }

    /** {@link #stillMapped(int, long, long, String)} with a tag. */
    void stillMapped(int pid, long base, long size, String ntPath, long tag) {
        NavigableMap<Long, List<Open>> m = byProcess.get(pid);
        List<Open> at = m == null ? null : m.get(base);
        if (at == null || at.isEmpty() || at.get(at.size() - 1).unload != Long.MAX_VALUE) {
            load(pid, base, size, ntPath, at == null || at.isEmpty() ? Long.MIN_VALUE : lastUnload(at), tag);
        }
    }

    private static long lastUnload(List<Open> at) {
        return at.get(at.size() - 1).unload;
    }

    /** Image Unload (2) at {@code time}. */
    void unload(int pid, long base, long size, String ntPath, long time) {
        unload(pid, base, size, ntPath, time, 0);
    }

    /** {@link #unload(int, long, long, String, long)} with a tag. */
    void unload(int pid, long base, long size, String ntPath, long time, long tag) {
        NavigableMap<Long, List<Open>> m = byProcess.get(pid);
        List<Open> at = m == null ? null : m.get(base);
        if (at == null || at.isEmpty() || at.get(at.size() - 1).unload != Long.MAX_VALUE) {
            load(pid, base, size, ntPath, Long.MIN_VALUE, tag); // mapped before the trace, unloaded during it
            at = byProcess.get(pid).get(base);
        }
        at.get(at.size() - 1).unload = time;
    }

    /** The image of process {@code pid} holding {@code address} at {@code time} (rule above), or {@code null}. */
    TraceImage find(long address, int pid, long time) {
        Open o = open(address, pid, time);
        return o == null ? null : image(o);
    }

    /** {@link #find} with the entry's tag. */
    Entry findEntry(long address, int pid, long time) {
        Open o = open(address, pid, time);
        return o == null ? null : new Entry(image(o), o.tag);
    }

    private Open open(long address, int pid, long time) {
        NavigableMap<Long, List<Open>> m = byProcess.get(pid);
        if (m == null) {
            return null;
        }
        Open best = null;
        long bestDistance = Long.MAX_VALUE;
        int looked = 0;
        // Images of one process do not overlap at one time; a few lower bases cover reloads of other sizes.
        for (Map.Entry<Long, List<Open>> e = m.floorEntry(address); e != null && looked < 8;
             e = m.lowerEntry(e.getKey()), looked++) {
            for (Open o : e.getValue()) {
                if (Long.compareUnsigned(address - o.base, o.size) >= 0) {
                    continue;
                }
                long distance = time < o.load ? o.load - time : time >= o.unload ? time - o.unload + 1 : 0;
                if (distance < bestDistance) {
                    best = o;
                    bestDistance = distance;
                }
            }
        }
        return best;
    }

    private TraceImage image(Open o) {
        if (o.done == null || o.done.unload() != o.unload) {
            String dos = toDos.apply(o.ntPath);
            o.done = new TraceImage(o.pid, o.base, o.size, dos != null ? dos : o.ntPath, o.ntPath, o.load, o.unload);
        }
        return o.done;
    }

    /** Every entry in the order the trace described them, with its tag. */
    List<Entry> allEntries() {
        List<Entry> out = new ArrayList<>(all.size());
        for (Open o : all) {
            out.add(new Entry(image(o), o.tag));
        }
        return out;
    }

    /** Every image in the order the trace described them. */
    List<TraceImage> all() {
        List<TraceImage> out = new ArrayList<>(all.size());
        for (Open o : all) {
            out.add(image(o));
        }
        return out;
    }
}
