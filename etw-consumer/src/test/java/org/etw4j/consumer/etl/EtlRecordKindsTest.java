package org.etw4j.consumer.etl;

import static org.etw4j.consumer.etl.EtlBuilder.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.etw4j.Guid;
import org.etw4j.controller.ClockType;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.format.LogfileHeaderLayout;
import org.etw4j.format.TraceHeaderTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every record header kind, read from synthetic files built byte by byte from the documented layouts
 * (the corpus has no compact, instance or message records): field by field, in both orders, plain and
 * compressed, 64- and 32-bit logfile headers, all clock types.
 */
class EtlRecordKindsTest {
    @TempDir
    Path tmp;

    static final Guid CLASSIC = Guid.parse("b3e675d7-2554-4f18-830b-2762732560de");
    static final Guid INSTANCE = Guid.parse("11111111-2222-3333-4444-555555555555");
    static final Guid PARENT = Guid.parse("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee");
    static final Guid PROVIDER = Guid.parse("0cd1c309-0878-4515-83db-749843b3f5c9");
    static final Guid ACTIVITY = Guid.parse("01020304-0506-0708-090a-0b0c0d0e0f10");
    static final Guid RELATED = Guid.parse("10101010-2020-3030-4040-505050505050");
    static final Guid WPP = Guid.parse("6f669bfa-816a-4204-a824-47c8e6a00474");
    static final long T0 = 1_000_000L;

    /** One record of each kind, spread over two processors with interleaved timestamps. */
    static EtlBuilder allKinds(boolean compressed) {
        EtlBuilder b = new EtlBuilder();
        if (compressed) {
            b.compress = true;
            b.logFileMode |= LogfileHeaderLayout.MODE_COMPRESSED;
        }
        // Processor 0: kernel records (T0+10, +30, +50) and a classic one (+70).
        b.add(0, EtlBuilder.system(TraceHeaderTypes.SYSTEM64, 0x0203, 5, 3, 100, 200, T0 + 10, 11, 12,
                bytes(1, 2, 3, 4, 5)));
        b.add(0, EtlBuilder.compact(TraceHeaderTypes.COMPACT64, 3, 10, 101, 201, T0 + 30, bytes(9, 9)));
        b.add(0, EtlBuilder.perfinfo(TraceHeaderTypes.PERFINFO64, 0x8002, 0x0F, 0x2E, T0 + 50, bytes(7, 7, 7, 7)));
        b.add(0, EtlBuilder.classic(TraceHeaderTypes.FULL_HEADER32, 0x24, 4, 2, 102, 202, T0 + 70, CLASSIC, 13, 14,
                bytes(0xC1, 0xC2)));
        // Processor 1: instance (+20), event with extended data (+40), two messages (+60, no timestamp).
        b.add(1, EtlBuilder.instance(TraceHeaderTypes.INSTANCE64, 0x01, 103, 203, T0 + 20, INSTANCE, 42, 41, PARENT,
                bytes(0xD1)));
        byte[] related = RELATED.toWindowsBytes();
        b.add(1, EtlBuilder.event(TraceHeaderTypes.EVENT_HEADER64, 104, 204, T0 + 40, PROVIDER, 513, 3, 11, 5, 1, 77,
                0x8000_0000_0000_0001L, 15, 16, ACTIVITY,
                List.of(new EtlBuilder.Ext(EventHeaderLayout.EXT_PROV_TRAITS,
                                EtlBuilder.providerTraits("Microsoft.Windows.Subsystem.LxCore")),
                        new EtlBuilder.Ext(EventHeaderLayout.EXT_RELATED_ACTIVITYID, related)),
                bytes(0xE1, 0xE2, 0xE3)));
        b.add(1, EtlBuilder.message(0x01 | 0x02 | 0x08 | 0x20 | 0x40, 12, 99, WPP, 0, T0 + 60, 105, 205, bytes(0xF1)));
        b.add(1, EtlBuilder.message(0x04, 13, 0, null, 0x4321, 0, 0, 0, bytes(0xF2, 0xF3)));
        return b;
    }

    private Path write(EtlBuilder b) throws IOException {
        Path p = Files.createTempFile(tmp, "synthetic", ".etl");
        Files.write(p, b.build());
        return p;
    }

    private static List<EtlRecord> read(EtlFile f, EtlOrder order) {
        List<EtlRecord> out = new ArrayList<>();
        EtlCursor c = f.cursor(order);
        while (c.advance()) {
            out.add(c.record().copy());
        }
        return out;
    }

    @ParameterizedTest(name = "compressed={0}")
    @ValueSource(booleans = {false, true})
    void readsEveryHeaderKindFieldByField(boolean compressed) throws IOException {
        try (EtlFile f = EtlFile.open(write(allKinds(compressed)), EtlReadOptions.strictMode())) {
            assertEquals(compressed, f.compressedMode());
            EtlCursor c = f.cursor();
            // 1. logfile header record (T0)
            assertTrue(c.advance());
            EtlRecordView r = c.record();
            assertEquals(HeaderKind.SYSTEM_TRACE_HEADER, r.kind());
            assertEquals(0, r.hookId());
            assertEquals(Guid.parse("68fdd900-4a3e-11d1-84f4-0000f80464e3"), r.providerId());
            assertEquals(f.header().startTime(), r.timestampFileTime());
            assertEquals(0, r.bufferIndex());
            // 2. full SYSTEM with 2 PMC counters (T0+10)
            assertTrue(c.advance());
            assertSame(r, c.record(), "one flyweight per cursor");
            assertEquals(HeaderKind.SYSTEM_TRACE_HEADER, r.kind());
            assertEquals(TraceHeaderTypes.SYSTEM64, r.headerType());
            assertFalse(r.isCompactSystemHeader());
            assertEquals(8, r.pointerSize());
            assertEquals(0x0503, r.hookId());
            assertEquals(5, r.group());
            assertEquals(3, r.opcode());
            assertEquals(3, r.version());
            assertEquals(Guid.parse("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c"), r.providerId(), "Thread group");
            assertEquals(100, r.threadId());
            assertEquals(200, r.processId());
            assertEquals(11, r.kernelTime());
            assertEquals(12, r.userTime());
            assertEquals(T0 + 10, r.timestamp());
            assertEquals(f.header().startTime() + 10, r.timestampFileTime());
            assertEquals(0, r.processorIndex());
            assertEquals(0x20 + 16, r.userDataOffsetInRecord(), "PMC counters are header, not payload");
            assertBytes(bytes(1, 2, 3, 4, 5), r.userData());
            assertEquals(ByteOrder.LITTLE_ENDIAN, r.userData().order());
            assertTrue(r.userData().isReadOnly());
            // 3. instance header (T0+20, processor 1)
            assertTrue(c.advance());
            assertEquals(HeaderKind.EVENT_INSTANCE_GUID_HEADER, r.kind());
            assertEquals(1, r.processorIndex());
            assertEquals(INSTANCE, r.providerId());
            assertEquals(42, r.instanceId());
            assertEquals(41, r.parentInstanceId());
            assertEquals(PARENT, r.parentGuid());
            assertEquals(1, r.opcode());
            assertEquals(4, r.level());
            assertEquals(103, r.threadId());
            assertBytes(bytes(0xD1), r.userData());
            // 4. compact SYSTEM, Process group type 10 = image load (T0+30)
            assertTrue(c.advance());
            assertEquals(HeaderKind.SYSTEM_TRACE_HEADER, r.kind());
            assertTrue(r.isCompactSystemHeader());
            assertEquals(Guid.parse("2cb15d1d-5fc1-11d2-abe1-00a0c911f518"), r.providerId(), "group 3 type 10 -> ImageLoad");
            assertEquals(0, r.kernelTime());
            assertEquals(201, r.processId());
            assertBytes(bytes(9, 9), r.userData());
            // 5. EVENT_HEADER with two extended items (T0+40)
            assertTrue(c.advance());
            assertEquals(HeaderKind.EVENT_HEADER, r.kind());
            assertEquals(PROVIDER, r.providerId());
            assertEquals(PROVIDER.mostSignificantBits(), r.providerIdMostSignificantBits());
            assertEquals(PROVIDER.leastSignificantBits(), r.providerIdLeastSignificantBits());
            assertEquals(513, r.eventId());
            assertEquals(3, r.version());
            assertEquals(11, r.channel());
            assertEquals(5, r.level());
            assertEquals(1, r.opcode());
            assertEquals(77, r.task());
            assertEquals(0x8000_0000_0000_0001L, r.keyword());
            assertEquals(15, r.kernelTime());
            assertEquals(16, r.userTime());
            assertEquals(ACTIVITY, r.activityId());
            assertEquals(EventHeaderLayout.FLAG_EXTENDED_INFO, r.headerFlags());
            assertEquals(0x8, r.eventProperty());
            assertEquals(2, r.extendedDataCount());
            assertEquals(EventHeaderLayout.EXT_PROV_TRAITS, r.extendedDataType(0));
            assertEquals(EventHeaderLayout.EXT_RELATED_ACTIVITYID, r.extendedDataType(1));
            assertEquals(16, r.extendedDataSize(1));
            assertEquals(RELATED, Guid.readFrom(r.extendedData(1), 0));
            assertEquals(1, r.findExtendedData(EventHeaderLayout.EXT_RELATED_ACTIVITYID));
            assertEquals(-1, r.findExtendedData(EventHeaderLayout.EXT_SID));
            assertEquals("Microsoft.Windows.Subsystem.LxCore", EtlSummary.traceLoggingProviderName(r));
            assertThrows(IndexOutOfBoundsException.class, () -> r.extendedDataType(2));
            assertBytes(bytes(0xE1, 0xE2, 0xE3), r.userData());
            assertEquals(r.size(), r.recordBytes().remaining());
            // 6. PERFINFO with PEBS index (T0+50)
            assertTrue(c.advance());
            assertEquals(HeaderKind.PERFINFO_TRACE_HEADER, r.kind());
            assertEquals(Guid.parse("ce1dbfb4-137e-4da6-87b0-3f59aa102cbc"), r.providerId(), "PerfInfo group");
            assertEquals(0x0F2E, r.hookId());
            assertEquals(-1, r.processId());
            assertEquals(-1, r.threadId());
            assertEquals(0x10 + 8, r.userDataOffsetInRecord());
            assertBytes(bytes(7, 7, 7, 7), r.userData());
            // 7. message with sequence, GUID, timestamp, system info, 32-bit pointers (T0+60)
            assertTrue(c.advance());
            assertEquals(HeaderKind.MESSAGE_TRACE_HEADER, r.kind());
            assertEquals(TraceHeaderTypes.MESSAGE, r.headerType());
            assertEquals(0x90, r.markerFlags());
            assertEquals(WPP, r.providerId());
            assertEquals(12, r.eventId());
            assertEquals(99, r.messageSequence());
            assertEquals(105, r.threadId());
            assertEquals(205, r.processId());
            assertEquals(4, r.pointerSize());
            assertEquals(T0 + 60, r.timestamp());
            assertBytes(bytes(0xF1), r.userData());
            // 8. message with a component id and no timestamp: keeps the previous time of its processor
            assertTrue(c.advance());
            assertEquals(HeaderKind.MESSAGE_TRACE_HEADER, r.kind());
            assertEquals(Guid.NULL, r.providerId());
            assertEquals(0x4321, r.messageComponentId());
            assertEquals(-1, r.messageSequence());
            assertEquals(-1, r.processId());
            assertEquals(T0 + 60, r.timestamp());
            assertBytes(bytes(0xF2, 0xF3), r.userData());
            // 9. classic EVENT_TRACE_HEADER, 32-bit (T0+70)
            assertTrue(c.advance());
            assertEquals(HeaderKind.EVENT_TRACE_HEADER, r.kind());
            assertEquals(4, r.pointerSize());
            assertEquals(CLASSIC, r.providerId());
            assertEquals(0x24, r.opcode());
            assertEquals(4, r.level());
            assertEquals(2, r.version());
            assertEquals(13, r.kernelTime());
            assertEquals(14, r.userTime());
            assertEquals(Guid.NULL, r.activityId());
            assertEquals(0, r.extendedDataCount());
            assertBytes(bytes(0xC1, 0xC2), r.userData());
            assertEquals(compressed ? -1 : r.bufferFileOffset() + r.offsetInBuffer(), r.fileOffset());
            assertEquals(compressed, r.inCompressedBuffer());

            assertFalse(c.advance());
            assertThrows(IllegalStateException.class, c::record);
            assertEquals(0, c.outOfOrderCount());
            assertEquals(0, f.warningCount());
        }
    }

    @Test
    void compressedAndPlainFilesReadTheSame() throws IOException {
        try (EtlFile plain = EtlFile.open(write(allKinds(false)));
                EtlFile packed = EtlFile.open(write(allKinds(true)))) {
            for (EtlOrder order : EtlOrder.values()) {
                List<EtlRecord> a = read(plain, order);
                List<EtlRecord> b = read(packed, order);
                assertEquals(a.size(), b.size());
                // Record 0 is the logfile header, whose LogFileMode differs; the rest must be identical.
                for (int i = 1; i < a.size(); i++) {
                    assertEquals(a.get(i).providerId(), b.get(i).providerId());
                    assertEquals(a.get(i).timestamp(), b.get(i).timestamp());
                    assertEquals(a.get(i).extendedData(), b.get(i).extendedData());
                    assertArrayEquals(a.get(i).userData(), b.get(i).userData());
                }
            }
        }
    }

    @Test
    void fileOrderKeepsBufferOrderAndTimeOrderMerges() throws IOException {
        try (EtlFile f = EtlFile.open(write(allKinds(false)))) {
            List<Long> file = read(f, EtlOrder.FILE).stream().map(EtlRecord::timestamp).toList();
            List<Long> time = read(f, EtlOrder.TIME).stream().map(EtlRecord::timestamp).toList();
            assertEquals(List.of(T0, T0 + 10, T0 + 30, T0 + 50, T0 + 70, T0 + 20, T0 + 40, T0 + 60, T0 + 60), file);
            assertEquals(List.of(T0, T0 + 10, T0 + 20, T0 + 30, T0 + 40, T0 + 50, T0 + 60, T0 + 60, T0 + 70), time);
            EtlCursor c = f.cursor(EtlOrder.FILE);
            c.forEachRemaining(r -> { });
            assertEquals(1, c.outOfOrderCount(), "file order goes back in time once (processor 1's buffer)");
        }
    }

    @Test
    void processorBuffersAreMergedAcrossManyBuffers() throws IOException {
        EtlBuilder b = new EtlBuilder();
        b.bufferSize = 0x200;
        // Three processors, each with records every 3 ticks, offset by one: about 8 records per buffer.
        for (int i = 0; i < 300; i++) {
            int cpu = i % 3;
            b.add(cpu, EtlBuilder.perfinfo(TraceHeaderTypes.PERFINFO64, 2, 0x0F, 0x2E, T0 + 1 + i, new byte[24]));
        }
        try (EtlFile f = EtlFile.open(write(b), EtlReadOptions.strictMode())) {
            assertTrue(f.bufferCount() > 30, "many buffers: " + f.bufferCount());
            assertArrayEquals(new int[] {0, 1, 2}, f.processorIndexes());
            EtlCursor c = f.cursor();
            long expected = T0;
            while (c.advance()) {
                assertEquals(expected, c.record().timestamp());
                if (expected > T0) {
                    assertEquals((expected - T0 - 1) % 3, c.record().processorIndex());
                }
                expected++;
            }
            assertEquals(T0 + 301, expected);
        }
    }

    @Test
    void thirtyTwoBitHeaderAndClockTypes() throws IOException {
        EtlBuilder b = new EtlBuilder();
        b.is64 = false;
        b.pointerSizeField = 4;
        b.clockType = LogfileHeaderLayout.CLOCK_SYSTEMTIME;
        b.t0 = b.startTime - 5;   // system-time clock: raw values are FILETIMEs, T0 need not be StartTime
        b.add(0, EtlBuilder.event(TraceHeaderTypes.EVENT_HEADER32, 1, 2, b.t0 + 1234, PROVIDER, 1, 0, 0, 4, 0, 0, 0, 0, 0,
                Guid.NULL, List.of(), bytes()));
        try (EtlFile f = EtlFile.open(write(b), EtlReadOptions.strictMode())) {
            EtlLogfileHeader h = f.header();
            assertEquals(TraceHeaderTypes.SYSTEM32, h.headerRecordType());
            assertEquals(4, h.headerLayoutPointerSize());
            assertEquals(4, h.pointerSize());
            assertEquals("synthetic", h.sessionName());
            assertEquals("C:\\synthetic.etl", h.logFileName());
            assertEquals(Optional.of(ClockType.SYSTEM_TIME), h.clockType());
            assertEquals(-60, h.timeZoneBiasMinutes());
            assertEquals(7, h.eventsLost());
            assertEquals(19041, h.osBuild());
            assertEquals(10, h.majorVersion());
            assertEquals(5, h.subMinorVersion());
            assertEquals(156250, h.timerResolution());
            EtlCursor c = f.cursor();
            assertTrue(c.advance());
            assertTrue(c.advance());
            assertEquals(4, c.record().pointerSize());
            assertEquals(b.startTime + 1234, c.record().timestampFileTime());
        }
        b = new EtlBuilder();
        b.clockType = LogfileHeaderLayout.CLOCK_CPUCYCLE;
        b.cpuMhz = 2500;
        b.add(0, EtlBuilder.perfinfo(TraceHeaderTypes.PERFINFO64, 2, 0x0F, 0x2E, T0 + 2_500_000_000L, bytes()));
        b.add(0, EtlBuilder.perfinfo(TraceHeaderTypes.PERFINFO64, 2, 0x0F, 0x2E, T0 + 2_500_000_000L + 2499, bytes()));
        try (EtlFile f = EtlFile.open(write(b), EtlReadOptions.strictMode())) {
            assertEquals(Optional.of(ClockType.CPU_CYCLE), f.header().clockType());
            EtlCursor c = f.cursor();
            assertTrue(c.advance());
            assertTrue(c.advance());
            assertEquals(b.startTime + 10_000_000L, c.record().timestampFileTime(), "2.5e9 cycles at 2500 MHz = 1 s");
            assertEquals(f.header().startInstant().plusSeconds(1), c.record().timestampInstant());
            assertTrue(c.advance());
            assertEquals(b.startTime + 10_000_000L + 9, c.record().timestampFileTime(), "2499 cycles = 999.6 ns, floor");
            assertEquals(f.header().startInstant().plusSeconds(1).plusNanos(999), c.record().timestampInstant());
        }
    }

    /**
     * The header names its session clock with etw-api's {@code ClockType} (one enum for one idea; the consumer's own
     * copy, with RAW and UNKNOWN constants, is gone): raw (0) and unknown codes name none and convert as QPC ticks.
     */
    @ParameterizedTest
    @ValueSource(ints = {LogfileHeaderLayout.CLOCK_RAW, 7})
    void aHeaderWithoutASessionClockNamesNoneAndConvertsAsQpc(int code) throws IOException {
        EtlBuilder b = new EtlBuilder();
        b.clockType = code;
        b.perfFreq = 3_000_000L;
        b.add(0, EtlBuilder.perfinfo(TraceHeaderTypes.PERFINFO64, 2, 0x0F, 0x2E, T0 + 10_000_000L, bytes()));
        try (EtlFile f = EtlFile.open(write(b), EtlReadOptions.strictMode())) {
            assertEquals(Optional.empty(), f.header().clockType());
            assertEquals(code, f.header().clockTypeCode());
            EtlCursor c = f.cursor();
            assertTrue(c.advance());
            assertTrue(c.advance());
            assertEquals(b.startTime + 33_333_333L, c.record().timestampFileTime(), "1e7 ticks at 3 MHz = 3.33 s, floor");
        }
    }

    @Test
    void performanceCounterClockIsExactForOddFrequencies() {
        EtlClock clock = new EtlClock(LogfileHeaderLayout.CLOCK_PERFCOUNTER, 1_000_000_000L, 500, 3_117_777L, 0);
        assertEquals(1_000_000_000L, clock.toFileTime(500));
        // 3117777 ticks = 1 s exactly; 1 tick = 3.2074... 100ns units, floored.
        assertEquals(1_000_000_000L + 10_000_000L, clock.toFileTime(500 + 3_117_777L));
        assertEquals(1_000_000_000L + 3, clock.toFileTime(501));
        assertEquals(1_000_000_000L - 4, clock.toFileTime(499), "floor below the origin");
        // 40 days of ticks at 3 GHz: 1.04e16, whose product with 1e7 would overflow a long.
        EtlClock fast = new EtlClock(LogfileHeaderLayout.CLOCK_PERFCOUNTER, 0, 0, 3_000_000_000L, 0);
        long ticks = 3_000_000_000L * 86_400L * 40;
        assertEquals(10_000_000L * 86_400L * 40, fast.toFileTime(ticks));
        assertEquals(Instant.parse("1601-02-10T00:00:00Z"), fast.toInstant(ticks));
    }

    @Test
    void viewIsValidUntilAdvanceAndCopyIsIndependent() throws IOException {
        Path p = write(allKinds(false));
        EtlRecord copy;
        EtlFile f = EtlFile.open(p);
        try {
            EtlCursor c = f.cursor(EtlOrder.FILE);
            assertThrows(IllegalStateException.class, c::record);
            while (c.advance() && c.record().kind() != HeaderKind.EVENT_HEADER) {
                // skip to the event
            }
            copy = c.record().copy();
            ByteBuffer payload = c.record().userData();
            assertTrue(c.advance());
            assertEquals(HeaderKind.MESSAGE_TRACE_HEADER, c.record().kind());
            assertEquals(3, payload.remaining(), "slices keep their bounds");
            f.close();
            f.close();
            assertTrue(f.isClosed());
            assertThrows(IllegalStateException.class, () -> payload.get(0), "closed mapping is not readable");
            assertThrows(IllegalStateException.class, () -> f.cursor());
            assertThrows(IllegalStateException.class, c::advance, "a cursor of a closed file fails cleanly");
        } finally {
            f.close();
        }
        assertEquals(HeaderKind.EVENT_HEADER, copy.kind());
        assertEquals(PROVIDER, copy.providerId());
        assertEquals(ACTIVITY, copy.activityId());
        assertEquals(2, copy.extendedData().size());
        assertArrayEquals(RELATED.toWindowsBytes(), copy.extendedData().get(1).data());
        assertArrayEquals(bytes(0xE1, 0xE2, 0xE3), copy.userData());
        byte[] mutated = copy.userData();
        mutated[0] = 0;
        assertArrayEquals(bytes(0xE1, 0xE2, 0xE3), copy.userData(), "copies are immutable");
        assertNotSame(copy.userData(), copy.userData());
    }

    @Test
    void filesAreMergedByConvertedTime() throws IOException {
        // File A: QPC at 1e7 Hz; file B: QPC at 1e6 Hz, starting 15 ticks (1.5 us) later.
        EtlBuilder a = new EtlBuilder();
        for (int i = 1; i <= 5; i++) {
            a.add(0, EtlBuilder.perfinfo(TraceHeaderTypes.PERFINFO64, 2, 0x0F, 1, T0 + 20L * i, bytes()));
        }
        EtlBuilder b = new EtlBuilder();
        b.perfFreq = 1_000_000L;
        b.startTime = a.startTime + 15;
        b.t0 = 77;
        for (int i = 1; i <= 5; i++) {
            b.add(0, EtlBuilder.perfinfo(TraceHeaderTypes.PERFINFO64, 2, 0x0F, 2, 77L + 2L * i, bytes()));
        }
        try (EtlFile fa = EtlFile.open(write(a)); EtlFile fb = EtlFile.open(write(b))) {
            EtlCursor m = EtlFile.merge(List.of(fa, fb));
            List<String> seen = new ArrayList<>();
            long last = Long.MIN_VALUE;
            while (m.advance()) {
                EtlRecordView r = m.record();
                assertTrue(r.timestampFileTime() >= last);
                last = r.timestampFileTime();
                seen.add((r.file() == fa ? "a" : "b") + (r.timestampFileTime() - a.startTime));
            }
            // A: 20 ticks at 1e7 Hz = 20 FILETIME units; B: 2 ticks at 1e6 Hz = 20 units, 15 units later.
            assertEquals(List.of("a0", "b15", "a20", "b35", "a40", "b55", "a60", "b75", "a80", "b95", "a100", "b115"), seen);
            assertEquals(0, m.outOfOrderCount());
            assertThrows(IllegalStateException.class, m::record);
        }
    }

    /**
     * Several files merge as their own time-ordered cursors merged one after the other would: equal FILETIMEs go by
     * file order, and within a file by raw timestamp (two raw ticks share one FILETIME unit at 2e7 Hz), not by
     * processor. A merge keyed on FILETIME and processor alone would put each file's processor 0 first.
     */
    @Test
    void equalFileTimesKeepFileOrderThenEachFilesOwnOrder() throws IOException {
        EtlBuilder a = twoProcessorsTwoTicksPerUnit();
        EtlBuilder b = twoProcessorsTwoTicksPerUnit();
        try (EtlFile fa = EtlFile.open(write(a)); EtlFile fb = EtlFile.open(write(b))) {
            List<String> own = new ArrayList<>();
            EtlCursor one = fa.cursor();
            while (one.advance()) {
                if (one.record().kind() == HeaderKind.PERFINFO_TRACE_HEADER) {
                    own.add("p" + one.record().processorIndex() + "@" + one.record().timestamp());
                }
            }
            assertEquals(List.of("p1@1000000", "p0@1000001", "p1@1000002", "p0@1000003"), own, "one file: raw order");
            EtlCursor m = EtlFile.merge(List.of(fa, fb));
            List<String> seen = new ArrayList<>();
            while (m.advance()) {
                EtlRecordView r = m.record();
                if (r.kind() == HeaderKind.PERFINFO_TRACE_HEADER) {
                    seen.add((r.file() == fa ? "a" : "b") + "p" + r.processorIndex() + "@" + r.timestamp());
                }
            }
            assertEquals(List.of("ap1@1000000", "ap0@1000001", "bp1@1000000", "bp0@1000001",
                    "ap1@1000002", "ap0@1000003", "bp1@1000002", "bp0@1000003"), seen);
            assertEquals(0, m.outOfOrderCount());
        }
    }

    private static EtlBuilder twoProcessorsTwoTicksPerUnit() {
        EtlBuilder f = new EtlBuilder();
        f.perfFreq = 20_000_000L;
        for (int i = 0; i < 2; i++) {
            f.add(0, EtlBuilder.perfinfo(TraceHeaderTypes.PERFINFO64, 2, 0x0F, 1, T0 + 2L * i + 1, bytes()));
            f.add(1, EtlBuilder.perfinfo(TraceHeaderTypes.PERFINFO64, 2, 0x0F, 1, T0 + 2L * i, bytes()));
        }
        return f;
    }

    private static void assertBytes(byte[] expected, ByteBuffer actual) {
        byte[] b = new byte[actual.remaining()];
        actual.duplicate().get(b);
        assertArrayEquals(expected, b);
    }
}
