package org.etw4j.consumer.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.internal.decode.KernelSchemas;
import org.etw4j.consumer.testing.TestRecord;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.RawEventRecord;
import org.junit.jupiter.api.Test;

/**
 * Stacks of any event, on hand-built records: EVENT_HEADER stack extended items of every shape (STACK_TRACE32/64,
 * STACK_KEY32/64; MatchId 0 = kernel and user parts together, else the user-mode part in a later item with the same
 * MatchId, on the EventTrace provider's user-mode stack event 18/24) and kernel StackWalk events naming events that
 * are not CPU samples. Layouts: evntcons.h (Windows SDK; MS Learn "EVENT_EXTENDED_ITEM_STACK_TRACE32/64 structure",
 * "EVENT_EXTENDED_ITEM_STACK_KEY32/64 structure"): u64 MatchId, then u32/u64 addresses leaf first, or the u32 key
 * plus u32 padding / the u64 key.
 */
class TraceModelEventStackTest {

    private static final long KERNEL_BASE = 0xFFFFF800_00000000L;
    private static final long APP_BASE = 0x7FF6_0000_0000L;
    /** A 32-bit kernel (system space from 0x80000000) and a 32-bit executable (WOW64 or a 32-bit system). */
    private static final long KERNEL32_BASE = 0x8200_0000L;
    private static final long APP32_BASE = 0x0040_0000L;
    private static final Guid PROVIDER = Guid.parse("0e3f1c7a-5b2d-4c6e-9f80-112233445566");
    private static final Guid EVENT_TRACE = Guid.parse("68fdd900-4a3e-11d1-84f4-0000f80464e3");

    private final List<RawEventRecord> records = new ArrayList<>();

    private static ByteBuffer buf(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private void classic(Guid provider, int opcode, long time, int pid, int tid, byte[] payload) {
        records.add(TestRecord.builder(provider).classic().version(2).opcode(opcode).timestamp(time).pid(pid)
                .tid(tid).data(payload).build());
    }

    private void image(long time, int pid, long base, long size, String path) {
        byte[] name = (path + "\0").getBytes(StandardCharsets.UTF_16LE);
        ByteBuffer b = buf(8 + 8 + 4 * 4 + 8 + 4 * 4 + name.length);
        b.putLong(base).putLong(size).putInt(pid).putInt(0).putInt(0).putInt(0).putLong(base)
                .putInt(0).putInt(0).putInt(0).putInt(0).put(name);
        classic(KernelSchemas.IMAGE, 3, time, -1, -1, b.array());
    }

    private void images() {
        image(1, 0, KERNEL_BASE, 0x100000, "\\SystemRoot\\system32\\ntoskrnl.exe");
        image(1, 100, APP_BASE, 0x10000, "\\Device\\HarddiskVolume2\\app\\app.exe");
        image(1, 0, KERNEL32_BASE, 0x100000, "\\SystemRoot\\system32\\ntkrnlpa.exe");
        image(1, 200, APP32_BASE, 0x10000, "\\Device\\HarddiskVolume2\\app\\app32.exe");
    }

    private static byte[] trace64(long matchId, long... leafFirst) {
        ByteBuffer b = buf(8 + 8 * leafFirst.length).putLong(matchId);
        for (long a : leafFirst) {
            b.putLong(a);
        }
        return b.array();
    }

    private static byte[] trace32(long matchId, long... leafFirst) {
        ByteBuffer b = buf(8 + 4 * leafFirst.length).putLong(matchId);
        for (long a : leafFirst) {
            b.putInt((int) a);
        }
        return b.array();
    }

    private static byte[] key64(long matchId, long key) {
        return buf(16).putLong(matchId).putLong(key).array();
    }

    private static byte[] key32(long matchId, int key) {
        return buf(16).putLong(matchId).putInt(key).putInt(0).array();
    }

    /** An EVENT_HEADER event of {@code provider} with one extended item; returns it for the lookup. */
    private RawEventRecord event(Guid provider, int id, int opcode, long time, int pid, int tid, int ptr, int type,
                                 byte[] item) {
        RawEventRecord r = TestRecord.builder(provider).id(id).opcode(opcode).timestamp(time).pid(pid).tid(tid)
                .pointerSize(ptr).ext(type, item).build();
        records.add(r);
        return r;
    }

    private RawEventRecord event(long time, int pid, int tid, int type, byte[] item) {
        return event(PROVIDER, 1, 0, time, pid, tid, 8, type, item);
    }

    private RawEventRecord userModeStack(long time, int pid, int tid, int type, byte[] item) {
        return event(EVENT_TRACE, 18, 24, time, pid, tid, 8, type, item);
    }

    private void keyDefinition(long time, long key, long... leafFirst) {
        ByteBuffer b = buf(8 + 8 * leafFirst.length).putLong(key);
        for (long f : leafFirst) {
            b.putLong(f);
        }
        classic(KernelSchemas.STACK_WALK, 36, time, -1, -1, b.array());
    }

    private void stackWalk(long time, long eventTime, int pid, int tid, long... leafFirst) {
        ByteBuffer b = buf(16 + 8 * leafFirst.length).putLong(eventTime).putInt(pid).putInt(tid);
        for (long f : leafFirst) {
            b.putLong(f);
        }
        classic(KernelSchemas.STACK_WALK, 32, time, -1, -1, b.array());
    }

    private TraceModel model() {
        return TraceModel.read(each -> records.forEach(each));
    }

    private static List<String> names(EventStack s) {
        return s.frames().stream().map(StackFrame::name).toList();
    }

    @Test
    void stackTrace64WithKernelAndUserPartsIsTheStackOfItsEvent() {
        images();
        RawEventRecord e = event(10, 100, 7, EventHeaderLayout.EXT_STACK_TRACE64,
                trace64(0, KERNEL_BASE + 0x10, KERNEL_BASE + 0x20, APP_BASE + 0x30, APP_BASE + 0x40));
        RawEventRecord none = event(PROVIDER, 2, 0, 11, 100, 7, 8, EventHeaderLayout.EXT_TS_ID, buf(4).putInt(1).array());
        TraceModel m = model();
        EventStack s = m.stack(e);
        assertNotNull(s);
        assertEquals(List.of("app!+0x40", "app!+0x30", "ntoskrnl!+0x20", "ntoskrnl!+0x10"), names(s));
        assertEquals(100, s.processId());
        assertEquals(7, s.threadId());
        assertEquals(10, s.rawTimestamp());
        assertTrue(s.complete());
        assertEquals(0, s.frames().get(3).image().processId(), "kernel frame among process 0's images");
        assertEquals(100, s.frames().get(0).image().processId());
        assertNull(m.stack(none), "an event without a stack item");
        assertEquals(s, m.stack(10, 7));
        assertNull(m.stack(10, 8), "another thread");
        assertEquals(0, m.cpuProfile().sampleCount(), "not a CPU sample");
        assertEquals(1, m.stackedEvents());
    }

    @Test
    void stackTrace32AddressesAre32BitWhateverTheRecordsPointerSize() {
        images();
        // 32-bit addresses; the record claims 8-byte pointers: the item type decides the width.
        RawEventRecord e = event(PROVIDER, 1, 0, 10, 200, 9, 8, EventHeaderLayout.EXT_STACK_TRACE32,
                trace32(0, KERNEL32_BASE + 0x44, APP32_BASE + 0x1234, APP32_BASE + 0x10));
        // And a 64-bit stack in an event whose record is 32-bit (a WOW64 process's event with a 64-bit stack).
        RawEventRecord wow = event(PROVIDER, 1, 0, 20, 100, 7, 4, EventHeaderLayout.EXT_STACK_TRACE64,
                trace64(0, KERNEL_BASE + 0x8, APP_BASE + 0x9));
        TraceModel m = model();
        EventStack s = m.stack(e);
        assertEquals(List.of("app32!+0x10", "app32!+0x1234", "ntkrnlpa!+0x44"), names(s));
        assertEquals(0, s.frames().get(2).image().processId(), "0x82000044 is system space for a 32-bit address");
        assertEquals(List.of("app!+0x9", "ntoskrnl!+0x8"), names(m.stack(wow)));
    }

    @Test
    void aKernelPartWithMatchIdTakesTheUserPartWithTheSameMatchIdFromTheUserModeStackEvent() {
        images();
        RawEventRecord kernel = event(10, 100, 7, EventHeaderLayout.EXT_STACK_TRACE64,
                trace64(0x55, KERNEL_BASE + 0x10, KERNEL_BASE + 0x20));
        // Another event of the thread in between, with its own whole stack: does not complete the first.
        RawEventRecord between = event(11, 100, 7, EventHeaderLayout.EXT_STACK_TRACE64,
                trace64(0, KERNEL_BASE + 0x77, APP_BASE + 0x77));
        // A kernel part of another thread with the same MatchId value: not completed by thread 7's user part.
        RawEventRecord other = event(12, 100, 8, EventHeaderLayout.EXT_STACK_TRACE64,
                trace64(0x55, KERNEL_BASE + 0x99));
        RawEventRecord user = userModeStack(13, 100, 7, EventHeaderLayout.EXT_STACK_TRACE64,
                trace64(0x55, APP_BASE + 0x30, APP_BASE + 0x40));
        TraceModel m = model();
        EventStack s = m.stack(kernel);
        assertEquals(List.of("app!+0x40", "app!+0x30", "ntoskrnl!+0x20", "ntoskrnl!+0x10"), names(s));
        assertTrue(s.complete());
        assertEquals(List.of("app!+0x77", "ntoskrnl!+0x77"), names(m.stack(between)));
        assertNull(m.stack(user), "the user-mode stack event is bookkeeping, not an event with a stack");
        EventStack o = m.stack(other);
        assertEquals(List.of("ntoskrnl!+0x99"), names(o));
        assertFalse(o.complete(), "its user-mode part never came");
        assertEquals(3, m.stackedEvents());
    }

    @Test
    void aUserModeStackEventWithoutMatchIdCompletesEveryKernelPartWaitingOnItsThread() {
        images();
        RawEventRecord a = event(10, 100, 7, EventHeaderLayout.EXT_STACK_TRACE64, trace64(0x1, KERNEL_BASE + 0x1));
        RawEventRecord b = event(11, 100, 7, EventHeaderLayout.EXT_STACK_TRACE64, trace64(0x2, KERNEL_BASE + 0x2));
        userModeStack(12, 100, 7, EventHeaderLayout.EXT_STACK_TRACE64, trace64(0, APP_BASE + 0x5));
        TraceModel m = model();
        assertEquals(List.of("app!+0x5", "ntoskrnl!+0x1"), names(m.stack(a)));
        assertEquals(List.of("app!+0x5", "ntoskrnl!+0x2"), names(m.stack(b)));
        assertTrue(m.stack(a).complete() && m.stack(b).complete());
    }

    @Test
    void stackKeyItemsResolveThroughTheStackWalkKeyDefinitions() {
        images();
        long k64 = 0xFFFFFA80_00001000L;
        int k32 = 0x8A00_2000;
        RawEventRecord e64 = event(10, 100, 7, EventHeaderLayout.EXT_STACK_KEY64, key64(0, k64));
        RawEventRecord e32 = event(PROVIDER, 1, 0, 11, 200, 9, 4, EventHeaderLayout.EXT_STACK_KEY32, key32(0, k32));
        RawEventRecord unknown = event(12, 100, 7, EventHeaderLayout.EXT_STACK_KEY64, key64(0, 0x1234));
        // A kernel key with a MatchId, the user part as a full stack on the user-mode stack event.
        RawEventRecord split = event(13, 100, 8, EventHeaderLayout.EXT_STACK_KEY64, key64(0x9, k64));
        userModeStack(14, 100, 8, EventHeaderLayout.EXT_STACK_TRACE64, trace64(0x9, APP_BASE + 0x3));
        keyDefinition(90, k64, KERNEL_BASE + 0x10, APP_BASE + 0x20);
        keyDefinition(90, k32 & 0xFFFF_FFFFL, KERNEL32_BASE + 0x4, APP32_BASE + 0x8);
        TraceModel m = model();
        assertEquals(List.of("app!+0x20", "ntoskrnl!+0x10"), names(m.stack(e64)));
        assertTrue(m.stack(e64).complete());
        assertEquals(List.of("app32!+0x8", "ntkrnlpa!+0x4"), names(m.stack(e32)));
        EventStack u = m.stack(unknown);
        assertEquals(List.of(StackFrame.UNKNOWN_KEY), names(u));
        assertFalse(u.complete(), "a key the trace never defined");
        assertEquals(List.of("app!+0x3", "app!+0x20", "ntoskrnl!+0x10"), names(m.stack(split)));
    }

    @Test
    void stackWalkEventsGiveTheStacksOfEventsOtherThanCpuSamplesAlsoWhenTheUserPartComesLate() {
        images();
        Guid fileIo = KernelSchemas.FILE_IO;
        classic(fileIo, 64, 40, 100, 8, new byte[8]);
        RawEventRecord io = records.get(records.size() - 1);
        stackWalk(41, 40, 100, 8, KERNEL_BASE + 0x10, KERNEL_BASE + 0x20);
        classic(fileIo, 64, 42, 100, 8, new byte[8]);
        RawEventRecord io2 = records.get(records.size() - 1);
        stackWalk(43, 42, 100, 8, KERNEL_BASE + 0x30);
        stackWalk(44, 40, 100, 8, APP_BASE + 0x1, APP_BASE + 0x2); // the first event's user part, late
        TraceModel m = model();
        assertEquals(List.of("app!+0x2", "app!+0x1", "ntoskrnl!+0x20", "ntoskrnl!+0x10"), names(m.stack(io)));
        assertEquals(List.of("ntoskrnl!+0x30"), names(m.stack(io2)));
        assertEquals(2, m.stacksOfOtherEvents());
        assertEquals(0, m.cpuProfile().sampleCount());
    }

    @Test
    void aCpuSamplesStackIsFoundByItsRecordThroughThePayloadsThread() {
        images();
        ByteBuffer t = buf(8 + 7 * 8 + 4).putInt(100).putInt(7);
        classic(KernelSchemas.THREAD, 3, 1, -1, -1, t.array());
        classic(KernelSchemas.PERF_INFO, 46, 10, -1, -1, buf(16).putLong(KERNEL_BASE + 0x10).putInt(7)
                .putShort((short) 1).array());
        RawEventRecord sample = records.get(records.size() - 1);
        stackWalk(11, 10, 100, 7, KERNEL_BASE + 0x10, APP_BASE + 0x40);
        TraceModel m = model();
        assertEquals(List.of("app!+0x40", "ntoskrnl!+0x10"), names(m.stack(sample)));
        assertEquals(1, m.cpuProfile().samplesWithStack());
        assertEquals(0, m.stacksOfOtherEvents());
    }

    @Test
    void anItemTooShortForItsMatchIdAndOneAddressIsCountedNotUsed() {
        images();
        RawEventRecord e = event(10, 100, 7, EventHeaderLayout.EXT_STACK_TRACE64, buf(8).putLong(0).array());
        RawEventRecord k = event(11, 100, 7, EventHeaderLayout.EXT_STACK_KEY32, buf(10).array());
        TraceModel m = model();
        assertNull(m.stack(e));
        assertNull(m.stack(k));
        assertEquals(2, m.stackItemWarnings());
    }
}
