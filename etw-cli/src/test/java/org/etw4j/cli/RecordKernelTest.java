package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.etl.HeaderKind;
import org.etw4j.consumer.model.TraceModel;
import org.etw4j.format.EventHeaderLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code etw record --kernel cpu,cswitch --stacks} on the simulated ETW (issue 21, item 12), then {@code etw profile}
 * and {@code etw report} on what it wrote: the profile has stacks of this JVM's process resolved to its images, the
 * report completes without warnings, and the user provider's events carry their own stacks.
 */
class RecordKernelTest {
    @TempDir
    Path dir;

    private static long busy(AtomicBoolean stop) {
        long h = 1;
        while (!stop.get()) {
            for (int i = 0; i < 10_000; i++) {
                h = h * 31 + i;
            }
        }
        return h;
    }

    @Test
    void recordKernelCpuAndSwitchesWithStacksThenProfileAndReport() throws Exception {
        Path etl = dir.resolve("kernel.etl");
        AtomicBoolean stop = new AtomicBoolean();
        Thread spinner = new Thread(() -> busy(stop), "record-kernel-spinner");
        spinner.setDaemon(true);
        spinner.start();
        Cli.Result rec;
        try {
            rec = Cli.run("record", "--session", "etw4j-test-kernel", "--output", etl.toString(), "--duration",
                    "800ms", "--kernel", "cpu,cswitch", "--stacks", "--sample-interval", "2ms", "--demo-load",
                    "--rate", "200", "--backend", "simulated");
        } finally {
            stop.set(true);
            spinner.join();
        }
        assertEquals(0, rec.code(), rec.toString());
        assertTrue(rec.err().contains("(kernel: process,thread,image_load,cswitch,profile; stacks on 2 kernel events)"),
                rec.err());
        assertTrue(rec.out().contains("next: ./etw profile " + etl), rec.out());

        String pid = Long.toString(ProcessHandle.current().pid());
        Cli.Result profile = Cli.run("profile", etl.toString(), "--format", "collapsed", "--process", pid);
        assertEquals(0, profile.code(), profile.toString());
        List<String> lines = Arrays.stream(profile.out().split("\n")).filter(l -> !l.isBlank()).toList();
        assertTrue(!lines.isEmpty(), profile.toString());
        for (String l : lines) {
            assertTrue(l.startsWith("java (" + pid + ");java!+0x1450;"), "attributed to this JVM, from its launcher"
                    + " image's thread start: " + l);
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains(";app!+0x")), "frames in the class path's image: " + lines);

        Path html = dir.resolve("kernel.html");
        Cli.Result report = Cli.run("report", etl.toString(), "-o", html.toString());
        assertEquals(EtwCommand.OK, report.code(), report.toString());
        assertTrue(report.err().matches("(?s)etw report: wrote .* CPU samples\\)\\s*"), "one line, no warning: "
                + report.err());
        assertTrue(Files.size(html) > 0);

        // --stacks also asked the demo provider's events for their stacks (EVENT_ENABLE_PROPERTY_STACK_TRACE)
        long demo = 0;
        long demoWithStack = 0;
        try (EtlFile f = EtlFile.open(etl)) {
            EtlCursor c = f.cursor();
            while (c.advance()) {
                EtlRecordView r = c.record();
                if (r.kind() == HeaderKind.EVENT_HEADER && r.providerId().equals(DemoEvents.PROVIDER_ID)) {
                    demo++;
                    for (int i = 0; i < r.extendedDataCount(); i++) {
                        if (r.extendedDataType(i) == EventHeaderLayout.EXT_STACK_TRACE64) {
                            demoWithStack++;
                        }
                    }
                }
            }
        }
        assertTrue(demo > 0, "demo events recorded");
        assertEquals(demo, demoWithStack, "every demo event carries a STACK_TRACE64 item");
        TraceModel m = TraceModel.read(etl);
        assertTrue(m.cpuProfile().sampleCount() > 0);
        assertEquals(m.cpuProfile().sampleCount(), m.cpuProfile().samplesWithStack(), "every sample has its stack");
    }

    @Test
    void kernelOptionsAreCheckedAsUsageErrors() {
        Path etl = dir.resolve("bad.etl");
        Cli.Result unknown = Cli.run("record", "--output", etl.toString(), "--kernel", "cpu,nonsense", "--duration",
                "1s", "--backend", "simulated");
        assertEquals(EtwCommand.USAGE, unknown.code(), unknown.toString());
        assertTrue(unknown.err().contains("--kernel: unknown group 'nonsense'"), unknown.err());
        Cli.Result interval = Cli.run("record", "--output", etl.toString(), "--kernel", "cswitch",
                "--sample-interval", "1ms", "--duration", "1s", "--backend", "simulated");
        assertEquals(EtwCommand.USAGE, interval.code(), interval.toString());
        assertTrue(interval.err().contains("--sample-interval needs --kernel cpu"), interval.err());
        Cli.Result tooLong = Cli.run("record", "--output", etl.toString(), "--kernel", "cpu",
                "--sample-interval", "2s", "--duration", "1s", "--backend", "simulated");
        assertEquals(EtwCommand.USAGE, tooLong.code(), tooLong.toString());
        assertTrue(tooLong.err().contains("--sample-interval"), tooLong.err());
        assertTrue(!Files.exists(etl), "nothing started");
    }
}
