package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.etw4j.EtwException;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.Win32Error;
import org.etw4j.controller.ClockType;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.EnableProperty;
import org.etw4j.controller.EventFilter;
import org.etw4j.controller.IfSessionExists;
import org.etw4j.controller.LogFileMode;
import org.etw4j.controller.PayloadPredicate;
import org.etw4j.controller.SessionConfig;
import org.etw4j.format.FilterHeaderChain;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.generated._EVENT_FILTER_DESCRIPTOR;
import org.etw4j.nativebindings.generated._EVENT_FILTER_HEADER;
import org.etw4j.nativebindings.generated._EVENT_TRACE_PROPERTIES;
import org.etw4j.provider.FilterData;
import org.junit.jupiter.api.Test;

/**
 * The structures the FFM backend builds and reads, checked in memory without any library: GUIDs in Windows
 * layout, EVENT_TRACE_PROPERTIES for StartTraceW, ENABLE_TRACE_PARAMETERS with every filter type (read back
 * by the test engine's decoder), the raw payload filter, schematized filter chains.
 */
class NativeStructuresTest {

    @Test
    void guidsUseTheWindowsLayout() {
        Guid g = Guid.parse("00112233-4455-6677-8899-aabbccddeeff");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(16);
            NativeGuids.write(s, 0, g);
            assertArrayEquals(g.toWindowsBytes(), s.toArray(ValueLayout.JAVA_BYTE));
            assertEquals(g, NativeGuids.read(s, 0));
            assertNull(NativeGuids.readPointer(MemorySegment.NULL, null));
        }
    }

    @Test
    void startPropertiesCarryTheConfigAndReadBack() {
        SessionConfig c = SessionConfig.realTimeAndFile("props-session", Path.of("/tmp/x.etl")).bufferSizeKb(128).buffers(8, 32)
                .flushTimer(Duration.ofSeconds(3)).clockType(ClockType.SYSTEM_TIME).build();
        Guid id = Guid.parse("11111111-2222-3333-4444-555555555555");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = SessionProperties.forStart(a, c, id);
            assertEquals(id, SessionProperties.sessionId(p));
            SessionConfig back = SessionProperties.config(p, "fallback", IfSessionExists.ATTACH);
            assertEquals(new SessionConfig(c.name(), true, Path.of("/tmp/x.etl").toAbsolutePath(), 128, 8, 32, Duration.ofSeconds(3),
                    ClockType.SYSTEM_TIME, IfSessionExists.ATTACH), back);
            MemorySegment u = SessionProperties.forUpdate(a, c);
            assertNull(SessionProperties.logFile(u), "UPDATE leaves the log file alone (LogFileNameOffset 0)");
        }
    }

    @Test
    void fileModesAndTheMaximumSizeReachEventTraceProperties() {
        // the generated layout (MaximumFileSize, LogFileMode) and the EVENT_TRACE_* constants are the mingw-w64
        // headers' (WindowsAbiTest compares offsetof and every constant); here: each config sets the right bits
        SessionConfig circular = SessionConfig.file("ring", Path.of("/tmp/ring.etl")).circular(64).build();
        SessionConfig parts = SessionConfig.realTimeAndFile("parts", Path.of("/tmp/p_%d.etl")).newFileEvery(100).build();
        SessionConfig limited = SessionConfig.file("seq", Path.of("/tmp/s.etl")).maximumFileSizeMb(10).build();
        SessionConfig inProc = SessionConfig.file("mine", Path.of("/tmp/mine.etl")).privateInProcess(true).build();
        SessionConfig rt = SessionConfig.realTime("rt").build();
        try (Arena a = Arena.ofConfined()) {
            record Case(SessionConfig config, int mode, int maxMb) {
            }
            for (Case c : List.of(
                    new Case(circular, EtwNative.EVENT_TRACE_FILE_MODE_CIRCULAR(), 64),
                    new Case(parts, EtwNative.EVENT_TRACE_FILE_MODE_NEWFILE() | EtwNative.EVENT_TRACE_REAL_TIME_MODE(), 100),
                    new Case(limited, EtwNative.EVENT_TRACE_FILE_MODE_SEQUENTIAL(), 10),
                    new Case(inProc, EtwNative.EVENT_TRACE_FILE_MODE_SEQUENTIAL() | EtwNative.EVENT_TRACE_PRIVATE_LOGGER_MODE()
                            | EtwNative.EVENT_TRACE_PRIVATE_IN_PROC(), 0),
                    new Case(rt, EtwNative.EVENT_TRACE_REAL_TIME_MODE(), 0))) {
                MemorySegment p = SessionProperties.forStart(a, c.config(), Guid.parse("11111111-2222-3333-4444-555555555555"));
                assertEquals(c.mode(), _EVENT_TRACE_PROPERTIES.LogFileMode(p), c.config().name());
                assertEquals(c.maxMb(), _EVENT_TRACE_PROPERTIES.MaximumFileSize(p), c.config().name());
                SessionConfig back = SessionProperties.config(p, "fallback", IfSessionExists.FAIL);
                assertEquals(c.config().fileMode(), back.fileMode(), c.config().name());
                assertEquals(c.config().maximumFileSizeMb(), back.maximumFileSizeMb(), c.config().name());
                assertEquals(c.config().privateInProcess(), back.privateInProcess(), c.config().name());
            }
        }
        assertEquals(LogFileMode.SEQUENTIAL, SessionProperties.fileMode(0), "EVENT_TRACE_FILE_MODE_NONE");
    }

    @Test
    void enableParametersRoundTripThroughNativeMemory() {
        Guid session = Guid.parse("aaaaaaaa-0000-0000-0000-000000000001");
        EventFilter.Payload payload = new EventFilter.Payload("Request", 0, true,
                List.of(new PayloadPredicate("status", PayloadPredicate.Op.GE, "500"), new PayloadPredicate("path", PayloadPredicate.Op.CONTAINS, "/api")));
        EnableParameters p = EnableParameters.builder().level(Level.WARNING).matchAnyKeyword(0xF0).matchAllKeyword(0x10)
                .property(EnableProperty.SID).property(EnableProperty.IGNORE_KEYWORD_0)
                .filter(EventFilter.EventIds.deny(3, 1, 2)).filter(EventFilter.ProcessIds.of(42, 7))
                .filter(EventFilter.ExecutableNames.of("java.exe", "app.exe")).filter(payload)
                .filter(EventFilter.Custom.utf8(EventFilter.TYPE_SCHEMATIZED, "provider data")).build();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment native_ = EnableTraceParameters.build(a, p, session, false);
            EnableParameters back = SimEtwEngine.decodeParameters(p.level(), p.matchAnyKeyword(), p.matchAllKeyword(), native_, Guid.NULL);
            assertEquals(p.level(), back.level());
            assertEquals(p.properties(), back.properties());
            assertEquals(session, back.sourceId(), "no SourceId given: the session's GUID");
            assertEquals(p.filters(), back.filters());
        }
    }

    @Test
    void anExplicitSourceIdIsPassed() {
        Guid source = Guid.parse("bbbbbbbb-0000-0000-0000-000000000002");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = EnableTraceParameters.build(a, EnableParameters.builder().sourceId(source).build(), Guid.NULL, false);
            assertEquals(source, SimEtwEngine.decodeParameters(5, -1, 0, n, Guid.NULL).sourceId());
        }
    }

    @Test
    void theSystemEtwRefusesPayloadFiltersWithAnExplanation() {
        EnableParameters p = EnableParameters.builder().filter(EventFilter.Payload.forEvent("E", true,
                new PayloadPredicate("f", PayloadPredicate.Op.EQ, "1"))).build();
        try (Arena a = Arena.ofConfined()) {
            EtwException e = assertThrows(EtwException.class, () -> EnableTraceParameters.build(a, p, Guid.NULL, true));
            assertEquals("EnableTraceEx2", e.function());
            assertEquals(Win32Error.ERROR_NOT_SUPPORTED, e.error());
            assertTrue(e.getMessage().contains("TdhCreatePayloadFilter"), e.getMessage());
        }
    }

    @Test
    void eventIdFilterDataIsAnEventFilterEventId() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = EnableTraceParameters.build(a, EnableParameters.builder().filter(EventFilter.EventIds.allow(9, 4)).build(),
                    Guid.NULL, true);
            MemorySegment d = org.etw4j.nativebindings.generated._ENABLE_TRACE_PARAMETERS.EnableFilterDesc(n)
                    .reinterpret(_EVENT_FILTER_DESCRIPTOR.layout().byteSize());
            assertEquals(EventFilter.TYPE_EVENT_ID, _EVENT_FILTER_DESCRIPTOR.Type(d));
            assertEquals(8, _EVENT_FILTER_DESCRIPTOR.Size(d), "FilterIn, Reserved, Count, then 2 ids");
            MemorySegment data = MemorySegment.ofAddress(_EVENT_FILTER_DESCRIPTOR.Ptr(d)).reinterpret(8);
            assertEquals(1, data.get(ValueLayout.JAVA_BYTE, 0));
            assertEquals(2, data.get(ValueLayout.JAVA_SHORT, 2));
            assertEquals(Set.of(4, 9), Set.of((int) data.get(ValueLayout.JAVA_SHORT, 4), (int) data.get(ValueLayout.JAVA_SHORT, 6)));
        }
    }

    @Test
    void rawPayloadFilterRoundTripsAndRejectsGarbage() {
        EventFilter.Payload f = new EventFilter.Payload(null, 1234, false, List.of(new PayloadPredicate("n", PayloadPredicate.Op.BETWEEN, "1,9")));
        assertEquals(f, RawPayloadFilter.decode(RawPayloadFilter.encode(f)));
        assertThrows(IllegalArgumentException.class, () -> RawPayloadFilter.decode(new byte[] {1, 2, 3}));
    }

    @Test
    void schematizedFilterChainsSplitIntoOneFilterPerSession() {
        byte[] chain = new byte[24 + 8 + 24 + 3];
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(chain).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(16, 24 + 5).putInt(20, 32);              // block 1: 5 data bytes, next at 32
        b.put(24, (byte) 'a');
        b.putInt(32 + 16, 24 + 3).putInt(32 + 20, 0);     // block 2: 3 data bytes, last
        b.put(32 + 24, (byte) 'b');
        List<FilterData> out = FilterHeaderChain.split(chain);
        assertEquals(2, out.size());
        assertEquals(5, out.get(0).size());
        assertEquals('a', out.get(0).data()[0]);
        assertEquals(3, out.get(1).size());
        assertEquals('b', out.get(1).data()[0]);
        assertNull(FilterHeaderChain.split(new byte[10]), "too short for a header: not a chain");
    }

    @Test
    void theSharedFilterHeaderLayoutAgreesWithTheGeneratedStruct() {
        assertEquals(FilterHeaderChain.HEADER_BYTES, _EVENT_FILTER_HEADER.layout().byteSize());
        assertEquals(FilterHeaderChain.ID, _EVENT_FILTER_HEADER.Id$offset());
        assertEquals(FilterHeaderChain.VERSION, _EVENT_FILTER_HEADER.Version$offset());
        assertEquals(FilterHeaderChain.INSTANCE_ID, _EVENT_FILTER_HEADER.InstanceId$offset());
        assertEquals(FilterHeaderChain.SIZE, _EVENT_FILTER_HEADER.Size$offset());
        assertEquals(FilterHeaderChain.NEXT_OFFSET, _EVENT_FILTER_HEADER.NextOffset$offset());
    }
}
