package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.EventStream;
import org.etw4j.consumer.GatedThreads;
import org.etw4j.consumer.StreamOptions;
import org.etw4j.controller.ClockType;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.EnableProperty;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.controller.TraceSession;
import org.etw4j.LogfileHeader;
import org.etw4j.format.WmiBufferLayout;
import org.etw4j.provider.EtwProvider;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A file-mode session of the simulated backend writes an .etl file through the ServiceLoader-registered writer;
 * the pure-Java reader reads it back and every event matches what a real-time consumer of the same session saw.
 */
class EtlWriterRoundTripTest {
    private static final int THREADS = 3;
    private static final int PER_THREAD = 150;
    private static final EventDescriptor MANIFEST_EVENT = new EventDescriptor(7, 1, 0x10, 4, 0, 3, 0x10L);
    private static final EventDescriptor TRANSFER_EVENT = new EventDescriptor(8, 0, 0x10, 5, 0, 3, 0x20L);
    private static final TraceLoggingEvent TICK = TraceLoggingEvent.builder("Tick").level(Level.INFORMATIONAL)
            .keyword(0x40L).int32Field("index").stringField("text").doubleField("ratio").boolField("even").guidField("corr")
            .build();

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(ClockType.class)
    void liveAndFileAgreeEventForEvent(ClockType clock) throws Exception {
        SimulatedBackend backend = new SimulatedBackend();
        String name = "roundtrip-" + UUID.randomUUID();
        Path etl = dir.resolve("trace.etl");
        SessionConfig config = SessionConfig.realTimeAndFile(name, etl).bufferSizeKb(4).buffers(4, 4096)
                .flushTimer(Duration.ZERO).clockType(clock).build();
        List<EventRecord> live = Collections.synchronizedList(new ArrayList<>());
        List<EventRecord> liveHeader = new ArrayList<>();
        Guid[] relatedIds = new Guid[THREADS * PER_THREAD];
        SessionStatistics stats;
        String providerName = "Etw4j-Test-RoundTrip";
        try (TraceSession session = TraceSession.start(config, backend);
             EtwProvider provider = EtwProvider.builder(providerName).backend(backend).register()) {
            session.enable(provider.id(), EnableParameters.builder().level(Level.VERBOSE)
                    .property(EnableProperty.SID).property(EnableProperty.TS_ID)
                    .property(EnableProperty.PROCESS_START_KEY).waitForCallbacks(java.time.Duration.ofSeconds(10)).build());
            EventStream stream = EventStream.openSession(name, backend, StreamOptions.direct());
            stream.onEvent(provider.id(), e -> live.add(e.copy()));
            stream.onEvent(e -> {
                if (e.headerKind() != HeaderKind.EVENT_HEADER) {
                    liveHeader.add(e.copy());
                }
            });
            stream.startAsync();

            GatedThreads.run(THREADS, "writer-", thread -> {
                for (int i = 0; i < PER_THREAD; i++) {
                    int n = thread * PER_THREAD + i;
                    switch (i % 3) {
                        case 0 -> assertEquals(0, provider.event(MANIFEST_EVENT).int32(n).string("msg-" + n)
                                .uint64(n * 1_000_000_007L).write());
                        case 1 -> {
                            Guid related = Guid.of(new UUID(n, ~n));
                            relatedIds[n] = related;
                            assertEquals(0, provider.event(TRANSFER_EVENT).activityId(Guid.of(new UUID(~n, n)))
                                    .relatedActivityId(related).int32(n).write());
                        }
                        default -> assertEquals(0, provider.event(TICK).int32(n).string("tick " + n)
                                .float64(n / 4.0).bool32(n % 2 == 0).guid(Guid.of(new UUID(7, n))).write());
                    }
                }
            });
            stats = session.statistics();
            session.stop();
            assertTrue(stream.awaitTermination(Duration.ofSeconds(10)), "live stream ended with the session");
            stats = session.statistics();
        }
        assertEquals(List.of(), backend.backgroundErrors(), "no writer failures on the logger thread");
        int written = THREADS * PER_THREAD;
        assertEquals(written, stats.eventsAccepted());
        assertEquals(0, stats.eventsLost());
        assertEquals(written, live.size(), "real-time consumer saw every event");

        try (EtlFile file = EtlFile.open(etl)) {
            // Header facts.
            EtlLogfileHeader h = file.header();
            assertEquals(4096, h.bufferSize());
            assertEquals(stats.buffersWritten() + 1, h.buffersWritten(), "data buffers + buffer 0");
            assertEquals(h.buffersWritten(), file.bufferCount());
            assertEquals(h.buffersWritten() * 4096, Files.size(etl), "file length = BuffersWritten x BufferSize");
            assertEquals(0, h.eventsLost());
            assertEquals(name, h.sessionName());
            assertEquals(etl.toAbsolutePath().toString(), h.logFileName());
            assertEquals(clock.value(), h.clockTypeCode());
            assertEquals(0, file.warningCount(), "the reader found nothing to complain about");
            assertTrue(h.endTime() >= h.startTime());
            // The synthetic header event a real-time consumer gets carries the same TRACE_LOGFILE_HEADER start facts.
            assertEquals(1, liveHeader.size());
            ByteBuffer payload = liveHeader.get(0).userData();
            LogfileHeader rt = LogfileHeader.decode(payload, payload.position(), 8, payload.limit());
            assertEquals(rt.startTime(), h.startTime());
            assertEquals(rt.perfFreq(), h.perfFreq());
            assertEquals(rt.clockType(), h.clockTypeCode());
            assertEquals(rt.bufferSize(), h.bufferSize());

            // Buffer 0 as the recipe says (etw-formats.md 3.8 step 2).
            ByteBuffer b0 = ByteBuffer.wrap(Files.readAllBytes(etl), 0, 4096).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(0x21, b0.getShort(WmiBufferLayout.BUFFER_FLAG));
            assertEquals(4, b0.getShort(WmiBufferLayout.BUFFER_TYPE));
            assertEquals(0xC0020002, b0.getInt(0x48), "SYSTEM64 marker, Version 2");
            assertEquals(0, b0.getShort(0x48 + 6), "hook 0x0000");
            int saved = b0.getInt(WmiBufferLayout.SAVED_OFFSET);
            assertEquals(saved, b0.getInt(WmiBufferLayout.OFFSET));
            for (int i = saved; i < 4096; i++) {
                assertEquals((byte) 0xFF, b0.get(i), "padding at " + i);
            }

            // Raw records: same bytes the live consumer saw.
            List<EtlRecordSnapshot> fromFile = new ArrayList<>();
            EtlCursor c = file.cursor();
            int others = 0;
            while (c.advance()) {
                EtlRecordView v = c.record();
                if (v.kind() == HeaderKind.EVENT_HEADER) {
                    fromFile.add(new EtlRecordSnapshot(v.providerId(), v.timestamp(), v.timestampFileTime(), v.processId(),
                            v.threadId(), v.activityId(), bytes(v.userData()), v.extendedDataCount()));
                } else {
                    others++;
                }
            }
            assertEquals(1, others, "only the logfile header record besides the events");
            assertEquals(written, fromFile.size());
            for (int i = 0; i < written; i++) {
                EventRecord l = live.get(i);
                EtlRecordSnapshot f = fromFile.get(i);
                assertEquals(l.providerId(), f.provider, "provider #" + i);
                assertEquals(l.timestampRaw(), f.raw, "raw timestamp #" + i);
                assertTrue(Math.abs(l.fileTime() - f.fileTime) <= 10, "timestamp within 1 us #" + i);
                assertEquals(l.processId(), f.pid);
                assertEquals(l.threadId(), f.tid);
                assertEquals(l.activityId(), f.activity);
                assertArrayEquals(l.userDataBytes(), f.payload);
                assertEquals(l.extendedDataCount(), f.extCount);
            }
        }

        // Decoded view of the file through a file stream: everything equal to the live records.
        List<EventRecord> decoded = new ArrayList<>();
        try (EventStream files = EventStream.openFiles(etl)) {
            Guid id = live.get(0).providerId();
            files.onEvent(id, e -> decoded.add(e.copy()));
            files.start();
        }
        assertEquals(written, decoded.size());
        int tl = 0;
        int transfers = 0;
        for (int i = 0; i < written; i++) {
            EventRecord l = live.get(i);
            EventRecord f = decoded.get(i);
            assertEquals(l.descriptor(), f.descriptor(), "descriptor #" + i);
            assertEquals(l.providerId(), f.providerId());
            assertEquals(l.processId(), f.processId());
            assertEquals(l.threadId(), f.threadId());
            assertEquals(l.processorIndex(), f.processorIndex());
            assertEquals(l.activityId(), f.activityId());
            assertEquals(l.relatedActivityId(), f.relatedActivityId());
            assertEquals(l.headerFlags(), f.headerFlags());
            assertEquals(l.pointerSize(), f.pointerSize());
            assertEquals(l.extendedData(), f.extendedData(), "extended items #" + i);
            assertArrayEquals(l.userDataBytes(), f.userDataBytes());
            assertEquals(l.timestampRaw(), f.timestampRaw());
            assertTrue(Math.abs(l.fileTime() - f.fileTime()) <= 10, "within 1 us");
            assertEquals(l.userSid(), f.userSid());
            assertTrue(f.userSid().orElseThrow().startsWith("S-1-5-21-"));
            assertEquals(1, f.terminalSessionId().orElseThrow());
            assertEquals(l.processStartKey(), f.processStartKey());
            if (f.descriptor().equals(TRANSFER_EVENT)) {
                int n = f.userData().getInt(0);
                assertEquals(relatedIds[n], f.relatedActivityId(), "related activity id survives the file");
                assertEquals(Guid.of(new UUID(~n, n)), f.activityId());
                transfers++;
            }
            if (f.isTraceLogging()) {
                tl++;
                assertEquals("Tick", f.eventName());
                assertEquals(providerName, f.providerName());
                assertEquals(l.getFields(), f.getFields(), "decoded TraceLogging fields #" + i);
                int n = f.getInt("index");
                assertEquals("tick " + n, f.getString("text"));
                assertEquals(n / 4.0, f.getDouble("ratio"));
                assertEquals(n % 2 == 0, f.getBoolean("even"));
                assertEquals(Guid.of(new UUID(7, n)), f.getGuid("corr"));
            }
        }
        assertEquals(written / 3, tl);
        assertEquals(written / 3, transfers);
    }

    @Test
    void eventsLostAndBuffersAreInTheFileHeader() throws Exception {
        SimulatedBackend backend = new SimulatedBackend();
        String name = "lost-" + UUID.randomUUID();
        Path etl = dir.resolve("lost.etl");
        SessionStatistics stats;
        try (TraceSession session = TraceSession.start(SessionConfig.file(name, etl).bufferSizeKb(1).buffers(2, 8)
                .flushTimer(Duration.ZERO).build(), backend);
             EtwProvider provider = EtwProvider.builder("Etw4j-Test-Lost").backend(backend).register()) {
            session.enable(provider.id(), EnableParameters.of(Level.VERBOSE).withCallbackWait(java.time.Duration.ofSeconds(10)));
            for (int i = 0; i < 20; i++) {
                assertEquals(0, provider.event(MANIFEST_EVENT).int32(i).string("x".repeat(100)).write());
            }
            // Larger than a 1 KB buffer: ETW refuses it and counts it lost (seed 002).
            assertNotEquals(0, provider.event(MANIFEST_EVENT).binary(new byte[2000], 0, 2000).write());
            session.stop();
            stats = session.statistics();
        }
        assertEquals(1, stats.eventsLost());
        try (EtlFile file = EtlFile.open(etl)) {
            assertEquals(1, file.header().eventsLost());
            assertEquals(1024, file.header().bufferSize());
            assertEquals(stats.buffersWritten() + 1, file.header().buffersWritten());
            assertTrue(file.header().buffersWritten() > 2, "several data buffers");
            assertEquals(file.header().buffersWritten() * 1024, Files.size(etl));
            EtlCursor c = file.cursor();
            int events = 0;
            while (c.advance()) {
                if (c.record().kind() == HeaderKind.EVENT_HEADER) {
                    assertEquals(events, c.record().userData().getInt(0), "in order");
                    events++;
                }
            }
            assertEquals(20, events);
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(b.position(), out);
        return out;
    }

    private record EtlRecordSnapshot(Guid provider, long raw, long fileTime, int pid, int tid, Guid activity, byte[] payload,
                                     int extCount) {
    }
}
