package org.etw4j.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlFormatException;
import org.etw4j.consumer.etl.EtlOrder;
import org.etw4j.consumer.etl.EtlReadOptions;
import org.etw4j.consumer.etl.EtlRecordCounts;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.etl.EtlSummary;
import org.etw4j.consumer.etl.FuzzSeeds;
import org.etw4j.format.WmiBufferLayout;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes the pure-Java .etl reader with whole files: every header kind, 32/64-bit, uncompressed, Plain LZ77 and
 * LZNT1 buffers (seeds: {@link FuzzSeeds#etlSeeds()}). Regression mode (the default in {@code verify}) runs the
 * seeds and the saved inputs in {@code EtlReaderFuzzTestInputs/}; {@code JAZZER_FUZZ=1} fuzzes.
 *
 * <p>Invariants, for any bytes:
 * <ul>
 * <li>opening either succeeds or throws {@link IOException} / {@link EtlFormatException} (an unreadable
 *     header); no other exception, no error;</li>
 * <li>no returned record crosses its buffer: it starts after the buffer header, ends within the logical
 *     buffer size and, for an uncompressed buffer, within the file; its user data and extended items lie
 *     inside it;</li>
 * <li>counts add up: the file-order and time-ordered cursors return the same number of records and report the
 *     same number of warnings (they read the same buffers), and each accounts for every record it met
 *     ({@link EtlRecordCounts}: seen = returned + warned, the same in both orders); {@link EtlSummary} counts the same records and
 *     {@link EtlFile#warningCount()} is the opening scan's warnings plus every cursor's; file order is strictly
 *     increasing by (buffer, offset);</li>
 * <li>memory stays bounded: one cursor pass allocates at most the reader's decompression bound (at most 256 MiB)
 *     plus one scratch buffer of the logical buffer size plus 32 MiB, whatever the header claims; the fuzz
 *     JVM runs with {@code -Xmx640m}, so holding more is an {@link OutOfMemoryError} finding.</li>
 * </ul>
 * A lenient cursor never throws: since issue 22 every decompression bound (memory, ratio, work) is a warning
 * ({@code EtlWarning.Kind.INFLATION_LIMIT}); {@code InflationBudgetFuzzTest} checks the work bound itself.
 */
class EtlReaderFuzzTest {
    private static final long SLACK = 32L << 20;
    private static final long DECOMPRESSION_BOUND = 256L << 20;
    private static final Path SCRATCH = scratchFile();

    static Stream<Arguments> seeds() {
        return FuzzSeeds.etlSeeds().entrySet().stream()
                .map(e -> Arguments.of(Named.of(e.getKey(), e.getValue())));
    }

    @MethodSource("seeds")
    @FuzzTest
    void etlFile(byte[] data) throws IOException {
        Files.write(SCRATCH, data);
        check(SCRATCH);
    }

    /** Checks every invariant above on one file. Package-private: the CLI and regression tests reuse it. */
    static void check(Path file) throws IOException {
        LongAdder warnings = new LongAdder();
        EtlFile f;
        try {
            f = EtlFile.open(file, EtlReadOptions.lenient(w -> warnings.increment()));
        } catch (EtlFormatException e) {
            return; // not an .etl file: the header is unreadable
        }
        try (f) {
            long openWarnings = warnings.sum();
            assertEquals(openWarnings, f.warningCount(), "opening scan: listener and counter agree");
            Pass byFile = pass(f, EtlOrder.FILE, warnings);
            Pass byTime = pass(f, EtlOrder.TIME, warnings);
            assertEquals(byFile.records, byTime.records, "records in file order vs time order");
            assertEquals(byFile.counts, byTime.counts, "record accounting in file order vs time order");
            assertEquals(byFile.warnings, byTime.warnings, "warnings in file order vs time order");
            long beforeSummary = f.warningCount();
            EtlSummary s = EtlSummary.of(f);
            assertEquals(byFile.records, s.totalRecords(), "summary total");
            assertEquals(openWarnings + 3 * byFile.warnings, f.warningCount(),
                    "the file's counter = opening scan + the three passes'");
            assertEquals(beforeSummary + byFile.warnings, f.warningCount());
            assertEquals(f.warningCount(), warnings.sum(), "counter and listener agree");
        }
    }

    private record Pass(long records, long warnings, EtlRecordCounts counts) {
    }

    private static Pass pass(EtlFile f, EtlOrder order, LongAdder warnings) {
        long warningsBefore = warnings.sum();
        long allocatedBefore = allocated();
        EtlCursor c = f.cursor(order);
        long records = 0;
        long lastBuffer = -1;
        int lastOffset = -1;
        long logical = f.header().bufferSize();
        while (c.advance()) {
            EtlRecordView r = c.record();
            records++;
            int off = r.offsetInBuffer();
            int size = r.size();
            String where = order + " record " + records + " in buffer " + r.bufferIndex() + " at +" + off;
            assertTrue(off >= WmiBufferLayout.HEADER_SIZE, where + ": starts inside the buffer header");
            assertTrue(size > 0 && off + (long) size <= logical, where + ": " + size + " bytes cross the "
                    + logical + "-byte buffer");
            if (!r.inCompressedBuffer()) {
                assertTrue(r.bufferFileOffset() + off + size <= f.size(), where + ": runs past the file");
                assertEquals(r.bufferFileOffset() + off, r.fileOffset(), where);
            }
            int ud = r.userDataOffsetInRecord();
            assertTrue(ud >= 0 && ud + (long) r.userDataLength() == size, where + ": user data "
                    + ud + "+" + r.userDataLength() + " vs record size " + size);
            assertEquals(r.userDataLength(), r.userData().remaining(), where);
            long ext = 0;
            for (int i = 0; i < r.extendedDataCount(); i++) {
                ByteBuffer item = r.extendedData(i);
                assertEquals(r.extendedDataSize(i), item.remaining(), where + ": extended item " + i);
                ext += item.remaining();
            }
            assertTrue(ext <= ud, where + ": extended items larger than the space before the user data");
            assertEquals(size, r.recordBytes().remaining(), where);
            if (order == EtlOrder.FILE) {
                assertTrue(r.bufferIndex() > lastBuffer || (r.bufferIndex() == lastBuffer && off > lastOffset),
                        where + ": file order goes backwards");
                lastBuffer = r.bufferIndex();
                lastOffset = off;
            }
        }
        // Record accounting: every record header the walk reached was returned or warned, none dropped.
        EtlRecordCounts counts = c.recordCounts();
        long passWarnings = warnings.sum() - warningsBefore;
        assertEquals(records, counts.returned(), order + ": records returned vs counted");
        assertEquals(counts.seen(), counts.returned() + counts.warned(), order + ": seen != returned + warned: "
                + counts);
        assertTrue(counts.warned() <= passWarnings, order + ": " + counts.warned() + " records warned, but only "
                + passWarnings + " warnings");
        long spent = allocated() - allocatedBefore;
        long bound = DECOMPRESSION_BOUND + logical + SLACK;
        assertTrue(spent <= bound, order + " pass allocated " + spent + " bytes, over its " + bound + "-byte bound");
        return new Pass(records, passWarnings, counts);
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static Path scratchFile() {
        try {
            Path p = Files.createTempFile("etw4j-fuzz", ".etl");
            p.toFile().deleteOnExit();
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
