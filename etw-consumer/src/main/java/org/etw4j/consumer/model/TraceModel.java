package org.etw4j.consumer.model;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.ProcessLifetime;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.ReadSetupException;
import org.etw4j.consumer.TraceFile;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.KernelSchemas;
import org.etw4j.consumer.internal.decode.ProcessTable;
import org.etw4j.consumer.internal.decode.TraceContext;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.internal.ContextLearning;
import org.etw4j.consumer.internal.TraceFileAccess;
import org.etw4j.consumer.internal.TraceLearner;
import org.etw4j.format.EventHeaderLayout;

/**
 * What a kernel trace says about its processes, threads, images, stacks and CPU samples, in the manner of
 * TraceEvent's TraceLog: processes (reused ids kept apart), threads, images per process with their load and unload
 * times, lookups by (pid, time) and (address, pid, time), and the CPU samples joined to their stacks, resolved to
 * {@code module!+offset} frames. Times are FILETIME (100 ns since 1601 UTC). Immutable once read; thread-safe for
 * reading.
 *
 * <p>Built by {@link #read}, which reads the files twice through {@link TraceFile} as TraceLog does: the reader's
 * first pass learns processes, threads and the volume mapping (its {@link TraceContext}) and, for the model, images,
 * stack-key definitions and the sampling interval;
 * the second joins every PerfInfo/SampleProf event (opcode 46) to the StackWalk events that follow it for the same
 * thread and timestamp (StackWalk/Stack, opcode 32: EventTimeStamp, StackProcess, StackThread, then the frames,
 * leaf first, pointer-sized as the record header says; with stack caching StackKeyKernel 37 / StackKeyUser 38, see
 * {@link StackKeyTable}), and every other event to its stack. Memory is per process, thread, image, method, cached
 * stack and distinct stack, plus 21 bytes per event that has a stack (the lookup by event, {@link EventStackTable});
 * never per event otherwise.
 *
 * <p>Frames in code the CLR compiled at run time resolve to the method ({@link ClrMethod}) its MethodLoadVerbose /
 * rundown events describe, named with its module from the CLR loader events ({@code Module!Namespace.Type.Method}). Every event with a stack, not only CPU samples, has it looked up by {@link #stack}: the
 * StackWalk events that name it, or its own EVENT_HEADER stack extended items (STACK_TRACE32/64, STACK_KEY32/64,
 * a kernel part joined to its user-mode part by MatchId), see {@link EventStack}. Not done: names of native
 * functions (need PDB symbol files, which traces do not carry: out of scope).
 */
public final class TraceModel {

    /** Pointer-sized addresses at or above this (unsigned) are in system space on 64-bit Windows (MS Learn,
     * "Virtual address spaces": user space is 0x000'00000000 through 0x7FFF'FFFFFFFF). */
    private static final long USER_LIMIT_64 = 0x0000_7FFF_FFFF_FFFFL;
    /** 32-bit: user space 0x00000000 through 0x7FFFFFFF by default (same page; /3GB raises it, see lookup). */
    private static final long USER_LIMIT_32 = 0x7FFF_FFFFL;

    /** The first pass's context (the reader's, for a model read from files), given when that pass begins. */
    private TraceContext context;
    private final ImageTable images = new ImageTable(p -> context.volumes().toDos(p));
    private final Map<Integer, List<TraceThread>> threadsById = new HashMap<>();
    private final List<TraceThread> threadOrder = new ArrayList<>();
    private final StackKeyTable keys = new StackKeyTable();
    /** JIT-compiled methods' code, the method's full name as "path", its ModuleID as tag. */
    private final ImageTable methods = new ImageTable(p -> null);
    /** Per process: the CLR's modules, ModuleID to ModuleILPath (the last description of the id wins). */
    private final Map<Integer, Map<Long, String>> modules = new HashMap<>();
    private long interval = -1;
    private long otherStacks;
    /** Stack extended items too short to hold a MatchId and one address or key. */
    private long warnings;
    private final EventStackTable eventStacks = new EventStackTable();
    private CpuProfile profile;

    private TraceModel() {
    }

    /** Reads {@code etl} (two passes). */
    public static TraceModel read(Path etl) throws IOException {
        return read(etl, ReadProgress.NONE);
    }

    /** Reads {@code etl} (two passes), telling {@code progress} how far it is. */
    public static TraceModel read(Path etl, ReadProgress progress) throws IOException {
        try (EtlFile f = EtlFile.open(etl)) {
            return read(List.of(f), progress);
        }
    }

    /** Reads {@code files}, merged in time order (two passes); the files stay open. */
    public static TraceModel read(List<EtlFile> files) {
        return read(files, ReadProgress.NONE);
    }

    /**
     * Reads {@code files}, merged in time order (two passes), telling {@code progress} how far it is (on this
     * thread, every 4096 records and at the end of each pass); the files stay open.
     */
    public static TraceModel read(List<EtlFile> files, ReadProgress progress) {
        return read(files, progress, (pass, record) -> { });
    }

    /**
     * Sees the records of the model's two passes as they go by, so that a client that needs a pass of its own (a
     * summary, a count per time bucket) can make it during the model's instead of reading the files again.
     *
     * <p>Called on the reading thread; must not throw.
     */
    @FunctionalInterface
    public interface PassObserver {
        /** One record of pass {@code pass} (1, then 2), in time order; the view is valid during the call only. */
        void record(int pass, EtlRecordView record);

        /** Pass {@code pass} has handed out its last record. */
        default void passEnded(int pass) {
        }
    }

    /**
     * Reads {@code files} as {@link #read(List, ReadProgress)} does, handing every record of both passes to
     * {@code observer} too (each pass reads every record of the files).
     */
    public static TraceModel read(List<EtlFile> files, ReadProgress progress, PassObserver observer) {
        java.util.Objects.requireNonNull(progress, "progress");
        java.util.Objects.requireNonNull(observer, "observer");
        TraceFile in;
        try {
            in = TraceFile.over(ReadSettings.DEFAULT, files);
        } catch (ReadSetupException e) {
            throw new IllegalStateException("the default settings name no manifest", e);
        }
        try (in) {
            return read(in, (pass, passes, f) -> progress.update(pass, 2, f), observer);
        }
    }

    /**
     * Reads the model through {@code in}, which has read nothing yet and makes a first pass of its own (two
     * passes, no learned context): its first pass learns the model's tables with the context, then the model reads
     * every record once (pass 2; {@code progress} hears passes 1 and 2). Afterwards {@code in} is at its end; its
     * events are presented through {@link #context()}, and a {@link TraceFile#rewind()} reads them again (the
     * {@link Timeline}'s writing pass).
     */
    static TraceModel read(TraceFile in, ReadProgress progress, PassObserver observer) {
        TraceModel m = new TraceModel();
        TraceFileAccess.learnWith(in, m.new TableLearner(progress, observer));
        boolean more = in.hasMoreEvents(); // makes the first pass
        m.finishThreads();
        observer.passEnded(1);
        Sampler s = m.new Sampler();
        long n = 0;
        for (; more; more = in.hasMoreEvents()) {
            in.readEvent(); // the record is all the model reads: the event is not decoded
            EtlRecordView v = in.record();
            if ((++n & 0xFFF) == 0) {
                progress.update(2, 2, in.progress());
            }
            observer.record(2, v);
            s.accept(v.asRawEventRecord());
        }
        progress.update(2, 2, 1.0);
        m.profile = s.finish();
        observer.passEnded(2);
        return m;
    }

    /**
     * Reads the records a pass hands out, in time order; called twice. Records are used during the call only.
     * For tests and other record sources.
     */
    static TraceModel read(java.util.function.Consumer<java.util.function.Consumer<RawEventRecord>> pass) {
        TraceModel m = new TraceModel();
        ContextLearning first = ContextLearning.withOwnDecoder(m.new TableLearner(ReadProgress.NONE, (p, v) -> { }));
        pass.accept(first::accept);
        m.finishThreads();
        Sampler s = m.new Sampler();
        pass.accept(s::accept);
        m.profile = s.finish();
        return m;
    }

    // ------------------------------------------------------------------------------------------ queries

    /** The trace's context: volume mapping, process table (as {@code etw dump} presents events with it). */
    TraceContext context() {
        return context;
    }

    /** Every process instance, in the order the trace first described them; a reused id gives one per instance. */
    public List<ProcessLifetime> processes() {
        return context.processes().lifetimes();
    }

    /** The process {@code pid} meant at {@code time}, or {@code null} (rule: {@link ProcessTable}). */
    public ProcessLifetime process(int pid, long time) {
        return context.processes().lifetime(pid, time);
    }

    /** Every thread instance in the order the trace described them. */
    public List<TraceThread> threads() {
        return List.copyOf(threadOrder);
    }

    /**
     * The thread {@code tid} meant at {@code time}: the instance that started last at or before it, else the first
     * (an event before the rundown that describes its thread); {@code null} when no Thread event named it.
     */
    public TraceThread thread(int tid, long time) {
        List<TraceThread> l = threadsById.get(tid);
        if (l == null) {
            return null;
        }
        for (int i = l.size() - 1; i >= 0; i--) {
            if (l.get(i).start() <= time) {
                return l.get(i);
            }
        }
        return l.get(0);
    }

    /** Every image in the order the trace described them. */
    public List<TraceImage> images() {
        return images.all();
    }

    /**
     * The image holding {@code address} in process {@code pid} at {@code time}: system-space addresses (above the
     * user-space limit of the pointer size) are looked up among the kernel's images (process 0), the others among
     * the process's; then the other table. {@code null} when no image of the trace holds it.
     */
    public TraceImage image(long address, int pid, long time, int pointerSize) {
        boolean system = pointerSize == 4 ? (address & 0xFFFF_FFFFL) > USER_LIMIT_32
                : Long.compareUnsigned(address, USER_LIMIT_64) > 0;
        TraceImage i = images.find(address, system ? 0 : pid, time);
        if (i == null && pid != 0) {
            i = images.find(address, system ? pid : 0, time);
        }
        return i;
    }

    /**
     * The JIT-compiled .NET method whose code holds {@code address} in process {@code pid} at {@code time}, or
     * {@code null}.
     */
    public ClrMethod method(long address, int pid, long time) {
        ImageTable.Entry m = methods.findEntry(address, pid, time);
        return m == null ? null : method(m);
    }

    /** Every JIT-compiled method the trace's CLR events describe, in the order they did. */
    public List<ClrMethod> methods() {
        return methods.allEntries().stream().map(this::method).toList();
    }

    private ClrMethod method(ImageTable.Entry e) {
        TraceImage m = e.image();
        Map<Long, String> byId = modules.get(m.processId());
        return new ClrMethod(m.processId(), m.base(), m.size(), m.ntPath(), m.load(), m.unload(), e.tag(),
                byId == null ? null : byId.get(e.tag()));
    }

    /** The CPU samples with their stacks. */
    public CpuProfile cpuProfile() {
        return profile;
    }

    /**
     * The stack the trace recorded for the event {@code r}, or {@code null} when it has none: kernel StackWalk
     * events (full or through stack keys) name the event by its raw timestamp and thread, EVENT_HEADER events carry
     * theirs as extended items (see {@link EventStack}). The thread is the record's (a PerfInfo/Sample's from its
     * payload); a record without one ({@code -1}) gets the only stack logged at its timestamp, else {@code null}.
     * Use the record during its callback, as always.
     */
    public EventStack stack(RawEventRecord r) {
        int tid = r.threadId();
        if ((r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) != 0 && is(r, KernelSchemas.PERF_INFO)
                && r.opcode() == 46) {
            ByteBuffer b = r.userData().order(ByteOrder.LITTLE_ENDIAN);
            int ps = r.pointerSize();
            if (b.limit() - b.position() >= ps + 4) {
                tid = b.getInt(b.position() + ps);
            }
        }
        return eventStacks.find(r.rawTimestamp(), tid);
    }

    /**
     * The stack of the event of thread {@code threadId} logged at {@code rawTimestamp} (raw clock, as
     * {@link RawEventRecord#rawTimestamp()} and StackWalk's EventTimeStamp give it), or {@code null}; rule for
     * {@code threadId == -1} as in {@link #stack(RawEventRecord)}.
     */
    public EventStack stack(long rawTimestamp, int threadId) {
        return eventStacks.find(rawTimestamp, threadId);
    }

    /** Number of events (CPU samples included) the model has a stack for. */
    public int stackedEvents() {
        return eventStacks.size();
    }

    /** Number of distinct stacks among {@link #stackedEvents()}. */
    public int distinctStacks() {
        return eventStacks.distinct();
    }

    /** Number of stack extended items too short to hold their MatchId and one address or key (skipped). */
    public long stackItemWarnings() {
        return warnings;
    }

    /**
     * Number of events other than CPU samples that StackWalk events (full stacks or stack-key references) gave a
     * stack; their parts (kernel, user) count once per event.
     */
    public long stacksOfOtherEvents() {
        return otherStacks;
    }

    /** Number of stack-key definitions (StackWalk KeyCreate/KeyDelete/KeyRundown) in the trace. */
    public int stackKeyDefinitions() {
        return keys.definitions();
    }

    // ------------------------------------------------------------------------------------------ first pass

    /**
     * The model's part in the first pass ({@link TraceLearner}): the records it decodes, its tables, pass 1 of
     * {@code progress} and {@code observer}.
     */
    private final class TableLearner implements TraceLearner {
        private final ReadProgress progress;
        private final PassObserver observer;

        TableLearner(ReadProgress progress, PassObserver observer) {
            this.progress = progress;
            this.observer = observer;
        }

        @Override
        public void begin(TraceContext learning) {
            context = learning;
        }

        @Override
        public boolean decodes(RawEventRecord r) {
            if ((r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) == 0) {
                return false;
            }
            int op = r.opcode();
            return is(r, KernelSchemas.IMAGE) && (op == 10 || op == 2 || op == 3 || op == 4)
                    || is(r, KernelSchemas.THREAD) && op >= 1 && op <= 4
                    || is(r, KernelSchemas.PERF_INFO) && (op == 72 || op == 73) && interval < 0;
        }

        @Override
        public void learn(RawEventRecord r, DecodedEvent decoded) {
            if (r instanceof EtlRecordEvent a) {
                observer.record(1, a.view());
            }
            TraceModel.this.learn(r, decoded);
        }

        @Override
        public void progress(double fraction) {
            progress.update(1, 2, fraction);
        }
    }

    /** One record of the first pass, after the context learned from it; {@code e} is it decoded when it is modelled. */
    private void learn(RawEventRecord r, DecodedEvent e) {
        if ((r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) == 0) {
            clrMethod(r);
            return;
        }
        int op = r.opcode();
        long time = r.timestamp();
        if (is(r, KernelSchemas.IMAGE) && (op == 10 || op == 2 || op == 3 || op == 4)) {
            Long base = asLong(e, "ImageBase");
            Long size = asLong(e, "ImageSize");
            Long pid = asLong(e, "ProcessID");
            EventField file = e.field("FileName");
            if (base == null || size == null || pid == null || file == null || !(file.value() instanceof String path)) {
                return;
            }
            int p = (int) (long) pid;
            switch (op) {
                case 10 -> images.load(p, base, size, path, time);
                case 3 -> images.load(p, base, size, path, Long.MIN_VALUE);
                case 4 -> images.stillMapped(p, base, size, path);
                default -> images.unload(p, base, size, path, time);
            }
        } else if (is(r, KernelSchemas.THREAD) && op >= 1 && op <= 4) {
            Long pid = asLong(e, "ProcessID");
            Long tid = asLong(e, "ThreadID");
            if (pid != null && tid != null) {
                thread((int) (long) tid, (int) (long) pid, op, time);
            }
        } else if (is(r, KernelSchemas.STACK_WALK) && op >= StackKeyTable.KEY_CREATE
                && op <= StackKeyTable.KEY_RUNDOWN) {
            ByteBuffer b = r.userData().order(ByteOrder.LITTLE_ENDIAN);
            int ps = r.pointerSize();
            int at = b.position();
            int end = b.limit();
            if (end - at >= ps) {
                keys.define(pointer(b, at, ps), r.rawTimestamp(), frames(b, at + ps, end, ps));
            }
        } else if (is(r, KernelSchemas.PERF_INFO) && (op == 72 || op == 73) && interval < 0) {
            Long source = asLong(e, "SampleSource");
            Long newInterval = asLong(e, "NewInterval");
            if (source != null && source == 0 && newInterval != null) { // source 0: the profile timer
                interval = newInterval;
            }
        }
    }

    /** The CLR runtime provider (Microsoft-Windows-DotNETRuntime), ClrEtwAll.man. */
    private static final Guid CLR_RUNTIME = Guid.parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    /** The CLR rundown provider (Microsoft-Windows-DotNETRuntimeRundown), ClrEtwAll.man. */
    private static final Guid CLR_RUNDOWN = Guid.parse("a669021c-c450-4609-a035-5af59af4df18");

    /**
     * MethodLoadVerbose / MethodUnloadVerbose (runtime 143/144), MethodDCStartVerbose / MethodDCEndVerbose (rundown
     * 143/144): template MethodLoadUnloadVerbose, every version starting with MethodID u64, ModuleID u64,
     * MethodStartAddress u64, MethodSize u32, MethodToken u32, MethodFlags u32, MethodNamespace, MethodName (UTF-16,
     * NUL-terminated) (ClrEtwAll.man). The process is the record's. Then the modules: ModuleLoad / ModuleUnload
     * (runtime 152/153), ModuleDCStart / ModuleDCEnd (rundown 153/154), template ModuleLoadUnload* in every version
     * starting with ModuleID u64, AssemblyID u64, ModuleFlags u32, Reserved1 u32, ModuleILPath, ModuleNativePath.
     */
    private void clrMethod(RawEventRecord r) {
        boolean runtime = is(r, CLR_RUNTIME);
        if (!runtime && !is(r, CLR_RUNDOWN) || r.processId() == -1) {
            return;
        }
        int id = r.id();
        if (runtime ? id == 152 || id == 153 : id == 153 || id == 154) {
            clrModule(r);
            return;
        }
        if (id != 143 && id != 144) {
            return;
        }
        ByteBuffer b = r.userData().order(ByteOrder.LITTLE_ENDIAN);
        int at = b.position();
        int end = b.limit();
        if (end - at < 36) {
            return;
        }
        long module = b.getLong(at + 8);
        long start = b.getLong(at + 16);
        long size = b.getInt(at + 24) & 0xFFFF_FFFFL;
        int[] next = {at + 36};
        String namespace = utf16z(b, next, end);
        String name = utf16z(b, next, end);
        if (name == null) {
            return;
        }
        String full = ClrMethod.fullName(namespace, name);
        int pid = r.processId();
        if (runtime) {
            if (id == 143) {
                methods.load(pid, start, size, full, r.timestamp(), module);
            } else {
                methods.unload(pid, start, size, full, r.timestamp(), module);
            }
        } else if (id == 143) {
            methods.load(pid, start, size, full, Long.MIN_VALUE, module);
        } else {
            methods.stillMapped(pid, start, size, full, module);
        }
    }

    private void clrModule(RawEventRecord r) {
        ByteBuffer b = r.userData().order(ByteOrder.LITTLE_ENDIAN);
        int at = b.position();
        int end = b.limit();
        if (end - at < 26) {
            return;
        }
        int[] next = {at + 24};
        String path = utf16z(b, next, end);
        if (path != null && !path.isEmpty()) {
            modules.computeIfAbsent(r.processId(), k -> new HashMap<>()).put(b.getLong(at), path);
        }
    }

    /** A NUL-terminated UTF-16LE string at {@code at[0]} (advanced past it), or {@code null} when unterminated. */
    private static String utf16z(ByteBuffer b, int[] at, int end) {
        StringBuilder s = new StringBuilder();
        for (int i = at[0]; i + 1 < end; i += 2) {
            char c = b.getChar(i);
            if (c == 0) {
                at[0] = i + 2;
                return s.toString();
            }
            s.append(c);
        }
        return null;
    }

    /** Open (not yet stopped) thread instances by id while the first pass runs. */
    private final Map<Integer, long[]> openThreads = new HashMap<>();

    private void thread(int tid, int pid, int op, long time) {
        // Instances are built as long[]{pid, start, stop} while open, then frozen into TraceThread.
        List<TraceThread> l = threadsById.computeIfAbsent(tid, k -> new ArrayList<>(1));
        long[] open = openThreads.get(tid);
        if (op == 1 || open == null || open[0] != pid) { // Start, or first/different description
            if (open != null) {
                freeze(tid, open);
            }
            open = new long[] {pid, op == 1 ? time : Long.MIN_VALUE, Long.MAX_VALUE};
            if (op != 1 && !l.isEmpty()) {
                open[1] = l.get(l.size() - 1).stop(); // described again after an end: from then on
            }
            openThreads.put(tid, open);
        }
        if (op == 2) {
            open[2] = time;
            freeze(tid, open);
            openThreads.remove(tid);
        }
    }

    private void freeze(int tid, long[] t) {
        TraceThread done = new TraceThread(tid, (int) t[0], t[1], t[2]);
        threadsById.get(tid).add(done);
        threadOrder.add(done);
    }

    private void finishThreads() {
        for (Map.Entry<Integer, long[]> e : openThreads.entrySet()) {
            freeze(e.getKey(), e.getValue());
        }
        openThreads.clear();
        for (List<TraceThread> l : threadsById.values()) {
            l.sort((a, b) -> Long.compare(a.start(), b.start()));
        }
    }

    // ------------------------------------------------------------------------------------------ second pass

    /** One piece of a stack: addresses leaf first, and their width (4 or 8). */
    private record Part(long[] frames, int width) {
    }

    /**
     * An event waiting for the stack parts that follow it: a CPU sample, the event a StackWalk event names, or an
     * event whose extended-item kernel stack waits for its user-mode part.
     */
    private static final class Pending {
        final long raw;
        final long time;
        final int tid;
        /** The process, or -1 to look up from the thread at flush time (samples). */
        final int pid;
        final boolean sample;
        final long ip;
        final int pointerSize;
        /** Extended items: the MatchId the user-mode part will carry (0: none awaited). */
        final long matchId;
        final List<Part> parts = new ArrayList<>(2);
        boolean stacked;
        boolean unknownKey;
        boolean awaitingUserPart;
        /** A sample counted in the profile without a stack: the profile entry it went to (null otherwise). */
        CpuProfile.Builder.Key countedWithoutStack;

        Pending(long raw, long time, int tid, int pid, boolean sample, long ip, int pointerSize, long matchId) {
            this.raw = raw;
            this.time = time;
            this.tid = tid;
            this.pid = pid;
            this.sample = sample;
            this.ip = ip;
            this.pointerSize = pointerSize;
            this.matchId = matchId;
        }
    }

    /**
     * Events of one thread kept open for late stack parts: the kernel logs a StackWalk event right after the event
     * it belongs to, but the user-mode part may come later (after the thread leaves the kernel), after other events
     * of the thread.
     */
    private static final int OPEN_PER_THREAD = 8;
    /** Extended-item kernel parts of one thread waiting for their user-mode part (same MatchId). */
    private static final int AWAITING_PER_THREAD = 64;
    /**
     * Samples of one thread counted without a stack after they stopped waiting, remembered in case their StackWalk
     * event still comes: it then replaces the address-alone count (net.4.5.2 has one such sample, pid 980, tid 1016,
     * whose stack came after 8 later events of its thread).
     */
    private static final int LATE_STACK_WINDOW_PER_THREAD = 64;

    /** Second pass: joins events and their stacks, aggregates the samples. Not thread-safe; one per read. */
    private final class Sampler {
        private final Map<Integer, ArrayDeque<Pending>> open = new HashMap<>();
        private final Map<Integer, ArrayDeque<Pending>> awaiting = new HashMap<>();
        private final Map<Integer, ArrayDeque<Pending>> countedWithoutStack = new HashMap<>();
        private final CpuProfile.Builder out = new CpuProfile.Builder();

        void accept(RawEventRecord r) {
            if ((r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) == 0) {
                if ((r.flags() & EventHeaderLayout.FLAG_EXTENDED_INFO) != 0) {
                    extended(r);
                }
                return;
            }
            int op = r.opcode();
            int ps = r.pointerSize();
            if (is(r, KernelSchemas.PERF_INFO) && op == 46) {
                ByteBuffer b = r.userData().order(ByteOrder.LITTLE_ENDIAN);
                int at = b.position();
                if (b.limit() - at < ps + 4) {
                    return; // too short: PerfInfo/Sample decodes it with a field error; nothing to attribute
                }
                long ip = pointer(b, at, ps);
                int tid = b.getInt(at + ps);
                keep(new Pending(r.rawTimestamp(), r.timestamp(), tid, -1, true, ip, ps, 0));
            } else if (is(r, KernelSchemas.STACK_WALK) && (op == 32 || op == StackKeyTable.KEY_KERNEL
                    || op == StackKeyTable.KEY_USER)) {
                ByteBuffer b = r.userData().order(ByteOrder.LITTLE_ENDIAN);
                int at = b.position();
                int end = b.limit();
                if (end - at < 16) {
                    return;
                }
                long eventTime = b.getLong(at);
                int pid = b.getInt(at + 8);
                int tid = b.getInt(at + 12);
                Pending p = find(tid, eventTime);
                if (p == null) {
                    p = reopenSampleCountedWithoutStack(tid, eventTime);
                }
                if (p == null) {
                    otherStacks++;
                    p = keep(new Pending(eventTime, r.timestamp(), tid, pid, false, 0, ps, 0));
                }
                p.stacked = true;
                if (op == 32) {
                    p.parts.add(new Part(frames(b, at + 16, end, ps), ps));
                } else if (end - at >= 16 + ps) {
                    long[] f = keys.resolve(pointer(b, at + 16, ps), eventTime);
                    if (f == null) {
                        p.unknownKey = true;
                    } else {
                        p.parts.add(new Part(f, ps));
                    }
                }
            }
        }

        /**
         * The stack extended items of an EVENT_HEADER record (evntcons.h; MS Learn, "EVENT_EXTENDED_ITEM_STACK_TRACE64
         * structure" and "EVENT_EXTENDED_ITEM_STACK_KEY64 structure"): STACK_TRACE32/64 = u64 MatchId, then u32/u64
         * addresses, leaf first; STACK_KEY32 = u64 MatchId, u32 StackKey, u32 padding; STACK_KEY64 = u64 MatchId,
         * u64 StackKey (a key of the session's stack cache, defined by StackWalk KeyCreate/KeyDelete/KeyRundown
         * like the kernel's StackKey events). The item's type gives the address width, not the record's (a WOW64
         * process's events carry 64-bit stacks). MatchId 0: kernel and user-mode parts are both in the item; else
         * the item holds the kernel-mode part and the user-mode part comes in a later item of the same thread with
         * the same MatchId, typically on the EventTrace provider's user-mode stack event (id 18, opcode 24, as
         * TraceEvent's TraceLog.ProcessExtendedData handles it, microsoft/perfview f3ec1b38), which is bookkeeping:
         * its stack completes the earlier event and is not an event stack of its own.
         */
        private void extended(RawEventRecord r) {
            for (int i = 0, n = r.extendedDataCount(); i < n; i++) {
                int type = r.extendedDataType(i);
                boolean trace = type == EventHeaderLayout.EXT_STACK_TRACE32 || type == EventHeaderLayout.EXT_STACK_TRACE64;
                boolean key = type == EventHeaderLayout.EXT_STACK_KEY32 || type == EventHeaderLayout.EXT_STACK_KEY64;
                if (!trace && !key) {
                    continue;
                }
                int width = type == EventHeaderLayout.EXT_STACK_TRACE32 || type == EventHeaderLayout.EXT_STACK_KEY32
                        ? 4 : 8;
                ByteBuffer b = r.extendedData(i).order(ByteOrder.LITTLE_ENDIAN);
                int at = b.position();
                int end = b.limit();
                if (end - at < 8 + width) {
                    warnings++; // shorter than MatchId and one address/key: not a stack
                    continue;
                }
                long matchId = b.getLong(at);
                Part part = null;
                boolean unknown = false;
                if (trace) {
                    part = new Part(frames(b, at + 8, end, width), width);
                } else {
                    long[] f = keys.resolve(pointer(b, at + 8, width), r.rawTimestamp());
                    if (f == null) {
                        unknown = true;
                    } else {
                        part = new Part(f, width);
                    }
                }
                int tid = r.threadId();
                boolean userStackEvent = is(r, KernelSchemas.EVENT_TRACE) && r.id() == 18 && r.opcode() == 24;
                if (completeAwaiting(tid, matchId, userStackEvent, part, unknown) || userStackEvent) {
                    continue;
                }
                Pending p = new Pending(r.rawTimestamp(), r.timestamp(), tid, r.processId(), false, 0, width,
                        matchId);
                p.stacked = true;
                p.unknownKey = unknown;
                if (part != null) {
                    p.parts.add(part);
                }
                if (matchId == 0) {
                    record(p);
                } else {
                    p.awaitingUserPart = true;
                    ArrayDeque<Pending> q = awaiting.computeIfAbsent(tid, k -> new ArrayDeque<>(2));
                    q.addLast(p);
                    if (q.size() > AWAITING_PER_THREAD) {
                        record(q.removeFirst());
                    }
                }
            }
        }

        /**
         * Gives {@code part} to the kernel parts of thread {@code tid} waiting for the user-mode part with
         * {@code matchId} (the EventTrace user-mode stack event with MatchId 0: to every one waiting on the
         * thread); whether any took it.
         */
        private boolean completeAwaiting(int tid, long matchId, boolean userStackEvent, Part part, boolean unknown) {
            ArrayDeque<Pending> q = awaiting.get(tid);
            if (q == null || matchId == 0 && !userStackEvent) {
                return false;
            }
            boolean taken = false;
            for (Iterator<Pending> it = q.iterator(); it.hasNext(); ) {
                Pending p = it.next();
                if (p.matchId == matchId || matchId == 0) {
                    if (part != null) {
                        p.parts.add(part);
                    }
                    p.unknownKey |= unknown;
                    p.awaitingUserPart = false;
                    it.remove();
                    record(p);
                    taken = true;
                }
            }
            return taken;
        }

        /** The open event of thread {@code tid} at raw time {@code raw}, or null. */
        private Pending find(int tid, long raw) {
            ArrayDeque<Pending> q = open.get(tid);
            if (q != null) {
                for (Pending p : q) {
                    if (p.raw == raw) {
                        return p;
                    }
                }
            }
            return null;
        }

        /**
         * A sample of thread {@code tid} at raw time {@code raw} already counted without a stack, taken back out of the
         * profile and kept open again for the stack that has just come; null when there is none.
         */
        private Pending reopenSampleCountedWithoutStack(int tid, long raw) {
            ArrayDeque<Pending> q = countedWithoutStack.get(tid);
            if (q == null) {
                return null;
            }
            for (Iterator<Pending> it = q.iterator(); it.hasNext(); ) {
                Pending p = it.next();
                if (p.raw == raw) {
                    it.remove();
                    out.samples--;
                    out.counts.computeIfPresent(p.countedWithoutStack, (k, n) -> n == 1 ? null : n - 1);
                    p.countedWithoutStack = null;
                    return keep(p);
                }
            }
            return null;
        }

        /** Keeps {@code p} open for its stack parts; the thread's oldest open event is done when too many are. */
        private Pending keep(Pending p) {
            ArrayDeque<Pending> q = open.computeIfAbsent(p.tid, k -> new ArrayDeque<>(OPEN_PER_THREAD + 1));
            q.addLast(p);
            if (q.size() > OPEN_PER_THREAD) {
                record(q.removeFirst());
            }
            return p;
        }

        /** A finished event: its stack into the lookup table, and a sample into the profile. */
        private void record(Pending p) {
            int pid = p.pid != -1 ? p.pid : context.processes().processOfThread(p.tid, p.time);
            List<StackFrame> frames = new ArrayList<>();
            if (p.unknownKey) {
                frames.add(new StackFrame(StackFrame.UNKNOWN_KEY, null, null, 0));
            }
            // Parts come leaf part first (kernel, then user); within a part frames are leaf first: reverse all.
            for (int i = p.parts.size() - 1; i >= 0; i--) {
                Part part = p.parts.get(i);
                long[] f = part.frames();
                for (int j = f.length - 1; j >= 0; j--) {
                    frames.add(frame(f[j], pid, p.time, part.width()));
                }
            }
            if (p.stacked) {
                eventStacks.add(p.raw, p.tid, pid, frames, !p.unknownKey && !p.awaitingUserPart);
            }
            if (!p.sample) {
                return;
            }
            if (p.parts.isEmpty() && !p.unknownKey) {
                frames.add(frame(p.ip, pid, p.time, p.pointerSize));
            }
            ProcessLifetime life = pid == -1 ? null : context.processes().lifetime(pid, p.time);
            long start = life == null ? Long.MIN_VALUE : life.start();
            out.samples++;
            if (p.stacked) {
                out.samplesWithStack++;
            }
            CpuProfile.Builder.Key key = new CpuProfile.Builder.Key(pid, start, p.tid, List.copyOf(frames));
            out.counts.merge(key, 1L, Long::sum);
            if (!p.stacked) {
                p.countedWithoutStack = key;
                ArrayDeque<Pending> q = countedWithoutStack.computeIfAbsent(p.tid,
                        k -> new ArrayDeque<>(LATE_STACK_WINDOW_PER_THREAD + 1));
                q.addLast(p);
                if (q.size() > LATE_STACK_WINDOW_PER_THREAD) {
                    q.removeFirst();
                }
            }
        }

        /** An address resolved: an image of the process (or the kernel's), else a JIT-compiled method. */
        private StackFrame frame(long address, int pid, long time, int pointerSize) {
            TraceImage i = image(address, pid, time, pointerSize);
            return StackFrame.of(i, i == null && pid > 0 ? method(address, pid, time) : null, address);
        }

        CpuProfile finish() {
            for (ArrayDeque<Pending> q : open.values()) {
                q.forEach(this::record);
            }
            open.clear();
            for (ArrayDeque<Pending> q : awaiting.values()) {
                q.forEach(this::record); // the user-mode part never came: recorded incomplete
            }
            awaiting.clear();
            eventStacks.freeze();
            List<CpuProfile.StackCount> stacks = new ArrayList<>(out.counts.size());
            for (Map.Entry<CpuProfile.Builder.Key, Long> e : out.counts.entrySet()) {
                CpuProfile.Builder.Key k = e.getKey();
                ProcessLifetime life = k.pid() == -1 ? null : context.processes().lifetime(k.pid(),
                        k.processStart());
                stacks.add(new CpuProfile.StackCount(k.pid(), life, k.tid(), k.frames(), e.getValue()));
            }
            stacks.sort((a, b) -> Long.compare(b.count(), a.count()));
            return new CpuProfile(stacks, out.samples, out.samplesWithStack, interval);
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    private static boolean is(RawEventRecord r, Guid g) {
        return r.providerIdMsb() == g.mostSignificantBits() && r.providerIdLsb() == g.leastSignificantBits();
    }

    private static Long asLong(DecodedEvent e, String name) {
        EventField f = e.field(name);
        return f == null || f.error() != null ? null : f.asLong();
    }

    private static long pointer(ByteBuffer b, int at, int ps) {
        return ps == 4 ? b.getInt(at) & 0xFFFF_FFFFL : b.getLong(at);
    }

    /** The pointer-sized values in {@code [from, end)} (a trailing partial pointer is ignored). */
    private static long[] frames(ByteBuffer b, int from, int end, int ps) {
        long[] f = new long[Math.max(0, (end - from) / ps)];
        for (int i = 0; i < f.length; i++) {
            f[i] = pointer(b, from + i * ps, ps);
        }
        return f;
    }
}
