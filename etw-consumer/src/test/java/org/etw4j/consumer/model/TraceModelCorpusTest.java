package org.etw4j.consumer.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.etw4j.consumer.CorpusFiles;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.consumer.internal.decode.KernelSchemas;
import org.etw4j.consumer.internal.decode.TraceContext;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The trace model on the corpus's only trace with CPU samples and stacks, perfview__net.4.5.2.x64.etl (79528
 * PerfInfo/SampleProf events, StackWalk/Stack events and stack caching's key events 35-38; the other corpus traces
 * have none, as a scan of every file's kernel events shows).
 */
class TraceModelCorpusTest {

    private static final String TRACE = "perfview__net.4.5.2.x64.etl";
    private static TraceModel model;

    /** What the read told its progress callback: pass, passes, fraction. */
    private static final java.util.List<double[]> PROGRESS = new java.util.ArrayList<>();

    @BeforeAll
    static void read() throws IOException {
        model = TraceModel.read(CorpusFiles.file(TRACE),
                (pass, passes, fraction) -> PROGRESS.add(new double[] {pass, passes, fraction}));
    }

    /**
     * The read reports both passes, in order, every 4096 records and at each pass's end: fractions within [0, 1],
     * never going back within a pass, 1 at its end (179474 records: 43 reports and the end per pass).
     */
    @Test
    void theReadReportsItsProgressPerPass() {
        int[] perPass = new int[3];
        double last = 0;
        int lastPass = 1;
        for (double[] p : PROGRESS) {
            int pass = (int) p[0];
            assertEquals(2, (int) p[1]);
            assertTrue(pass == lastPass || pass == lastPass + 1, "passes in order");
            if (pass != lastPass) {
                assertEquals(1.0, last, "the previous pass ended at 1");
                last = 0;
            }
            assertTrue(p[2] >= last && p[2] <= 1.0, "fraction " + p[2] + " after " + last);
            last = p[2];
            lastPass = pass;
            perPass[pass]++;
        }
        assertEquals(2, lastPass);
        assertEquals(1.0, last);
        assertEquals(perPass[1], perPass[2]);
        assertEquals(179474 / 4096 + 1, perPass[1]);
    }

    /**
     * A plain count of the PerfInfo/Sample events, each attributed to a process as {@code etw dump} attributes it
     * (TraceContext.processIdOf: the payload's ThreadID and the Thread events), decoded independently of the model.
     */
    private static Map<Integer, Long> plainCounts(Path file) throws IOException {
        EventDecoder decoder = new EventDecoder();
        TraceContext context = new TraceContext();
        EtlRecordEvent r = new EtlRecordEvent();
        try (EtlFile f = EtlFile.open(file)) {
            EtlCursor c = f.cursor();
            while (c.advance()) {
                context.learn(r.of(c.record()), decoder);
            }
            Map<Integer, Long> counts = new HashMap<>();
            c = f.cursor();
            while (c.advance()) {
                r.of(c.record());
                if (r.providerId().equals(KernelSchemas.PERF_INFO) && r.opcode() == 46) {
                    DecodedEvent e = decoder.decode(r);
                    assertEquals("Sample", e.opcodeName());
                    counts.merge(context.processIdOf(r, e), 1L, Long::sum);
                }
            }
            return counts;
        }
    }

    @Test
    void sampleCountsPerProcessEqualAPlainCountOfTheSampleEvents() throws IOException {
        Map<Integer, Long> plain = plainCounts(CorpusFiles.file(TRACE));
        assertEquals(79528L, plain.values().stream().mapToLong(Long::longValue).sum());
        assertEquals(plain, model.cpuProfile().countsByProcessId());
        assertEquals(79528L, model.cpuProfile().sampleCount());
        assertEquals(10000L, model.cpuProfile().intervalHundredNs(),
                "PerfInfo/CollectionStart NewInterval of the timer source: 1 ms");
    }

    @Test
    void everyResolvedFrameLiesInsideTheImageItNamesMappedInItsProcessOrTheKernel() {
        Set<TraceImage> images = new HashSet<>(model.images());
        long frames = 0;
        long resolved = 0;
        for (CpuProfile.StackCount s : model.cpuProfile().stacks()) {
            for (StackFrame f : s.frames()) {
                frames++;
                if (f.image() == null) {
                    continue;
                }
                resolved++;
                TraceImage i = f.image();
                assertTrue(images.contains(i), f + " names an image the trace did not describe");
                long address = f.address();
                assertTrue(i.contains(address), f + " outside " + i);
                assertEquals(address < 0 ? 0 : s.processId(), i.processId(),
                        f + ": kernel addresses in process 0's images, user addresses in the sampled process's");
                assertEquals(i.moduleName() + "!+0x" + Long.toHexString(address - i.base()), f.name());
            }
        }
        assertTrue(resolved > frames / 2, resolved + " of " + frames + " distinct frames resolved");
        assertTrue(model.cpuProfile().samplesWithStack() > 0);
    }

    /**
     * JIT-compiled frames name methods that the trace's own CLR method events list (decoded here independently,
     * with the shared ClrEtwAll.man: MethodNamespace + "." + MethodName of MethodLoadVerbose and the rundown's
     * MethodDCEndVerbose), and their addresses lie in the method's [MethodStartAddress, + MethodSize); the frame
     * names the method's module as the trace's CLR loader events (ModuleLoad, ModuleDCStart/DCEnd) give it for the
     * method's ModuleID: {@code Module!Namespace.Type.Method+0xOFFSET}, the module being the IL file's name without
     * extension, as PerfView names JIT-compiled frames.
     */
    @Test
    void jitFramesResolveToMethodsTheTracesOwnClrEventsList() throws IOException {
        org.etw4j.consumer.internal.decode.ManifestRegistry registry = new org.etw4j.consumer.internal.decode.ManifestRegistry();
        registry.register(org.etw4j.testing.SharedData.resolve("manifests/ClrEtwAll.man"));
        EventDecoder decoder = new EventDecoder(registry);
        Set<String> listed = new HashSet<>();
        // (pid, MethodStartAddress) -> ModuleID; (pid, ModuleID) -> the module's IL file name (loader events)
        Map<String, Long> moduleOfMethod = new HashMap<>();
        Map<String, String> moduleFile = new HashMap<>();
        EtlRecordEvent r = new EtlRecordEvent();
        try (EtlFile f = EtlFile.open(CorpusFiles.file(TRACE))) {
            EtlCursor c = f.cursor();
            while (c.advance()) {
                r.of(c.record());
                String p = r.providerId().toString();
                boolean runtime = p.equals("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
                boolean rundown = p.equals("a669021c-c450-4609-a035-5af59af4df18");
                if ((runtime || rundown) && (r.id() == 143 || r.id() == 144)) {
                    DecodedEvent e = decoder.decode(r);
                    listed.add(e.field("MethodNamespace").value() + "." + e.field("MethodName").value());
                    moduleOfMethod.put(r.processId() + "/" + e.field("MethodStartAddress").asLong(),
                            e.field("ModuleID").asLong());
                } else if (runtime && (r.id() == 152 || r.id() == 153) || rundown && (r.id() == 153 || r.id() == 154)) {
                    DecodedEvent e = decoder.decode(r);
                    String il = (String) e.field("ModuleILPath").value();
                    moduleFile.put(r.processId() + "/" + e.field("ModuleID").asLong(),
                            il.substring(il.lastIndexOf('\\') + 1));
                }
            }
        }
        assertTrue(moduleFile.containsValue("mscorlib.dll") && moduleFile.containsValue("Test.x64.exe"), moduleFile.toString());
        long jitFrames = 0;
        long jitSamplesInTest = 0;
        for (CpuProfile.StackCount s : model.cpuProfile().stacks()) {
            boolean jit = false;
            for (StackFrame f : s.frames()) {
                if (f.method() != null) {
                    jit = true;
                    jitFrames++;
                    assertTrue(listed.contains(f.method().fullName()), f.toString());
                    assertTrue(f.method().contains(f.address()), f.toString());
                    assertEquals(s.processId(), f.method().processId());
                    long module = moduleOfMethod.get(s.processId() + "/" + f.method().start());
                    assertEquals(module, f.method().moduleId(), f.toString());
                    String file = moduleFile.get(s.processId() + "/" + module);
                    assertNotNull(file, "the trace's loader events name module " + module);
                    String moduleName = file.substring(0, file.lastIndexOf('.'));
                    assertEquals(moduleName + "!" + f.method().fullName() + "+0x" + Long.toHexString(f.offset()),
                            f.name(), "PerfView's Module!Namespace.Type.Method");
                }
            }
            if (jit && s.processId() == 3676) {
                jitSamplesInTest += s.count();
            }
        }
        assertTrue(jitFrames > 0);
        assertTrue(jitSamplesInTest > 0, "Test.x64 runs managed code");
        assertTrue(model.cpuProfile().stacks().stream().flatMap(s -> s.frames().stream())
                .anyMatch(f -> f.name().startsWith("Test.x64!Test.Program.Main+0x")), "the test program's entry point");
    }

    @Test
    void collapsedOutputSumsToTheSampleCount() throws IOException {
        StringBuilder out = new StringBuilder();
        model.cpuProfile().writeCollapsed(out, true);
        long sum = 0;
        for (String line : out.toString().split("\n")) {
            sum += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
            assertTrue(line.startsWith(line.substring(0, line.indexOf(';'))) && line.indexOf(';') > 0, line);
        }
        assertEquals(model.cpuProfile().sampleCount(), sum);
    }

    /**
     * The trace's EVENT_HEADER events with a STACK_TRACE64 extended item (655, read here straight from the records;
     * all with MatchId 0, kernel and user parts together; no STACK_KEY items in the corpus) each have that stack:
     * the item's addresses, root first, and every resolved frame inside its image, kernel addresses in process 0's.
     * Every StackWalk/Stack event naming an event other than a CPU sample gives that event a stack too.
     */
    @Test
    void extendedItemAndStackWalkStacksBelongToTheirEvents() throws IOException {
        long items = 0;
        long resolved = 0;
        long frames = 0;
        long walks = 0;
        EtlRecordEvent r = new EtlRecordEvent();
        try (EtlFile f = EtlFile.open(CorpusFiles.file(TRACE))) {
            EtlCursor c = f.cursor();
            while (c.advance()) {
                r.of(c.record());
                java.nio.ByteBuffer item = r.extendedDataOfType(org.etw4j.format.EventHeaderLayout.EXT_STACK_TRACE64);
                if (item != null) {
                    items++;
                    item = item.order(java.nio.ByteOrder.LITTLE_ENDIAN);
                    assertEquals(0, item.getLong(item.position()), "MatchId");
                    int n = (item.remaining() - 8) / 8;
                    EventStack s = model.stack(r);
                    assertNotNull(s, r.providerId() + " id " + r.id() + " at " + r.rawTimestamp());
                    assertEquals(n, s.frames().size());
                    assertEquals(r.processId(), s.processId());
                    assertTrue(s.complete());
                    for (int i = 0; i < n; i++) {
                        long address = item.getLong(item.position() + 8 + 8 * i);
                        StackFrame frame = s.frames().get(n - 1 - i);
                        assertEquals(address, frame.address(), frame.toString());
                        frames++;
                        if (frame.image() != null) {
                            resolved++;
                            assertTrue(frame.image().contains(address));
                            assertEquals(address < 0 ? 0 : r.processId(), frame.image().processId(), frame.toString());
                        }
                    }
                } else if (r.providerId().equals(KernelSchemas.STACK_WALK) && r.opcode() == 32) {
                    java.nio.ByteBuffer b = r.userData().order(java.nio.ByteOrder.LITTLE_ENDIAN);
                    long eventTime = b.getLong(b.position());
                    int tid = b.getInt(b.position() + 12);
                    EventStack s = model.stack(eventTime, tid);
                    assertNotNull(s, "StackWalk at " + eventTime + " thread " + tid);
                    assertEquals(tid, s.threadId());
                    walks++;
                }
            }
        }
        assertEquals(655, items);
        assertTrue(resolved > frames * 9 / 10, resolved + " of " + frames + " frames resolved");
        assertTrue(walks > 0);
        assertTrue(model.stacksOfOtherEvents() > 0, "the trace has StackWalk stacks of other events");
        assertEquals(0, model.stackItemWarnings());
        System.out.println("stacked events " + model.stackedEvents() + ", distinct stacks " + model.distinctStacks()
                + ", StackWalk stacks of other events " + model.stacksOfOtherEvents() + ", frames " + frames
                + ", resolved " + resolved);
    }

    /**
     * Sessions against Microsoft's TraceEvent (expected/traceevent/net.4.5.2.x64.baseline.txt, decoded on Windows):
     * every Windows Kernel/Process event it lists gives the process (PID) a SessionID, and the model's process
     * instance of that id has the same (-1 = none, as TraceEvent prints 0xFFFFFFFF). A reused id would need the
     * times: the listed ids are each one instance here, which the test checks.
     */
    @Test
    void processSessionsAreTheOnesTraceEventPrints() throws IOException {
        Path baseline = org.etw4j.testing.SharedData.resolve("etl-corpus/expected/traceevent/net.4.5.2.x64.baseline.txt");
        java.util.regex.Pattern line = java.util.regex.Pattern.compile(
                "Windows Kernel/Process/\\w+ PID=(-?\\d+);.*; SessionID=(-?[\\d,]+);");
        Map<Integer, Integer> expected = new HashMap<>();
        for (String l : java.nio.file.Files.readAllLines(baseline)) {
            java.util.regex.Matcher m = line.matcher(l);
            if (m.find()) {
                int session = Integer.parseInt(m.group(2).replace(",", ""));
                Integer old = expected.put(Integer.parseInt(m.group(1)), session);
                assertTrue(old == null || old == session, "one session per pid: " + l);
            }
        }
        assertTrue(expected.size() >= 8, expected.toString());
        assertTrue(expected.containsValue(-1) && expected.containsValue(0) && expected.containsValue(1),
                "the baseline shows no session, session 0 and session 1: " + expected);
        for (Map.Entry<Integer, Integer> e : expected.entrySet()) {
            var instances = model.processes().stream().filter(p -> p.process().processId() == e.getKey()).toList();
            assertEquals(1, instances.size(), "pid " + e.getKey());
            assertEquals(e.getValue(), instances.get(0).process().sessionId(), "session of pid " + e.getKey());
        }
    }

    @Test
    void processesThreadsAndImagesComeFromTheKernelEvents() {
        // The trace's Process events: Start 3676 Test.x64.exe at 132404548233567925, its Stop at
        // 132404548288259013, Defunct for 616 smss.exe and 988 LogonUI.exe; the rundown describes the rest.
        var started = model.processes().stream().filter(p -> p.start() != Long.MIN_VALUE).toList();
        assertEquals(1, started.size());
        assertEquals("Test.x64", started.get(0).process().name());
        assertEquals(132404548233567925L, started.get(0).start());
        assertEquals(132404548288259013L, started.get(0).stop());
        assertEquals(Set.of("Test.x64", "smss", "LogonUI"), model.processes().stream()
                .filter(p -> p.stop() != Long.MAX_VALUE).map(p -> p.process().name())
                .collect(java.util.stream.Collectors.toSet()));
        TraceImage kernel = model.images().stream().filter(i -> i.fileName().equalsIgnoreCase("ntoskrnl.exe"))
                .findFirst().orElseThrow();
        assertEquals(0, kernel.processId());
        assertNotNull(model.image(kernel.base() + 16, 1234, 0, 8));
        assertEquals(kernel, model.image(kernel.base() + 16, 1234, Long.MAX_VALUE - 1, 8));
    }
}
