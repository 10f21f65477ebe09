package org.etw4j.consumer.internal.decode;

import org.etw4j.consumer.EventField;
import org.etw4j.consumer.ProcessInfo;
import org.etw4j.consumer.ProcessLifetime;
import org.etw4j.consumer.SchemaSource;

/**
 * The processes and threads of one trace, from its kernel events: state per process (and per thread), never per
 * event. Mutable, not thread-safe: one {@link TraceContext} fills it from the trace's events in time order and reads
 * it.
 *
 * <p>What fills it (classic kernel events as {@link KernelSchemas} decodes them):
 * <ul>
 *   <li>Process Start (opcode 1) begins a process at its time; the rundown's DCStart (3) describes a process that
 *       began before the trace; Stop (2) and Defunct (39) end one; DCStop (4), the closing rundown, describes one
 *       still running. Each gives the process id, parent, image file name and command line.</li>
 *   <li>Image Load (10) and DCStart (3): the first image of a process whose path ends with {@code \} + the
 *       process's image file name gives the executable's path (Windows 8 and later write only the file name in
 *       process events).</li>
 *   <li>Thread Start/DCStart/Stop/DCStop (1-4): which process a thread belongs to, for records that carry no
 *       process id (PERFINFO records such as PerfInfo/Sample carry only the thread in their payload).</li>
 * </ul>
 * Which process an id means at a time follows {@link TimeHistory}: the instance that began last at or before the
 * time, else the first one (an event a later rundown describes). A process id reused after its process ended
 * therefore names the new process from its Start on.
 */
public final class ProcessTable {

    /** One process instance; mutable while its events come. */
    private static final class Instance {
        final int pid;
        int parentId = -1;
        String imageFileName = "";
        String commandLine = "";
        int sessionId = -1;
        String imageNtPath;
        boolean ended;
        /** FILETIME of the Start event, {@link Long#MIN_VALUE} when it began before the trace (rundown). */
        long start = Long.MIN_VALUE;
        /** FILETIME of the Stop/Defunct event, {@link Long#MAX_VALUE} while none came. */
        long stop = Long.MAX_VALUE;
        /**
         * The value last handed out and the volume-map size it was computed with, in one immutable object: threads
         * that only {@link #find} in a learned table (see {@link TraceContext#presenter()}) may race on it and see
         * an older or a newer pair, never a torn one.
         */
        Shown shown;

        Instance(int pid) {
            this.pid = pid;
        }
    }

    private final VolumeMap volumes;
    private final TimeHistory<Instance> processes = new TimeHistory<>();
    /** Every instance in the order the trace first described it (for {@link #lifetimes}). */
    private final java.util.List<Instance> instances = new java.util.ArrayList<>();
    private final TimeHistory<Integer> threads = new TimeHistory<>();

    /** What the table learned, as text (see {@link TraceContext#describe()}). */
    String describe() {
        return "processes\n" + processes.describe(p -> p.pid + "/" + p.parentId + "/" + p.sessionId + "/" + p.start + ".."
                + p.stop + "/" + p.ended + "/" + p.imageFileName + "/" + p.imageNtPath + "/" + p.commandLine)
                + "instances " + instances.size() + "\nthreads\n" + threads.describe(String::valueOf);
    }

    /** A table whose image paths are shown in drive-letter form by {@code volumes}. */
    public ProcessTable(VolumeMap volumes) {
        this.volumes = java.util.Objects.requireNonNull(volumes, "volumes");
    }

    /** Process event opcodes. */
    static final int START = 1;
    static final int STOP = 2;
    static final int DC_START = 3;
    static final int DC_STOP = 4;
    static final int DEFUNCT = 39;
    static final int IMAGE_LOAD = 10;

    /**
     * Takes what {@code e} (a decoded classic kernel event logged at {@code time}, FILETIME) says about processes
     * and threads; other events are ignored.
     */
    public void observe(DecodedEvent e, long time) {
        if (e.source() != SchemaSource.KERNEL_MOF) {
            return;
        }
        org.etw4j.Guid c = e.providerId();
        if (c.equals(KernelSchemas.PROCESS)) {
            process(e, time);
        } else if (c.equals(KernelSchemas.THREAD) && e.opcode() >= START && e.opcode() <= DC_STOP) {
            Integer pid = intField(e, "ProcessID");
            Integer tid = intField(e, "ThreadID");
            if (pid != null && tid != null) {
                boolean rundown = e.opcode() == DC_START || threads.latest(tid) == null && e.opcode() != START;
                threads.put(tid, rundown ? Long.MIN_VALUE : time, pid);
            }
        } else if (c.equals(KernelSchemas.IMAGE) && (e.opcode() == IMAGE_LOAD || e.opcode() == DC_START)) {
            Integer pid = intField(e, "ProcessID");
            EventField file = e.field("FileName");
            if (pid != null && file != null && file.value() instanceof String path) {
                Instance p = processes.at(pid, time);
                if (p != null && p.imageNtPath == null && !p.imageFileName.isEmpty()
                        && endsWithFile(path, p.imageFileName)) {
                    p.imageNtPath = path;
                    p.shown = null;
                }
            }
        }
    }

    private void process(DecodedEvent e, long time) {
        int op = e.opcode();
        if (op != START && op != STOP && op != DC_START && op != DC_STOP && op != DEFUNCT) {
            return;
        }
        Integer pid = intField(e, "ProcessID");
        if (pid == null) {
            return;
        }
        Instance p = processes.latest(pid);
        if (op == START || p == null || (p.ended && op == DC_START)) {
            p = new Instance(pid);
            if (op == START) {
                p.start = time;
            }
            processes.put(pid, p.start, p);
            instances.add(p);
        }
        Integer parent = intField(e, "ParentID");
        if (parent != null) {
            p.parentId = parent;
        }
        if (e.field("ImageFileName") != null && e.field("ImageFileName").value() instanceof String image
                && !image.isEmpty()) {
            p.imageFileName = image;
            if (VolumeMap.isNtPath(image) && p.imageNtPath == null) {
                p.imageNtPath = image; // older kernels wrote the whole path here
            }
        }
        if (e.field("CommandLine") != null && e.field("CommandLine").value() instanceof String cl && !cl.isEmpty()) {
            p.commandLine = cl;
        }
        Integer session = intField(e, "SessionID"); // u32; 0xFFFFFFFF (no session) becomes -1
        if (session != null) {
            p.sessionId = session;
        }
        if (op == STOP || op == DEFUNCT) {
            if (!p.ended) {
                p.stop = time;
            }
            p.ended = true;
        }
        p.shown = null;
    }

    /** The process {@code pid} meant at {@code time} (FILETIME), or {@code null} when the trace never described it. */
    public ProcessInfo find(int pid, long time) {
        Instance p = processes.at(pid, time);
        return p == null ? null : info(p);
    }

    private ProcessInfo info(Instance p) {
        Shown s = p.shown;
        if (s == null || s.mapSize() != volumes.size()) {
            String dos = volumes.toDos(p.imageNtPath);
            s = new Shown(new ProcessInfo(p.pid, p.parentId, ProcessInfo.nameOf(p.imageFileName), p.imageFileName,
                    dos != null ? dos : p.imageNtPath, p.imageNtPath, p.commandLine, p.sessionId), volumes.size());
            p.shown = s;
        }
        return s.info();
    }

    /** A process's value as handed out, and the volume-map size it was computed with. */
    private record Shown(ProcessInfo info, int mapSize) {
    }

    /**
     * Every process instance described so far, in the order the trace first described them; a reused process id
     * gives one entry per instance.
     */
    public java.util.List<ProcessLifetime> lifetimes() {
        java.util.List<ProcessLifetime> out = new java.util.ArrayList<>(instances.size());
        for (Instance p : instances) {
            out.add(new ProcessLifetime(info(p), p.start, p.stop));
        }
        return out;
    }

    /** The instance of {@code pid} at {@code time} as a {@link ProcessLifetime}, or {@code null} (rule of {@link #find}). */
    public ProcessLifetime lifetime(int pid, long time) {
        Instance p = processes.at(pid, time);
        return p == null ? null : new ProcessLifetime(info(p), p.start, p.stop);
    }

    /** The process thread {@code tid} belonged to at {@code time}, or {@code -1} when no thread event named it. */
    public int processOfThread(int tid, long time) {
        Integer pid = threads.at(tid, time);
        return pid == null ? -1 : pid;
    }

    /** Number of process ids described so far. */
    public int processIds() {
        return processes.keys();
    }

    private static boolean endsWithFile(String path, String file) {
        int at = path.length() - file.length();
        return at > 0 && path.charAt(at - 1) == '\\' && path.regionMatches(true, at, file, 0, file.length());
    }

    static Integer intField(DecodedEvent e, String name) {
        EventField f = e.field(name);
        Long v = f == null || f.error() != null ? null : f.asLong();
        return v == null ? null : (int) (long) v;
    }
}
