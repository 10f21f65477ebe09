package org.etw4j.consumer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.CorpusFiles;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.TraceFile;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.TraceContext;
import org.junit.jupiter.api.Test;

/**
 * A {@link TraceLearner} learns in a {@link TraceFile}'s own first pass (the trace model's tables): it sees every
 * record of the trace once, in the order the reading pass delivers them, with the records it asks for decoded,
 * progress every 4096 records and 1 at the end, and the context the pass learns; a reader that makes no first pass
 * of its own refuses it instead of leaving it unfed.
 */
class TraceLearnerTest {

    /** Records what the pass hands it. */
    private static final class Recording implements TraceLearner {
        TraceContext context;
        final List<Long> times = new ArrayList<>();
        long asked;
        final List<Double> fractions = new ArrayList<>();

        @Override
        public void begin(TraceContext c) {
            context = c;
        }

        @Override
        public boolean decodes(RawEventRecord r) {
            return r.id() % 2 == 0;
        }

        @Override
        public void learn(RawEventRecord r, DecodedEvent e) {
            times.add(r.timestamp());
            if (decodes(r)) {
                assertNotNull(e, "asked for, decoded");
                asked++;
            }
        }

        @Override
        public void progress(double fraction) {
            fractions.add(fraction);
        }
    }

    @Test
    void learnsEveryRecordOfTheReadersOwnFirstPass() throws Exception {
        try (EtlFile f = EtlFile.open(CorpusFiles.file("perfview__diaghub.diaghub.kernel.1.etl"));
             TraceFile in = TraceFile.over(ReadSettings.DEFAULT, List.of(f))) {
            Recording learner = new Recording();
            TraceFileAccess.learnWith(in, learner);
            List<Long> read = new ArrayList<>();
            while (in.hasMoreEvents()) {
                in.readEvent();
                assertNotNull(learner.context, "the learner was given the context before the first record");
                read.add(in.record().asRawEventRecord().timestamp()); // FILETIME, as the learner sees it
            }
            assertTrue(read.size() > 10_000, "a trace of some size: " + read.size());
            assertEquals(read, learner.times, "every record once, in reading order");
            assertTrue(learner.asked > 0, "records asked for (each came decoded)");
            assertEquals(1.0, learner.fractions.get(learner.fractions.size() - 1));
            assertEquals(read.size() / 4096, learner.fractions.size() - 1, "every 4096 records, then 1");
            assertTrue(learner.context.processes().lifetimes().size() > 1, "the reader's context learned processes");
            assertThrows(IllegalStateException.class, () -> TraceFileAccess.learnWith(in, new Recording()),
                    "too late: the first pass is made");
        }
    }

    @Test
    void aReaderWithoutAFirstPassOfItsOwnRefusesALearner() throws Exception {
        try (EtlFile f = EtlFile.open(CorpusFiles.file("perfview__gcevents.etl"))) {
            for (ReadSettings.TraceContext mode : List.of(ReadSettings.TraceContext.NONE,
                    ReadSettings.TraceContext.ONE_PASS)) {
                try (TraceFile in = TraceFile.over(ReadSettings.builder().traceContext(mode).build(), List.of(f))) {
                    assertThrows(IllegalStateException.class, () -> TraceFileAccess.learnWith(in, TraceLearner.NONE),
                            mode.toString());
                }
            }
        }
    }
}
