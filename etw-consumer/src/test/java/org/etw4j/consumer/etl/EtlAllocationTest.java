package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.function.LongSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A header-only scan allocates nothing per record: what a whole pass allocates is bounded by per-buffer and
 * per-cursor costs, far below one small object per record. (Speed is measured with JMH, not here.)
 */
class EtlAllocationTest {

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "perfview__diaghub.diaghub.etl, TIME",
        "perfview__diaghub.diaghub.etl, FILE",
        "perfview__net.4.5.2.x64.etl, TIME",
        "perfview__net.4.5.2.x64.etl, FILE",
        "airbus__ShutdownPerfDiagLogger.etl, TIME",
    })
    void headerOnlyScanAllocatesNothingPerRecord(String name, EtlOrder order) throws Exception {
        LongSupplier allocatedBytes = ThreadAllocation.counterOrSkip();
        Path path = Corpus.file(name);
        try (EtlFile f = EtlFile.open(path)) {
            scan(f, order);   // warm-up: class loading and first-time initialisation
            long before = allocatedBytes.getAsLong();
            long records = scan(f, order);
            long allocated = allocatedBytes.getAsLong() - before;
            int streams = order == EtlOrder.TIME ? f.processorIndexes().length : 1;
            long decompression = f.compressedMode() ? (streams + 1L) * f.header().bufferSize() : 0;
            long budget = 16_384 + 512 * f.bufferCount() + decompression;
            assertTrue(allocated <= budget, name + ": " + allocated + " bytes allocated for " + records
                    + " records, budget " + budget);
            assertTrue(records * 16 > budget, "the budget must be below 16 bytes per record to mean anything");
        }
    }

    private static long scan(EtlFile f, EtlOrder order) {
        EtlCursor c = f.cursor(order);
        long n = 0;
        long sink = 0;
        while (c.advance()) {
            EtlRecordView r = c.record();
            sink += r.kind().ordinal() + r.headerType() + r.providerIdMostSignificantBits() + r.providerIdLeastSignificantBits()
                    + r.timestamp() + r.timestampFileTime() + r.processId() + r.threadId() + r.processorIndex() + r.opcode()
                    + r.eventId() + r.version() + r.level() + r.keyword() + r.userDataLength() + r.extendedDataCount();
            n++;
        }
        return n + (sink == 42 ? 1 : 0) * 0;
    }
}
