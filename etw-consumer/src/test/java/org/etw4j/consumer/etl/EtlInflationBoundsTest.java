package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.etw4j.format.WmiBufferLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader's bounds on decompression (issue 22 items 1 and 3, {@link InflateMemory}): compressed buffers that
 * announce far more data than they store, a file whose buffers together inflate beyond the work budget, and
 * buffers that do not fit the memory bound are each skipped with an {@link EtlWarning.Kind#INFLATION_LIMIT}
 * warning at the buffer's offset, never thrown, never an OutOfMemoryError; the overlapping-match copy gives the
 * same bytes as the byte-by-byte rule it replaces.
 */
class EtlInflationBoundsTest {
    private static final int HEADER = WmiBufferLayout.HEADER_SIZE;
    private static final int MIB = 1 << 20;

    @TempDir
    Path tmp;

    private record Pass(long records, List<EtlWarning> warnings, long warningCount) {
    }

    private Pass read(byte[] bytes, Function<EtlFile, InflateMemory> memory) throws IOException {
        Path p = tmp.resolve("bomb.etl");
        Files.write(p, bytes);
        List<EtlWarning> warnings = new ArrayList<>();
        try (EtlFile f = EtlFile.open(p, EtlReadOptions.lenient(warnings::add))) {
            EtlCursor c = memory == null ? f.cursor() : f.cursor(EtlOrder.TIME, 0, Long.MAX_VALUE, EtlBufferFilter.ALL,
                    memory.apply(f));
            long n = 0;
            while (c.advance()) {
                n++;
            }
            return new Pass(n, warnings, f.warningCount());
        }
    }

    /** File offsets of the data buffers of a {@link CompressionBombs} file (all of one stored size). */
    private static long[] bufferOffsets(byte[] file, int buffers, int pad) {
        int stored = HEADER + CompressionBombs.stream(16, pad).length;
        long first = file.length - (long) buffers * stored;
        long[] offsets = new long[buffers];
        for (int k = 0; k < buffers; k++) {
            offsets[k] = first + (long) k * stored;
        }
        return offsets;
    }

    @Test
    void buffersAnnouncingFarMoreThanTheyStoreAreSkippedWithAWarningEach() throws IOException {
        // A2 in small: 20 buffers of 15 stored bytes, each announcing 1 MiB (a 70,000:1 ratio). Before the fix they
        // were inflated byte by byte, quietly (0 warnings).
        byte[] file = CompressionBombs.file(MIB, 20, 4, 0);
        Pass pass = read(file, null);
        long[] offsets = bufferOffsets(file, 20, 0);
        assertEquals(20, pass.warnings().size(), pass.warnings().toString());
        for (int k = 0; k < 20; k++) {
            EtlWarning w = pass.warnings().get(k);
            assertEquals(EtlWarning.Kind.INFLATION_LIMIT, w.kind(), w.toString());
            assertTrue(w.message().contains((MIB - HEADER) + " bytes of data from 15 stored bytes, more than 1024 to 1"),
                    w.message());
            assertTrue(w.message().contains("records are skipped"), w.message());
        }
        assertEquals(java.util.Arrays.stream(offsets).boxed().toList(), pass.warnings().stream()
                .map(EtlWarning::fileOffset).sorted().toList(), "each warning names its buffer");
        assertEquals(20, pass.warningCount());
        assertEquals(2, pass.records(), "the header buffer's two records are read");
    }

    @Test
    void aFileInflatingBeyondItsWorkBudgetHasTheRestSkippedWithAWarningEach() throws IOException {
        // Each buffer stores 1,115 bytes for 1 MiB (940:1, under the ratio bound); 100 of them would be 100 MiB of work
        // for a 112 KB file. The budget is 64 times the file's size plus two logical buffers.
        int buffers = 100;
        byte[] file = CompressionBombs.file(MIB, buffers, 1, 1100);
        Pass pass = read(file, null);
        long budget = InflateMemory.budgetFor(file.length, MIB);
        long perBuffer = MIB - HEADER;
        long decoded = budget / perBuffer;
        assertEquals(64L * file.length + 2 * MIB, budget);
        assertEquals(buffers - decoded, pass.warnings().size(), pass.warnings().toString());
        long[] offsets = bufferOffsets(file, buffers, 1100);
        for (int i = 0; i < pass.warnings().size(); i++) {
            EtlWarning w = pass.warnings().get(i);
            assertEquals(EtlWarning.Kind.INFLATION_LIMIT, w.kind());
            assertEquals(offsets[(int) decoded + i], w.fileOffset());
            assertEquals(decoded + i + 1, w.bufferIndex());
            assertTrue(w.message().startsWith("the cursor's inflation budget of " + budget + " bytes (64 times the"
                    + " file's " + file.length + " bytes plus two 1048576-byte buffers) is spent"), w.message());
        }
    }

    @Test
    void buffersThatDoNotFitTheMemoryBoundAreWarningsNotErrors() throws IOException {
        // Four processors of 1 MiB buffers under a 2.5 MiB bound: two streams get their array, two do not. Before the
        // fix the reader threw EtlFormatException ("MiB limit") and the rest of the file was lost.
        byte[] file = CompressionBombs.file(MIB, 4, 4, 1100);
        Pass pass = read(file, f -> new InflateMemory(f, 5 * MIB / 2, Long.MAX_VALUE));
        assertEquals(2, pass.warnings().size(), pass.warnings().toString());
        for (EtlWarning w : pass.warnings()) {
            assertEquals(EtlWarning.Kind.INFLATION_LIMIT, w.kind());
            assertTrue(w.message().contains("over its 2 MiB bound (a quarter of the heap, at most 256 MiB; 4 processors)"
                    + "; the buffer's records are skipped"), w.message());
        }
        assertEquals(2, pass.records());
    }

    @Test
    void theMemoryBoundIsAQuarterOfTheHeapAtMost256MiB() {
        // Before the fix the bound was 256 MiB whatever the heap: all of -Xmx256m (repro_A1_memory_bomb.sh).
        assertEquals(64L * MIB, InflateMemory.memoryLimitFor(256L * MIB));
        assertEquals(256L * MIB, InflateMemory.memoryLimitFor(24L << 30));
    }

    @Test
    void overlappingMatchesCopyTheSameBytesAsTheByteByByteRule() {
        Random random = new Random(22);
        for (int trial = 0; trial < 2000; trial++) {
            int before = 1 + random.nextInt(300);
            int offset = 1 + random.nextInt(before);
            int length = 1 + random.nextInt(trial % 10 == 0 ? 70_000 : 600);
            byte[] expected = new byte[before + length];
            for (int i = 0; i < before; i++) {
                expected[i] = (byte) random.nextInt();
            }
            byte[] actual = expected.clone();
            for (int i = before; i < before + length; i++) {
                expected[i] = expected[i - offset];
            }
            assertEquals(before + length, Overlap.copyMatch(actual, before, offset, length));
            assertArrayEquals(expected, actual, "offset " + offset + ", length " + length);
        }
    }
}
