package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes the reader's decompression bounds ({@link InflateMemory}, issue 22 items 1 and 3) with compressed-mode
 * files: the compression bombs of {@link CompressionBombs} (one buffer inflating to its whole logical size from
 * 15 bytes, and under the ratio bound with padding) and the corpus' and builders' compressed seeds, mutated.
 *
 * <p>Invariants, for any bytes: a lenient pass never throws; the bytes it inflates stay within its work budget
 * ({@link InflateMemory#budgetFor}: 64 times the file plus two logical buffers); every buffer skipped for a bound
 * is an {@link EtlWarning.Kind#INFLATION_LIMIT} warning; and the overlapping-match copy equals the byte-by-byte
 * rule on the input's own bytes.
 */
class InflationBudgetFuzzTest {
    private static final Path SCRATCH = scratchFile();

    static Stream<Arguments> seeds() {
        Stream<Arguments> bombs = Stream.of(
                Arguments.of(Named.of("bomb 64 KiB x 8", CompressionBombs.file(64 << 10, 8, 2, 0))),
                Arguments.of(Named.of("bomb under the ratio x 16", CompressionBombs.file(64 << 10, 16, 1, 100))));
        Stream<Arguments> compressed = FuzzSeeds.etlSeeds().entrySet().stream()
                .filter(e -> e.getKey().toLowerCase(java.util.Locale.ROOT).contains("compress")
                        || e.getKey().toLowerCase(java.util.Locale.ROOT).contains("lz"))
                .map(e -> Arguments.of(Named.of(e.getKey(), e.getValue())));
        return Stream.concat(bombs, compressed);
    }

    @MethodSource("seeds")
    @FuzzTest
    void inflationStaysWithinItsBudget(byte[] data) throws IOException {
        overlapCopyMatchesTheByteByByteRule(data);
        Files.write(SCRATCH, data);
        LongAdder limits = new LongAdder();
        EtlFile f;
        try {
            f = EtlFile.open(SCRATCH, EtlReadOptions.lenient(w -> {
                if (w.kind() == EtlWarning.Kind.INFLATION_LIMIT) {
                    limits.increment();
                }
            }));
        } catch (EtlFormatException e) {
            return; // not an .etl file
        }
        try (f) {
            for (EtlOrder order : EtlOrder.values()) {
                InflateMemory memory = new InflateMemory(f);
                EtlCursor c = f.cursor(order, 0, Long.MAX_VALUE, EtlBufferFilter.ALL, memory);
                while (c.advance()) {
                    assertTrue(c.record().size() > 0);
                }
                assertEquals(InflateMemory.budgetFor(f.size(), f.logicalBufferSize()), memory.budget());
                assertTrue(memory.spent() <= memory.budget(), order + ": inflated " + memory.spent()
                        + " bytes, over the budget of " + memory.budget());
            }
        }
    }

    /** The input's first bytes as history, a match taken from the next ones: doubling copy vs byte by byte. */
    private static void overlapCopyMatchesTheByteByByteRule(byte[] data) {
        if (data.length < 4) {
            return;
        }
        int before = 1 + (data[0] & 0x3F);
        int offset = 1 + (data[1] & 0xFF) % before;
        int length = 1 + ((data[2] & 0xFF) << 4 | (data[3] & 0x0F));
        byte[] expected = new byte[before + length];
        for (int i = 0; i < before; i++) {
            expected[i] = data[(4 + i) % data.length];
        }
        byte[] actual = expected.clone();
        for (int i = before; i < expected.length; i++) {
            expected[i] = expected[i - offset];
        }
        assertEquals(expected.length, Overlap.copyMatch(actual, before, offset, length));
        assertTrue(java.util.Arrays.equals(expected, actual), "offset " + offset + ", length " + length);
    }

    private static Path scratchFile() {
        try {
            Path p = Files.createTempFile("etw4j-fuzz-inflate", ".etl");
            p.toFile().deleteOnExit();
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
