package org.etw4j.consumer.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.consumer.internal.decode.KernelSchemas;
import org.etw4j.consumer.testing.TestRecord;
import org.etw4j.RawEventRecord;
import org.junit.jupiter.api.Test;

/**
 * The stack join and frame resolution on hand-built kernel records (x64 layouts as KernelSchemas decodes them: Thread
 * v2, Image v2, PerfInfo/Sample v2, StackWalk 32 and the key events 35/37/38).
 */
class TraceModelSyntheticTest {

    private static final long KERNEL_BASE = 0xFFFFF800_00000000L;
    private static final long APP_BASE = 0x7FF6_0000_0000L;

    private final List<RawEventRecord> records = new ArrayList<>();

    private static ByteBuffer buf(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private void add(Guid provider, int opcode, long time, byte[] payload) {
        records.add(TestRecord.builder(provider).classic().version(2).opcode(opcode).timestamp(time).pid(-1).tid(-1)
                .data(payload).build());
    }

    private void thread(int opcode, long time, int pid, int tid) {
        ByteBuffer b = buf(8 + 7 * 8 + 4);
        b.putInt(pid).putInt(tid);
        add(KernelSchemas.THREAD, opcode, time, b.array());
    }

    private void image(int opcode, long time, int pid, long base, long size, String path) {
        byte[] name = (path + "\0").getBytes(StandardCharsets.UTF_16LE);
        ByteBuffer b = buf(8 + 8 + 4 * 4 + 8 + 4 * 4 + name.length);
        b.putLong(base).putLong(size).putInt(pid).putInt(0).putInt(0).putInt(0).putLong(base)
                .putInt(0).putInt(0).putInt(0).putInt(0).put(name);
        add(KernelSchemas.IMAGE, opcode, time, b.array());
    }

    private void sample(long time, int tid, long ip) {
        add(KernelSchemas.PERF_INFO, 46, time, buf(16).putLong(ip).putInt(tid).putShort((short) 1).array());
    }

    private void stack(long time, long eventTime, int pid, int tid, long... frames) {
        ByteBuffer b = buf(16 + 8 * frames.length).putLong(eventTime).putInt(pid).putInt(tid);
        for (long f : frames) {
            b.putLong(f);
        }
        add(KernelSchemas.STACK_WALK, 32, time, b.array());
    }

    private void keyRef(int opcode, long time, long eventTime, int pid, int tid, long key) {
        add(KernelSchemas.STACK_WALK, opcode, time, buf(24).putLong(eventTime).putInt(pid).putInt(tid).putLong(key)
                .array());
    }

    private void keyDef(int opcode, long time, long key, long... frames) {
        ByteBuffer b = buf(8 + 8 * frames.length).putLong(key);
        for (long f : frames) {
            b.putLong(f);
        }
        add(KernelSchemas.STACK_WALK, opcode, time, b.array());
    }

    private TraceModel model() {
        return TraceModel.read(each -> records.forEach(each));
    }

    private static List<String> names(CpuProfile.StackCount s) {
        return s.frames().stream().map(StackFrame::name).toList();
    }

    @Test
    void samplesJoinTheStackOfTheirThreadAndTimestampAndResolveToImages() throws java.io.IOException {
        image(3, 1, 0, KERNEL_BASE, 0x100000, "\\SystemRoot\\system32\\ntoskrnl.exe");
        image(3, 1, 100, APP_BASE, 0x10000, "\\Device\\HarddiskVolume2\\app\\app.exe");
        thread(3, 1, 100, 7);
        thread(3, 1, 100, 8);
        // Sample on thread 7 at 10; the stack of another event (thread 8, time 10) must not join it.
        sample(10, 7, KERNEL_BASE + 0x10);
        stack(11, 10, 100, 8, APP_BASE + 0x999);
        stack(11, 10, 100, 7, KERNEL_BASE + 0x10, KERNEL_BASE + 0x20, APP_BASE + 0x30, APP_BASE + 0x40);
        // Sample on thread 8 without a stack: its sampled address alone.
        sample(20, 8, APP_BASE + 0x50);
        // Same stack as the first: merged.
        sample(30, 7, KERNEL_BASE + 0x10);
        stack(31, 30, 100, 7, KERNEL_BASE + 0x10, KERNEL_BASE + 0x20, APP_BASE + 0x30, APP_BASE + 0x40);
        // An address in no image.
        sample(40, 7, 0x1234);
        stack(41, 40, 100, 7, 0x1234, APP_BASE + 0x40);

        TraceModel m = model();
        CpuProfile p = m.cpuProfile();
        assertEquals(4, p.sampleCount());
        assertEquals(3, p.samplesWithStack());
        assertEquals(1, m.stacksOfOtherEvents());
        assertEquals(Map.of(100, 4L), p.countsByProcessId());
        assertEquals(3, p.stacks().size());
        CpuProfile.StackCount top = p.stacks().get(0);
        assertEquals(2, top.count());
        assertEquals(7, top.threadId());
        assertEquals(List.of("app!+0x40", "app!+0x30", "ntoskrnl!+0x20", "ntoskrnl!+0x10"), names(top));
        assertEquals(0, top.frames().get(3).image().processId(), "kernel address resolves among process 0's images");
        List<List<String>> rest = p.stacks().subList(1, 3).stream().map(TraceModelSyntheticTest::names).toList();
        assertEquals(true, rest.contains(List.of("app!+0x50")), rest.toString());
        assertEquals(true, rest.contains(List.of("app!+0x40", "0x1234")), rest.toString());

        StringBuilder folded = new StringBuilder();
        p.writeCollapsed(folded, false);
        assertEquals(true, folded.toString().contains("? (100);app!+0x40;app!+0x30;ntoskrnl!+0x20;ntoskrnl!+0x10 2\n"),
                folded.toString());
    }

    @Test
    void aStackThatComesAfterTheSampleStoppedWaitingStillBecomesTheSamplesStackInTheProfile() {
        image(3, 1, 100, APP_BASE, 0x10000, "\\Device\\HarddiskVolume2\\app\\app.exe");
        thread(3, 1, 100, 7);
        sample(10, 7, APP_BASE + 0x10);
        // More later samples of the same thread than the model keeps open (8), then the first sample's stack.
        for (int i = 0; i < 12; i++) {
            sample(20 + i, 7, APP_BASE + 0x99);
        }
        stack(40, 10, 100, 7, APP_BASE + 0x10, APP_BASE + 0x20);

        TraceModel m = model();
        CpuProfile p = m.cpuProfile();
        assertEquals(13, p.sampleCount());
        assertEquals(1, p.samplesWithStack());
        assertEquals(0, m.stacksOfOtherEvents(), "the late stack is the sample's, not another event's");
        List<List<String>> stacks = p.stacks().stream().map(TraceModelSyntheticTest::names).toList();
        assertEquals(List.of(List.of("app!+0x99"), List.of("app!+0x20", "app!+0x10")), stacks);
        assertEquals(List.of("app!+0x20", "app!+0x10"),
                m.stack(10, 7).frames().stream().map(StackFrame::name).toList(), "the event lookup agrees");
    }

    @Test
    void stackKeysResolveToTheDefinitionThatFollowsTheReference() {
        image(3, 1, 0, KERNEL_BASE, 0x100000, "\\SystemRoot\\system32\\ntoskrnl.exe");
        image(3, 1, 100, APP_BASE, 0x10000, "\\Device\\HarddiskVolume2\\app\\app.exe");
        thread(3, 1, 100, 7);
        long kKey = 0xFFFFFA80_00001000L;
        long uKey = 0xFFFFFA80_00002000L;
        sample(10, 7, KERNEL_BASE + 0x10);
        keyRef(37, 11, 10, 100, 7, kKey);
        keyRef(38, 11, 10, 100, 7, uKey);
        keyDef(35, 50, kKey, KERNEL_BASE + 0x10, KERNEL_BASE + 0x11); // deleted: stood for these until 50
        // The key is reused after its deletion for another stack.
        sample(60, 7, KERNEL_BASE + 0x99);
        keyRef(37, 61, 60, 100, 7, kKey);
        keyRef(38, 61, 60, 100, 7, uKey);
        keyDef(36, 90, kKey, KERNEL_BASE + 0x99); // rundown at the end
        keyDef(36, 90, uKey, APP_BASE + 0x1, APP_BASE + 0x2);

        CpuProfile p = model().cpuProfile();
        assertEquals(2, p.sampleCount());
        assertEquals(2, p.samplesWithStack());
        List<List<String>> stacks = p.stacks().stream().map(TraceModelSyntheticTest::names).toList();
        assertEquals(true, stacks.contains(List.of("app!+0x2", "app!+0x1", "ntoskrnl!+0x11", "ntoskrnl!+0x10")),
                stacks.toString());
        assertEquals(true, stacks.contains(List.of("app!+0x2", "app!+0x1", "ntoskrnl!+0x99")), stacks.toString());
    }

    @Test
    void imagesAndThreadsAreLookedUpByTime() {
        image(10, 5, 100, APP_BASE, 0x1000, "\\Device\\HarddiskVolume2\\a.dll");
        image(2, 20, 100, APP_BASE, 0x1000, "\\Device\\HarddiskVolume2\\a.dll");
        image(10, 30, 100, APP_BASE, 0x2000, "\\Device\\HarddiskVolume2\\b.dll");
        thread(1, 5, 100, 7);
        thread(2, 20, 100, 7);
        thread(1, 30, 200, 7); // thread id reused by another process
        TraceModel m = model();
        assertEquals("a", m.image(APP_BASE + 0x10, 100, 10, 8).moduleName());
        assertEquals("b", m.image(APP_BASE + 0x10, 100, 40, 8).moduleName());
        assertEquals("b", m.image(APP_BASE + 0x1800, 100, 10, 8).moduleName(), "only b.dll holds it (nearest in time)");
        assertNull(m.image(APP_BASE + 0x10, 101, 10, 8));
        assertEquals(100, m.thread(7, 10).processId());
        assertEquals(200, m.thread(7, 35).processId());
        assertEquals(20, m.thread(7, 10).stop());
        assertEquals(2, m.images().size(), "a.dll (loaded 5, unloaded 20) and b.dll (loaded 30)");
        assertEquals(20, m.images().get(0).unload());
    }
}
