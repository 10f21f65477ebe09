package org.etw4j.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The write benchmarks measured in CPU time of the calling thread, for a machine shared with many other
 * processes: JMH's figures are wall-clock time, which on an overloaded machine (load average 15-20 on 2 cores)
 * mostly measure how long the thread waited for a core, so their confidence intervals span the result. This
 * runs the same {@code @Benchmark} methods of {@link WriteBenchmark} and {@link FfmWriteBenchmark} (same set-up and
 * set-up checks, same peers) in one JVM and charges each operation only the CPU time its thread used
 * ({@code ThreadMXBean.getCurrentThreadCpuTime}) and the bytes it allocated
 * ({@code com.sun.management.ThreadMXBean.getCurrentThreadAllocatedBytes}).
 *
 * <p>Method: every variant runs in its own loop (so each call site stays monomorphic, as in a JMH stub); a warm-up
 * of {@value #WARMUP_ROUNDS} rounds, then {@value #ROUNDS} measured rounds in which the variants take turns (the
 * starting one rotates), so that load changes affect them alike. Reported per variant: the median, minimum and
 * maximum of the rounds' CPU ns per operation, and B/op. Ratios are of medians from this one run. What it does not
 * see: the consumer and logger threads' CPU (as JMH's per-operation time does not either; they run beside the
 * writer), and the cache and scheduler effects of sharing a core, which still inflate the figures somewhat.
 *
 * <p>Run from the repository root: {@code java --enable-native-access=ALL-UNNAMED -cp
 * benchmarks/target/benchmarks.jar org.etw4j.bench.CpuTimeRun [write|ffm|all] [nopeers]}; {@code ... CpuTimeRun scan
 * FILE,FILE} runs {@link EtlScanBenchmark}'s {@code headerScan} (the public reader) against its peer
 * {@code cursorScan} (the raw cursor) on the named corpus files; {@code ... CpuTimeRun copy FILE,FILE} runs
 * {@link RecordReadBenchmark}'s {@code header}, {@code eventName} and {@code copy} (two passes); {@code ... CpuTimeRun decode FILE,FILE} {@link ViewDecodeBenchmark}'s
 * {@code viewDecode} and its peer {@code fullDecode} (no manifest).
 */
public final class CpuTimeRun {
    static final int WARMUP_ROUNDS = 3;
    static final int ROUNDS = 9;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    static volatile long sink;
    static volatile Object lastEvent;

    private CpuTimeRun() {
    }

    /** One variant: a loop of {@code n} calls of one benchmark method. */
    interface Loop {
        long run(int n) throws Throwable;
    }

    public static void main(String[] args) throws Throwable {
        String which = args.length > 0 ? args[0] : "all";
        System.out.println("load average at start: " + Arrays.toString(loadAverage()));
        if (which.equals("write") || which.equals("all")) {
            WriteBenchmark w = new WriteBenchmark();
            w.setUp();
            WriteBenchmark.Failures f = new WriteBenchmark.Failures();
            Map<String, Loop> loops = new LinkedHashMap<>();
            loops.put("WriteBenchmark.jfrCommit", n -> {
                for (int i = 0; i < n; i++) {
                    w.jfrCommit();
                }
                return 0;
            });
            // JFR's cost depends on whether the JIT removes the event object (escape analysis): in this loop it
            // often does (0 B/op); JMH's jfrCommit allocated 48 B/op. This variant keeps the event (it escapes).
            loops.put("jfrCommit, event escapes", n -> {
                for (int i = 0; i < n; i++) {
                    WriteBenchmark.RequestEvent e = new WriteBenchmark.RequestEvent();
                    e.status = 200;
                    e.path = WriteBenchmark.PATH;
                    e.millis = 1.25;
                    e.commit();
                    lastEvent = e;
                }
                return 0;
            });
            loops.put("WriteBenchmark.etw4jTraceLogging", n -> {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += w.etw4jTraceLogging(f);
                }
                return s;
            });
            loops.put("WriteBenchmark.etw4jManifest", n -> {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += w.etw4jManifest(f);
                }
                return s;
            });
            boolean peers = !(args.length > 1 && args[1].equals("nopeers")); // old and new code compared alike
            if (!peers || !hasMethod(WriteBenchmark.class, "clockOnly")) {
                System.out.println("(without the clock and lock peers)");
            } else {
            loops.put("WriteBenchmark.clockOnly", n -> {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += w.clockOnly();
                }
                return s;
            });
            loops.put("WriteBenchmark.sessionLockOnly", n -> {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += w.sessionLockOnly();
                }
                return s;
            });
            }
            measure(loops, 1_000_000, "WriteBenchmark.jfrCommit");
            w.tearDown();
            System.out.println("write failures (events the session could not take): " + f.writeFailures);
        }
        if (which.equals("ffm") || which.equals("all")) {
            FfmWriteBenchmark b = new FfmWriteBenchmark();
            b.setUp();
            Map<String, Loop> loops = new LinkedHashMap<>();
            loops.put("FfmWriteBenchmark.jnaBackend", n -> {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += b.jnaBackend();
                }
                return s;
            });
            loops.put("FfmWriteBenchmark.ffmBackend", n -> {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += b.ffmBackend();
                }
                return s;
            });
            loops.put("FfmWriteBenchmark.ffmRawDowncall", n -> {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += b.ffmRawDowncall();
                }
                return s;
            });
            measure(loops, 1_000_000, "FfmWriteBenchmark.jnaBackend");
            b.tearDown();
        }
        if (which.equals("scan")) {
            // headerScan (through TraceFile) against its peer cursorScan (the raw cursor), per corpus file
            String[] files = args.length > 1 ? args[1].split(",") : new String[] {"airbus__ShutdownPerfDiagLogger.etl"};
            for (String file : files) {
                EtlScanBenchmark b = new EtlScanBenchmark();
                b.file = file;
                b.open();
                org.openjdk.jmh.infra.Blackhole bh = blackhole();
                Map<String, Loop> loops = new LinkedHashMap<>();
                loops.put("EtlScanBenchmark.cursorScan", n -> {
                    for (int i = 0; i < n; i++) {
                        b.cursorScan(bh);
                    }
                    return 0;
                });
                loops.put("EtlScanBenchmark.headerScan", n -> {
                    for (int i = 0; i < n; i++) {
                        b.headerScan(bh);
                    }
                    return 0;
                });
                System.out.println(file);
                measure(loops, 2_000_000, "EtlScanBenchmark.cursorScan");
                b.close();
                evaporate(bh);
            }
        }
        if (which.equals("decode")) {
            // ViewDecodeBenchmark's viewDecode and its peer fullDecode, without a manifest, per corpus file
            String[] files = args.length > 1 ? args[1].split(",") : new String[] {"airbus__ShutdownPerfDiagLogger.etl"};
            for (String file : files) {
                ViewDecodeBenchmark b = new ViewDecodeBenchmark();
                b.file = file;
                b.manifest = "none";
                b.open();
                org.openjdk.jmh.infra.Blackhole bh = blackhole();
                Map<String, Loop> loops = new LinkedHashMap<>();
                loops.put("ViewDecodeBenchmark.viewDecode", n -> {
                    for (int i = 0; i < n; i++) {
                        b.viewDecode(bh);
                    }
                    return 0;
                });
                loops.put("ViewDecodeBenchmark.fullDecode", n -> {
                    for (int i = 0; i < n; i++) {
                        lastEvent = b.fullDecode();
                    }
                    return 0;
                });
                System.out.println(file);
                measure(loops, 500_000, "ViewDecodeBenchmark.fullDecode");
                b.close();
                evaporate(bh);
            }
        }
        if (which.equals("copy")) {
            // EventRecord.copy() against reading the event's name (decoded into the reused view) and its id only
            String[] files = args.length > 1 ? args[1].split(",") : new String[] {"perfview__net.4.5.2.x64.etl"};
            for (String file : files) {
                RecordReadBenchmark b = new RecordReadBenchmark();
                b.file = file;
                b.context = "TWO_PASSES";
                b.open();
                Map<String, Loop> loops = new LinkedHashMap<>();
                loops.put("RecordReadBenchmark.header", n -> {
                    long s = 0;
                    for (int i = 0; i < n; i++) {
                        s += b.header();
                    }
                    return s;
                });
                loops.put("RecordReadBenchmark.eventName", n -> {
                    long s = 0;
                    for (int i = 0; i < n; i++) {
                        s += b.eventName().length();
                    }
                    return s;
                });
                loops.put("RecordReadBenchmark.copy", n -> {
                    long s = 0;
                    for (int i = 0; i < n; i++) {
                        lastEvent = b.copy();
                    }
                    return s;
                });
                System.out.println(file);
                measure(loops, 200_000, "RecordReadBenchmark.eventName");
                b.close();
            }
        }
        System.out.println("load average at end: " + Arrays.toString(loadAverage()));
    }

    private static void measure(Map<String, Loop> loops, int opsPerRound, String reference) throws Throwable {
        List<String> names = new ArrayList<>(loops.keySet());
        Map<String, double[]> cpu = new LinkedHashMap<>();
        Map<String, double[]> bytes = new LinkedHashMap<>();
        for (String name : names) {
            cpu.put(name, new double[ROUNDS]);
            bytes.put(name, new double[ROUNDS]);
        }
        for (int round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
            for (int k = 0; k < names.size(); k++) {
                String name = names.get(Math.floorMod(k + round, names.size()));
                long thread = Thread.currentThread().threadId();
                long c0 = THREADS.getCurrentThreadCpuTime();
                long a0 = THREADS.getThreadAllocatedBytes(thread);
                sink += loops.get(name).run(opsPerRound);
                long a1 = THREADS.getThreadAllocatedBytes(thread);
                long c1 = THREADS.getCurrentThreadCpuTime();
                if (round >= 0) {
                    cpu.get(name)[round] = (c1 - c0) / (double) opsPerRound;
                    bytes.get(name)[round] = (a1 - a0) / (double) opsPerRound;
                }
            }
        }
        double ref = median(cpu.get(reference));
        System.out.printf("%n%-36s %12s %10s %10s %10s %12s%n", "variant (" + opsPerRound + " ops/round, " + ROUNDS + " rounds)",
                "CPU ns/op", "min", "max", "B/op", "x " + reference.substring(reference.indexOf('.') + 1));
        for (String name : names) {
            double[] c = cpu.get(name);
            double m = median(c);
            System.out.printf("%-36s %12.1f %10.1f %10.1f %10.3f %12.2f%n", name, m, Arrays.stream(c).min().orElse(0),
                    Arrays.stream(c).max().orElse(0), median(bytes.get(name)), m / ref);
        }
    }

    /** A blackhole for benchmark methods that take one, outside JMH (as JMH makes it; JMH asks for the phrase). */
    private static org.openjdk.jmh.infra.Blackhole blackhole() {
        return new org.openjdk.jmh.infra.Blackhole(
                "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
    }

    private static void evaporate(org.openjdk.jmh.infra.Blackhole bh) {
        bh.evaporate("Yes, I am Stephen Hawking, and know a thing or two about black holes.");
    }

    private static boolean hasMethod(Class<?> c, String name) {
        return Arrays.stream(c.getMethods()).anyMatch(m -> m.getName().equals(name));
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static double[] loadAverage() {
        return new double[] {ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()};
    }
}
