package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.etw4j.Level;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.EnableProperty;
import org.etw4j.controller.SessionConfig;
import org.etw4j.provider.EtwProvider;
import org.etw4j.spi.SessionControl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What runs here instead of RealEtwFidelityTest's two file proofs ({@code
 * etw4jsReaderAgreesWithOpenTraceRecordByRecordOnAFileWindowsWrote}, {@code aFileEtlWriterWroteIsReadByOpenTraceRecordByRecord}):
 * the same comparisons, with the stand-in's OpenTraceW, which replays the file through etw4j's own reader
 * ({@code SimEtwEngine.FileReplay}). That is circular as a proof of Windows (both sides are etw4j's reader); what
 * it does prove is that the FFM consumer's file path (LogFileName, ProcessTraceMode, the EVENT_RECORD built in
 * native memory and read back through {@link EventRecordView}) loses no fact: header fields, extended items and
 * payload bytes, for a file the simulator wrote (mixed events, SID, TS_ID and stack items) and one EtlWriter wrote.
 */
@Tag("standin")
class FileReadersOverTheStandInTest {
    private final StandInMachine standIn = new StandInMachine();

    @AfterEach
    void nothingEscaped() {
        standIn.assertNothingEscaped();
    }

    @Test
    void aSimulatedSessionsFileReadsAlikeThroughTheFfmConsumerAndTheReader(@TempDir Path dir) throws Exception {
        Path etl = dir.resolve("mixed.etl");
        String name = "etw4j-standin-" + UUID.randomUUID();
        SessionControl s = standIn.backend.startSession(SessionConfig.file(name, etl).build());
        EtwProvider p = EtwProvider.builder(name + "-mixed").backend(standIn.backend).register();
        try {
            s.enableProvider(p.id(), EnableParameters.builder().level(Level.VERBOSE).property(EnableProperty.SID)
                    .property(EnableProperty.TS_ID).property(EnableProperty.STACK_TRACE)
                    .waitForCallbacks(Duration.ofSeconds(20)).build());
            int events = FileReaders.writeMixedEvents(p);
            s.stop();
            List<RecordFacts> ffm = FileReaders.openTrace(standIn.backend, etl);
            assertEquals(events, ffm.stream().filter(f -> f.provider().equals(p.id())).count());
            assertEquals(events, ffm.stream().filter(f -> f.provider().equals(p.id()))
                    .filter(f -> f.extendedItems().stream().anyMatch(i -> i.startsWith("2:"))).count(), "SID items");
            RecordFacts.assertSameRecords(ffm, FileReaders.etw4j(etl), "FFM consumer against etw4j's reader");
        } finally {
            p.close();
        }
    }

    @Test
    void anEtlWriterFileReadsAlikeThroughTheFfmConsumerAndTheReader(@TempDir Path dir) throws Exception {
        Path etl = dir.resolve("etw4j-written.etl");
        long now = (System.currentTimeMillis() + 11_644_473_600_000L) * 10_000L;
        List<RecordFacts> written = SyntheticEtl.write(etl, now);
        List<RecordFacts> ffm = FileReaders.openTrace(standIn.backend, etl);
        RecordFacts.assertSameRecords(written, SyntheticEtl.eventHeaderRecords(ffm), "written against the FFM consumer");
        RecordFacts.assertSameRecords(FileReaders.etw4j(etl), ffm, "etw4j's reader against the FFM consumer");
    }
}
