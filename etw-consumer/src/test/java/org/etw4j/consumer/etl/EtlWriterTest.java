package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.UUID;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.consumer.internal.EtlLogFileSinkFactory;
import org.etw4j.consumer.testing.TestRecord;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.LogfileHeader;
import org.etw4j.format.WmiBufferLayout;
import org.etw4j.spi.LogFileSinkFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The standalone writer: per-processor buffers, encoding from EVENT_RECORDs, byte-exact copies, limits. */
class EtlWriterTest {
    static final long START = 133_500_000_000_000_000L;
    static final long BOOT = START - 36_000_000_000L;
    static final Guid P1 = Guid.of(new UUID(0x1111, 0x2222));
    static final Guid P2 = Guid.of(new UUID(0x3333, 0x4444));

    @TempDir
    Path dir;

    /** 400 events over 4 processors, times strictly increasing, a mix of sizes, items and bitness. */
    static List<TestRecord> sampleEvents() {
        List<TestRecord> out = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            TestRecord.Builder b = TestRecord.builder(i % 2 == 0 ? P1 : P2);
            if (i % 3 == 0) {
                b.ext(EventHeaderLayout.EXT_RELATED_ACTIVITYID, Guid.of(new UUID(i, 1)).toWindowsBytes());
            }
            if (i % 5 == 0) {
                b.ext(EventHeaderLayout.EXT_TS_ID, new byte[] {1, 0, 0, 0, 9}); // odd size on purpose
            }
            byte[] payload = new byte[i % 101];
            for (int k = 0; k < payload.length; k++) {
                payload[k] = (byte) (i + k);
            }
            EventDescriptor d = new EventDescriptor(i % 7, i % 2, 0x10, 1 + i % 5, i % 4, i % 9, 1L << (i % 6));
            out.add(b.descriptor(d).pid(100 + i % 3).tid(200 + i).timestamp(START + 1_000 + i * 997L).processor(i % 4)
                    .pointerSize(i % 10 == 0 ? 4 : 8).activity(Guid.of(new UUID(0, i))).cpuTimes(11, 22).data(payload)
                    .build());
        }
        return out;
    }

    static Path writeSample(Path file, List<TestRecord> events) throws Exception {
        LogfileHeader h = EtlWriter.newHeader("writer-test", file, 1024, START, BOOT);
        try (EtlWriter w = EtlWriter.create(file, h, EtlWriter.startRawOf(h))) {
            for (TestRecord e : events) {
                w.writeEvent(e);
            }
            assertEquals(events.size(), w.recordsWritten());
        }
        return file;
    }

    @Test
    void eventsComeBackExactlyFromPerProcessorBuffers() throws Exception {
        List<TestRecord> events = sampleEvents();
        Path file = writeSample(dir.resolve("w.etl"), events);
        byte[] bytes = Files.readAllBytes(file);
        try (EtlFile etl = EtlFile.open(file)) {
            assertEquals(0, etl.warningCount());
            assertEquals(1024, etl.header().bufferSize());
            assertEquals(etl.header().buffersWritten(), etl.bufferCount());
            assertEquals(etl.header().buffersWritten() * 1024, bytes.length);
            assertTrue(etl.header().buffersWritten() > 20, "1 KB buffers: many of them");
            assertArrayEquals(new int[] {0, 1, 2, 3}, etl.processorIndexes());
            assertEquals(Math.max(4, Runtime.getRuntime().availableProcessors()), etl.header().numberOfProcessors());
            assertEquals("writer-test", etl.header().sessionName());
            assertEquals(events.get(events.size() - 1).timestamp(), etl.header().endTime(), "EndTime = last record");
            EtlCursor c = etl.cursor();
            assertTrue(c.advance());
            assertEquals(HeaderKind.SYSTEM_TRACE_HEADER, c.record().kind(), "logfile header record first");
            for (TestRecord e : events) {
                assertTrue(c.advance());
                EtlRecordView v = c.record();
                assertEquals(HeaderKind.EVENT_HEADER, v.kind());
                assertEquals(e.providerId(), v.providerId());
                assertEquals(e.id(), v.eventId());
                assertEquals(e.version(), v.version());
                assertEquals(e.channel(), v.channel());
                assertEquals(e.level(), v.level());
                assertEquals(e.opcode(), v.opcode());
                assertEquals(e.task(), v.task());
                assertEquals(e.keyword(), v.keyword());
                assertEquals(e.processId(), v.processId());
                assertEquals(e.threadId(), v.threadId());
                assertEquals(e.timestamp(), v.timestampFileTime(), "QPC at 10 MHz: exact");
                assertEquals(e.processorIndex(), v.processorIndex());
                assertEquals(e.pointerSize(), v.pointerSize());
                assertEquals(e.activityId(), v.activityId());
                assertEquals(11, v.kernelTime());
                assertEquals(22, v.userTime());
                assertEquals(e.items().isEmpty() ? 0 : EventHeaderLayout.FLAG_EXTENDED_INFO, v.headerFlags());
                assertEquals(e.items().size(), v.extendedDataCount());
                for (int k = 0; k < e.items().size(); k++) {
                    assertEquals(e.items().get(k).type(), v.extendedDataType(k));
                    assertArrayEquals(e.items().get(k).data(), bytesOf(v.extendedData(k)));
                }
                assertArrayEquals(e.payload(), bytesOf(v.userData()));
            }
            assertFalse(c.advance());
            assertEquals(0, c.outOfOrderCount());
        }
        // Buffer headers as the recipe says (etw-formats.md 3.8 steps 2-3).
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x21, b.getShort(WmiBufferLayout.BUFFER_FLAG));
        assertEquals(WmiBufferLayout.TYPE_HEADER, b.getShort(WmiBufferLayout.BUFFER_TYPE));
        assertEquals(0L, b.getLong(WmiBufferLayout.TIMESTAMP));
        assertEquals(0L, b.getLong(WmiBufferLayout.SEQUENCE_NUMBER));
        long lastSeq = 0;
        for (int at = 1024; at < bytes.length; at += 1024) {
            assertEquals(1024, b.getInt(at + WmiBufferLayout.BUFFER_SIZE));
            assertEquals(WmiBufferLayout.FLAG_PROC_INDEX, b.getShort(at + WmiBufferLayout.BUFFER_FLAG));
            assertEquals(WmiBufferLayout.TYPE_GENERIC, b.getShort(at + WmiBufferLayout.BUFFER_TYPE));
            assertEquals(WmiBufferLayout.STATE_FLUSH, b.getInt(at + WmiBufferLayout.STATE));
            int saved = b.getInt(at + WmiBufferLayout.SAVED_OFFSET);
            assertEquals(saved, b.getInt(at + WmiBufferLayout.OFFSET));
            assertEquals(0, saved % 8, "records 8-aligned");
            for (int i = saved; i < 1024; i++) {
                assertEquals((byte) 0xFF, bytes[at + i]);
            }
            long seq = b.getLong(at + WmiBufferLayout.SEQUENCE_NUMBER);
            assertEquals(lastSeq + 1, seq, "sequence numbers follow file order");
            lastSeq = seq;
            // TimeStamp = last record's timestamp: walk the records.
            long lastTs = 0;
            for (int p = WmiBufferLayout.HEADER_SIZE; p < saved; p += WmiBufferLayout.align(b.getShort(at + p) & 0xFFFF)) {
                lastTs = b.getLong(at + p + EventHeaderLayout.TIMESTAMP);
            }
            assertEquals(lastTs, b.getLong(at + WmiBufferLayout.TIMESTAMP));
        }
    }

    @Test
    void writeRecordCopiesBytesAndRetimesOnlyTheTimestamp() throws Exception {
        Path first = writeSample(dir.resolve("a.etl"), sampleEvents());
        Path copy = dir.resolve("b.etl");
        Path shifted = dir.resolve("c.etl");
        List<byte[]> original = new ArrayList<>();
        try (EtlFile in = EtlFile.open(first)) {
            LogfileHeader h = EtlWriter.newHeader("copy", copy, 1024, START, BOOT);
            try (EtlWriter same = EtlWriter.create(copy, h, EtlWriter.startRawOf(h));
                 EtlWriter moved = EtlWriter.create(shifted, h, EtlWriter.startRawOf(h))) {
                EtlCursor c = in.cursor();
                while (c.advance()) {
                    EtlRecordView v = c.record();
                    if (v.kind() != HeaderKind.EVENT_HEADER) {
                        continue;
                    }
                    original.add(bytesOf(v.recordBytes()));
                    same.writeRecord(v.recordBytes(), 0, v.processorIndex());
                    moved.writeRecord(v.recordBytes(), 0, v.processorIndex(), v.timestamp() + 5);
                }
            }
        }
        assertEquals(400, original.size());
        assertEquals(original.size(), readRecords(copy, false).size());
        List<byte[]> copied = readRecords(copy, false);
        List<byte[]> moved = readRecords(shifted, false);
        for (int i = 0; i < original.size(); i++) {
            assertArrayEquals(original.get(i), copied.get(i), "byte-exact copy #" + i);
            byte[] expected = original.get(i).clone();
            ByteBuffer.wrap(expected).order(ByteOrder.LITTLE_ENDIAN).putLong(EventHeaderLayout.TIMESTAMP,
                    ByteBuffer.wrap(expected).order(ByteOrder.LITTLE_ENDIAN).getLong(EventHeaderLayout.TIMESTAMP) + 5);
            assertArrayEquals(expected, moved.get(i), "only the timestamp changed #" + i);
        }
    }

    static List<byte[]> readRecords(Path file, boolean withHeader) throws Exception {
        List<byte[]> out = new ArrayList<>();
        try (EtlFile f = EtlFile.open(file)) {
            assertEquals(0, f.warningCount());
            EtlCursor c = f.cursor();
            while (c.advance()) {
                if (withHeader || c.record().kind() == HeaderKind.EVENT_HEADER) {
                    out.add(bytesOf(c.record().recordBytes()));
                }
            }
        }
        return out;
    }

    @Test
    void refusesWhatItCannotWriteAndStaysUsable() throws Exception {
        Path file = dir.resolve("limits.etl");
        LogfileHeader h = EtlWriter.newHeader("limits", file, 1024, START, BOOT);
        assertThrows(IllegalArgumentException.class, () -> EtlWriter.create(dir.resolve("x.etl"),
                EtlWriter.newHeader("x", file, 1000, START, BOOT), 0), "buffer size not a multiple of 1 KiB");
        assertThrows(IllegalArgumentException.class, () -> EtlWriter.create(dir.resolve("y.etl"),
                EtlWriter.newHeader("y".repeat(400), file, 1024, START, BOOT), 0), "names do not fit buffer 0");
        EventDescriptor d = new EventDescriptor(1, 0, 0, 4, 0, 0, 0);
        TestRecord big = TestRecord.builder(P1).descriptor(d).pid(1).tid(2).timestamp(START + 10).data(new byte[1000])
                .build();
        TestRecord badCpu = TestRecord.builder(P1).descriptor(d).pid(1).tid(2).timestamp(START + 10).processor(2048)
                .data(new byte[4]).build();
        TestRecord ok = TestRecord.builder(P1).descriptor(d).pid(1).tid(2).timestamp(START + 10).data(new byte[4])
                .build();
        EtlWriter w = EtlWriter.create(file, h, EtlWriter.startRawOf(h));
        assertThrows(IllegalArgumentException.class, () -> w.writeEvent(big), "a record larger than a buffer");
        assertThrows(IllegalArgumentException.class, () -> w.writeEvent(badCpu), "processor index past 0x7FF");
        assertThrows(IllegalArgumentException.class, () -> w.writeRecord(ByteBuffer.allocate(16), 0, 0), "not a record");
        assertThrows(IllegalArgumentException.class, () -> w.writeBuffer(ByteBuffer.allocate(512)), "wrong buffer size");
        w.writeEvent(ok);
        w.close();
        w.close();
        assertThrows(IllegalStateException.class, () -> w.writeEvent(ok));
        assertEquals(1, readRecords(file, false).size());
        assertEquals(2 * 1024, Files.size(file));
    }

    @Test
    void registeredWithServiceLoader() {
        List<Class<?>> found = new ArrayList<>();
        for (LogFileSinkFactory f : ServiceLoader.load(LogFileSinkFactory.class)) {
            found.add(f.getClass());
        }
        assertTrue(found.contains(EtlLogFileSinkFactory.class), "found: " + found);
    }

    static byte[] bytesOf(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(b.position(), out);
        return out;
    }
}
