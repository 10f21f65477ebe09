package org.etw4j.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.etw4j.controller.ClassicEventId;
import org.etw4j.controller.KernelFlag;
import org.etw4j.controller.KernelTracing;

/**
 * The simulated SystemTraceProvider of one session: what Windows' kernel logs for the session's
 * {@link KernelTracing}, modelled on this JVM, in the records {@link KernelRecords} writes.
 *
 * <p>Thread-safe; one per session; {@link #stop()} is idempotent. What it models, and where Windows says so:
 * <ul>
 * <li>Rundown (MS Learn, "Process" and "Thread" and "Image" MOF classes: DCStart "enumerates the processes/threads/
 *     images that were running when the session started", DCEnd at its end): with PROCESS the Idle (0), System (4)
 *     and this JVM's process; with THREAD the Idle thread and every live platform thread of the JVM (its Java thread
 *     id as the thread id, as the simulator's user events carry); with IMAGE_LOAD ntoskrnl in process 0, the launcher
 *     and one image per Java module the JVM's stacks run in (a Java frame has no native address: each distinct
 *     class.method:line gets a stable offset in its module's image, so profiles show {@code module!+offset} frames
 *     as Windows shows them without symbols). A module first seen later gets an Image/Load (10).</li>
 * <li>CPU sampling with PROFILE: every sampling interval (TRACE_PROFILE_INTERVAL, 100 ns units; MS Learn "Notes on
 *     WPA Sampling": 1 ms by default) each simulated processor (as many as the JVM has) samples the thread running on
 *     it: a JVM thread that used CPU since the last tick (its ThreadMXBean CPU time advanced: Java calls a thread
 *     blocked in native I/O RUNNABLE, Windows would not sample it), round robin, or the Idle thread. A SampledProfile (46) is followed by a StackWalk
 *     (32) for the same thread and timestamp when {@link ClassicEventId#SAMPLED_PROFILE} is in the stack list
 *     (TraceStackTracingInfo). CollectionStart (73) / CollectionEnd (74) give the interval, as Windows logs them.</li>
 * <li>Context switches with CSWITCH: when a processor's thread changes between two ticks, a CSwitch (36) with the
 *     old thread's state (Waiting 5 when it no longer runs, Ready 1 when it was preempted), and a StackWalk for the
 *     new thread when {@link ClassicEventId#CSWITCH} is in the stack list.</li>
 * </ul>
 * The sampler sleeps the interval between ticks, so a slow machine takes fewer samples than Windows would: the
 * counts are a simulation, the record layouts are Windows'. Not modelled: the other flags' events (disk, file,
 * network, registry...); such sessions log only the rundown and the events above.
 */
@SuppressWarnings("deprecation") // Thread.getId: etw-api targets Java 17 (threadId() is 19+), as the simulator's user events
final class KernelSimulation {
    private static final long KERNEL_BASE = 0xFFFF_F800_0000_0000L;
    private static final long KERNEL_SIZE = 0x0100_0000L;
    private static final long IDLE_LOOP = KERNEL_BASE + 0x1_2340L;
    private static final long IDLE_ROOT = KERNEL_BASE + 0x4_5670L;
    private static final long IMAGE_AREA = 0x7FF6_0000_0000L;
    private static final long IMAGE_SIZE = 0x0100_0000L;
    private static final long THREAD_START = 0x1450L;
    private static final String VOLUME = "\\Device\\HarddiskVolume1\\etw4j-sim\\";
    private static final int MAX_FRAMES = 192;
    private static final int SYSTEM_PID = 4;

    private final SimSession session;
    private final KernelTracing k;
    private final int pid;
    private final boolean stacksOnSamples;
    private final boolean stacksOnSwitches;
    /** Module name to image base, in order of appearance; guarded by this. */
    private final Map<String, Long> images = new LinkedHashMap<>();
    /** Frame text to address; guarded by this. */
    private final Map<String, Long> frames = new HashMap<>();
    private final Map<String, Long> nextOffset = new HashMap<>();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Thread sampler;
    private final int cpus = Runtime.getRuntime().availableProcessors();
    /** Per simulated processor, the thread running on it at the last tick (0 = Idle); sampler thread only. */
    private final long[] running = new long[cpus];
    /** Threads the trace has named (rundown or Start); guarded by this. */
    private final java.util.Set<Long> knownThreads = new java.util.HashSet<>();
    private int roundRobin;
    private final ThreadCpu cpu = ThreadCpu.create();

    private KernelSimulation(SimSession session, KernelTracing k, int pid) {
        this.session = session;
        this.k = k;
        this.pid = pid;
        this.stacksOnSamples = k.stackEvents().contains(ClassicEventId.SAMPLED_PROFILE);
        this.stacksOnSwitches = k.stackEvents().contains(ClassicEventId.CSWITCH);
        images.put("java", IMAGE_AREA);
        boolean ticks = k.flags().contains(KernelFlag.PROFILE) || k.flags().contains(KernelFlag.CSWITCH);
        this.sampler = ticks ? new Thread(this::runSampler, "etw4j-kernel-" + session.name()) : null;
    }

    /** Starts the simulation: the rundown now, then the sampler. */
    static KernelSimulation start(SimSession session, KernelTracing k, int pid) {
        KernelSimulation s = new KernelSimulation(session, k, pid);
        s.rundown(KernelRecords.DC_START);
        if (k.flags().contains(KernelFlag.PROFILE)) {
            session.appendKernel(time -> List.of(KernelRecords.collection(KernelRecords.COLLECTION_START, time.getAsLong(),
                    k.effectiveSamplingInterval100ns())));
        }
        if (s.sampler != null) {
            s.sampler.setDaemon(true);
            s.sampler.start();
        }
        return s;
    }

    /** Stops the sampler and logs the end rundown (DCEnd), before the session stops taking events. */
    void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        if (sampler != null) {
            LockSupport.unpark(sampler);
            try {
                sampler.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (k.flags().contains(KernelFlag.PROFILE)) {
            session.appendKernel(time -> List.of(KernelRecords.collection(KernelRecords.COLLECTION_END, time.getAsLong(),
                    k.effectiveSamplingInterval100ns())));
        }
        rundown(KernelRecords.DC_END);
    }

    /** Platform threads of the JVM (getAllStackTraces lists no virtual threads), less the simulated kernel's own. */
    private boolean isJvmThread(Thread t) {
        return t != sampler && !t.getName().startsWith("etw4j-logger-");
    }

    private void rundown(int type) {
        Map<Thread, StackTraceElement[]> threads = Thread.getAllStackTraces();
        session.appendKernel(time -> {
            long t = time.getAsLong(); // Windows' rundown events are of one moment too
            List<byte[]> out = new ArrayList<>();
            if (k.flags().contains(KernelFlag.PROCESS)) {
                out.add(KernelRecords.process(type, t, 0xFFFF_E000_0000_0000L, 0, 0, "Idle", ""));
                out.add(KernelRecords.process(type, t, 0xFFFF_E000_0000_1000L, SYSTEM_PID, 0, "System", ""));
                out.add(KernelRecords.process(type, t, 0xFFFF_E000_0000_2000L, pid, parentPid(), "java.exe",
                        commandLine()));
            }
            if (k.flags().contains(KernelFlag.THREAD)) {
                out.add(KernelRecords.thread(type, t, 0, 0, IDLE_ROOT, ""));
                for (Thread th : threads.keySet()) {
                    if (isJvmThread(th)) {
                        synchronized (this) {
                            knownThreads.add(th.getId());
                        }
                        out.add(KernelRecords.thread(type, t, pid, (int) th.getId(), IMAGE_AREA + THREAD_START,
                                th.getName()));
                    }
                }
            }
            if (k.flags().contains(KernelFlag.IMAGE_LOAD)) {
                synchronized (this) {
                    for (StackTraceElement[] st : threads.values()) {
                        for (StackTraceElement e : st) {
                            imageBase(moduleOf(e), out, t, false);
                        }
                    }
                    out.add(KernelRecords.image(type, t, 0, KERNEL_BASE, KERNEL_SIZE,
                            "\\SystemRoot\\system32\\ntoskrnl.exe"));
                    for (Map.Entry<String, Long> i : images.entrySet()) {
                        out.add(KernelRecords.image(type, t, pid, i.getValue(), IMAGE_SIZE, imagePath(i.getKey())));
                    }
                }
            }
            return out;
        });
    }

    private static String imagePath(String module) {
        return VOLUME + module + (module.equals("java") ? ".exe" : ".dll");
    }

    private static String moduleOf(StackTraceElement e) {
        String m = e.getModuleName();
        return m == null ? "app" : m;
    }

    /** The image of {@code module}, adding it (and an Image/Load when {@code announce}) the first time. */
    private long imageBase(String module, List<byte[]> out, long t, boolean announce) {
        Long base = images.get(module);
        if (base == null) {
            base = IMAGE_AREA + IMAGE_SIZE * images.size();
            images.put(module, base);
            if (announce && k.flags().contains(KernelFlag.IMAGE_LOAD)) {
                out.add(KernelRecords.image(10, t, pid, base, IMAGE_SIZE, imagePath(module)));
            }
        }
        return base;
    }

    /** A stable address for a Java frame: its module's image base plus an offset given on first sight. */
    private long address(StackTraceElement e, List<byte[]> out, long t) {
        String module = moduleOf(e);
        long base = imageBase(module, out, t, true);
        String key = module + "/" + e.getClassName() + "." + e.getMethodName() + ":" + e.getLineNumber();
        Long a = frames.get(key);
        if (a == null) {
            long off = nextOffset.merge(module, 0x10L, Long::sum) + 0x1000L;
            a = base + Math.min(off, IMAGE_SIZE - 0x10);
            frames.put(key, a);
        }
        return a;
    }

    private long[] stackOf(StackTraceElement[] st, List<byte[]> out, long t) {
        int n = Math.min(st.length, MAX_FRAMES - 1);
        long[] f = new long[n + 1];
        for (int i = 0; i < n; i++) {
            f[i] = address(st[i], out, t);
        }
        f[n] = IMAGE_AREA + THREAD_START; // the launcher's thread start routine, outermost
        return f;
    }

    private void runSampler() {
        long intervalNanos = k.effectiveSamplingInterval100ns() * 100L;
        while (!stopped.get()) {
            LockSupport.parkNanos(intervalNanos);
            if (stopped.get()) {
                return;
            }
            try {
                tick();
            } catch (RuntimeException e) {
                session.kernelError(e);
                return;
            }
        }
    }

    private void tick() {
        Map<Thread, StackTraceElement[]> all = Thread.getAllStackTraces();
        List<Map.Entry<Thread, StackTraceElement[]>> runnable = new ArrayList<>();
        for (Map.Entry<Thread, StackTraceElement[]> e : all.entrySet()) {
            if (isJvmThread(e.getKey()) && e.getKey().getState() == Thread.State.RUNNABLE && e.getValue().length > 0
                    && cpu.ranSinceLastTick(e.getKey().getId())) {
                runnable.add(e);
            }
        }
        runnable.sort((a, b) -> Long.compare(a.getKey().getId(), b.getKey().getId()));
        boolean profile = k.flags().contains(KernelFlag.PROFILE);
        boolean cswitch = k.flags().contains(KernelFlag.CSWITCH);
        session.appendKernel(time -> {
            List<byte[]> out = new ArrayList<>();
            synchronized (this) {
                int start = runnable.isEmpty() ? 0 : roundRobin++ % runnable.size();
                for (int cpu = 0; cpu < cpus; cpu++) {
                    Map.Entry<Thread, StackTraceElement[]> on = cpu < runnable.size()
                            ? runnable.get((start + cpu) % runnable.size()) : null;
                    int tid = on == null ? 0 : (int) on.getKey().getId();
                    long t = time.getAsLong();
                    if (on != null && k.flags().contains(KernelFlag.THREAD) && knownThreads.add(on.getKey().getId())) {
                        // a thread started after the rundown: Windows logs its Thread/Start (1)
                        out.add(KernelRecords.thread(1, t, pid, tid, IMAGE_AREA + THREAD_START, on.getKey().getName()));
                    }
                    int owner = on == null ? 0 : pid;
                    long[] stack = on == null ? new long[] {IDLE_LOOP, IDLE_ROOT} : stackOf(on.getValue(), out, t);
                    if (cswitch && running[cpu] != tid) {
                        boolean stillRuns = false;
                        for (Map.Entry<Thread, StackTraceElement[]> r : runnable) {
                            stillRuns |= r.getKey().getId() == running[cpu];
                        }
                        // MS Learn, CSwitch: OldThreadState 1 Ready (preempted), 5 Waiting; WaitReason 0 Executive
                        out.add(KernelRecords.cswitch(t, tid, (int) running[cpu], stillRuns ? 1 : 5, 0));
                        if (stacksOnSwitches) {
                            out.add(KernelRecords.stack(t, t, owner, tid, stack));
                        }
                        running[cpu] = tid;
                    }
                    if (profile) {
                        t = time.getAsLong(); // the interrupt comes after the switch, with a stack of its own
                        out.add(KernelRecords.sample(t, tid, stack[0]));
                        if (stacksOnSamples) {
                            out.add(KernelRecords.stack(t, t, owner, tid, stack));
                        }
                    }
                }
            }
            return out;
        });
    }

    private static int parentPid() {
        return ProcessHandle.current().parent().map(p -> (int) p.pid()).orElse(0);
    }

    /** The command line, cut to 1024 characters (a JVM's class path would not fit a record: 64 KB at most). */
    private static String commandLine() {
        String c = ProcessHandle.current().info().commandLine().orElse("java");
        return c.length() > 1024 ? c.substring(0, 1024) : c;
    }

    @Override
    public String toString() {
        return "KernelSimulation[" + session.name() + ", " + k.flags() + ", every "
                + TimeUnit.NANOSECONDS.toMicros(k.effectiveSamplingInterval100ns() * 100L) + " us]";
    }
}
