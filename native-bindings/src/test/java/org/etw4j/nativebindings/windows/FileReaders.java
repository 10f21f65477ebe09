package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.EventDescriptor;
import org.etw4j.Level;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.provider.ActivityScope;
import org.etw4j.provider.EtwProvider;
import org.etw4j.provider.EventData;
import org.etw4j.RawEventRecord;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.TraceConsumer;
import org.etw4j.tracelogging.TraceLoggingEvent;

/**
 * The two readers issue 21, item 13 compares record by record, each giving {@link RecordFacts}: OpenTraceW and
 * ProcessTrace through the FFM backend ({@link WindowsBackend#openFile}; Windows' own parser on Windows, the
 * stand-in's replay elsewhere), and etw4j's pure-Java reader; and the mixed events both proofs record.
 *
 * <p>Test helper; stateless.
 */
final class FileReaders {
    private FileReaders() {
    }

    /** Every record OpenTraceW/ProcessTrace deliver for {@code etl}, as facts; no consumer error allowed. */
    static List<RecordFacts> openTrace(WindowsBackend backend, Path etl) {
        List<RecordFacts> facts = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        try (TraceConsumer c = backend.openFile(etl, new RecordSink() {
            @Override
            public void onRecord(RawEventRecord r) {
                facts.add(RecordFacts.of(r));
            }

            @Override
            public void onError(Throwable error) {
                errors.add(error);
            }
        })) {
            c.process(); // returns at the end of the file
        }
        assertEquals(List.of(), errors);
        return facts;
    }

    /** The facts of every record etw4j's pure-Java reader returns for {@code etl}, checking it skipped none. */
    static List<RecordFacts> etw4j(Path etl) throws IOException {
        List<RecordFacts> facts = new ArrayList<>();
        try (EtlFile file = EtlFile.open(etl)) {
            EtlCursor c = file.cursor();
            while (c.advance()) {
                facts.add(RecordFacts.of(c.record().asRawEventRecord()));
            }
            assertEquals(0, file.warningCount(), "the reader warned on " + etl);
        }
        return facts;
    }

    /**
     * Writes the mixed events both file proofs record with {@code p} (enabled): 200 plain events with payloads of
     * 0 to 4000 bytes, 200 TraceLogging events, and 4 activities (START, an event inside, STOP).
     *
     * @return how many events of {@code p} the file must hold
     */
    static int writeMixedEvents(EtwProvider p) {
        TraceLoggingEvent tl = TraceLoggingEvent.builder("Mixed").int32Field("n").stringField("s").build();
        int[] sizes = {0, 1, 7, 100, 4000};
        int events = 0;
        for (int i = 0; i < 200; i++) {
            byte[] payload = new byte[sizes[i % sizes.length]];
            java.util.Arrays.fill(payload, (byte) i);
            assertEquals(0, p.write(EventDescriptor.of(1 + i % 5, Level.INFORMATIONAL, 1), new EventData().add(payload)));
            assertEquals(0, p.event(tl).int32(i).string("value " + i).write());
            events += 2;
            if (i % 50 == 0) {
                try (ActivityScope a = p.startActivity(EventDescriptor.of(60, Level.INFORMATIONAL, 1))) {
                    byte[] n = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(i).array();
                    assertEquals(0, p.write(EventDescriptor.of(61, Level.INFORMATIONAL, 1), new EventData().add(n)));
                }
                events += 3;
            }
        }
        return events;
    }
}
