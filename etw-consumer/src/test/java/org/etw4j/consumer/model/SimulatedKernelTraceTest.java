package org.etw4j.consumer.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.etw4j.EtwException;
import org.etw4j.consumer.ProcessLifetime;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.etl.HeaderKind;
import org.etw4j.consumer.internal.EventFormatterAccess;
import org.etw4j.controller.ClassicEventId;
import org.etw4j.controller.KernelFlag;
import org.etw4j.controller.KernelTracing;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.sim.SimulatedBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulated SystemTraceProvider (issue 21, item 12): a kernel session of the simulator writes records the
 * reader, the kernel MOF schemas and the trace model take as they take Windows' ones: the rundown names this JVM's
 * process, threads and images; CPU samples carry StackWalk stacks of the same thread and timestamp, resolved to
 * {@code module!+offset} in images of this process; context switches decode with every byte used.
 */
class SimulatedKernelTraceTest {
    @TempDir
    Path dir;

    /** A thread that keeps a CPU busy in a method of its own until told to stop. */
    private static final class Spinner extends Thread {
        final AtomicBoolean stop = new AtomicBoolean();
        volatile long sink;

        Spinner() {
            super("kernel-test-spinner");
            setDaemon(true);
        }

        @Override
        public void run() {
            while (!stop.get()) {
                sink += spinOnce(sink);
            }
        }

        private static long spinOnce(long x) {
            long h = x;
            for (int i = 0; i < 10_000; i++) {
                h = h * 31 + i;
            }
            return h;
        }
    }

    private Path record(KernelTracing kernel, Duration forHowLong) throws Exception {
        Path etl = dir.resolve("kernel.etl");
        SimulatedBackend backend = new SimulatedBackend();
        Spinner spinner = new Spinner();
        spinner.start();
        try (TraceSession s = TraceSession.start(SessionConfig.file("etw4j-kernel-test", etl).kernel(kernel).build(),
                backend)) {
            Thread.sleep(forHowLong.toMillis());
        } finally {
            spinner.stop.set(true);
            spinner.join();
        }
        assertEquals(List.of(), backend.backgroundErrors());
        return etl;
    }

    @Test
    void cpuSamplesWithStacksAreAttributedToThisProcessAndResolveToItsImages() throws Exception {
        KernelTracing k = KernelTracing.of(KernelFlag.PROCESS, KernelFlag.THREAD, KernelFlag.IMAGE_LOAD,
                KernelFlag.PROFILE, KernelFlag.CSWITCH).withSamplingInterval(Duration.ofMillis(2))
                .withStacks(ClassicEventId.SAMPLED_PROFILE, ClassicEventId.CSWITCH);
        Path etl = record(k, Duration.ofMillis(600));
        int pid = (int) ProcessHandle.current().pid();

        TraceModel m = TraceModel.read(etl);
        CpuProfile p = m.cpuProfile();
        assertTrue(p.sampleCount() > 0, "samples: " + p.sampleCount());
        assertEquals(p.sampleCount(), p.samplesWithStack(), "every sample was followed by its StackWalk");
        assertEquals(20_000, p.intervalHundredNs(), "the interval of CollectionStart");
        assertTrue(p.countsByProcessId().getOrDefault(pid, 0L) > 0, "samples of this JVM: " + p.countsByProcessId());

        ProcessLifetime me = m.process(pid, 0);
        assertNotNull(me, "the process rundown names this JVM");
        assertEquals("java.exe", me.process().imageFileName());

        // The spinner's stacks: every frame in an image of this process, the leaf in the "app" image (the class
        // path's classes), the root the launcher's thread start.
        List<CpuProfile.StackCount> spinner = p.stacks().stream().filter(s -> s.processId() == pid
                && s.frames().size() > 2).toList();
        assertFalse(spinner.isEmpty(), "stacks of this JVM: " + p.stacks());
        for (CpuProfile.StackCount s : spinner) {
            for (StackFrame f : s.frames()) {
                assertNotNull(f.image(), "frame " + f.name() + " resolves to an image");
                assertEquals(pid, f.image().processId());
            }
            assertEquals("java!+0x1450", s.frames().get(0).name(), "root first in the profile's order");
            assertTrue(s.frames().get(0).image().path().endsWith("java.exe"), s.frames().get(0).image().path());
        }
        assertTrue(spinner.stream().anyMatch(s -> s.frames().get(s.frames().size() - 1).name().startsWith("app!+0x")),
                "a leaf in the class path's image: " + spinner);
        TraceThread t = m.thread((int) spinner.get(0).threadId(), Long.MAX_VALUE);
        assertNotNull(t, "the sampled thread is known from the rundown or its Start");
        assertEquals(pid, t.processId());
    }

    @Test
    void everyKernelRecordDecodesWithEveryByteUsedAndNoWarning() throws Exception {
        KernelTracing k = KernelTracing.of(KernelFlag.PROCESS, KernelFlag.THREAD, KernelFlag.IMAGE_LOAD,
                KernelFlag.PROFILE, KernelFlag.CSWITCH).withStacks(ClassicEventId.SAMPLED_PROFILE);
        Path etl = record(k, Duration.ofMillis(300));
        Map<String, Integer> seen = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        EventDecoder decoder = new EventDecoder();
        EtlRecordEvent adapter = new EtlRecordEvent();
        try (EtlFile f = EtlFile.open(etl)) {
            EtlCursor c = f.cursor();
            while (c.advance()) {
                if (c.record().kind() == HeaderKind.EVENT_HEADER || c.record().group() == 0) {
                    continue; // the trace's own header records (EventTrace) are not the kernel simulation's
                }
                DecodedEvent e = decoder.decode(adapter.of(c.record()));
                if (e.source() != SchemaSource.KERNEL_MOF) {
                    problems.add("not a kernel MOF event: " + EventFormatterAccess.text(e));
                    continue;
                }
                seen.merge(e.fullName() + " v" + e.version(), 1, Integer::sum);
                if (e.hasFieldErrors() || e.undecodedLength() > 0 || !e.notes().isEmpty()) {
                    problems.add(EventFormatterAccess.text(e));
                }
            }
            assertEquals(0, f.warningCount(), "reader warnings");
            assertEquals(0, c.outOfOrderCount(), "records in time order");
        }
        assertEquals(List.of(), problems.stream().limit(10).toList());
        for (String expected : List.of("Process/DCStart v4", "Process/DCStop v4", "Thread/DCStart v3",
                "Thread/DCStop v3", "Image/DCStart v3", "Image/DCStop v3", "PerfInfo/Sample v2",
                "PerfInfo/CollectionStart v3", "PerfInfo/CollectionEnd v3", "StackWalk/Stack v2", "Thread/CSwitch v2")) {
            assertTrue(seen.containsKey("Windows Kernel/" + expected), expected + " in " + seen);
        }
    }

    @Test
    void aRealTimeKernelSessionIsRefusedBySimulatorWithAReason() {
        SessionConfig c = SessionConfig.realTime("etw4j-kernel-rt").kernel(KernelTracing.of(KernelFlag.PROCESS))
                .build();
        EtwException e = assertThrows(EtwException.class, () -> new SimulatedBackend().startSession(c));
        assertTrue(e.getMessage().contains("needs Windows"), e.getMessage());
    }
}
