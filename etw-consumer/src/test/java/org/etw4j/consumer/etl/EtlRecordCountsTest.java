package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.format.TraceHeaderTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Record accounting ({@link EtlRecordCounts}): every record header the reader reaches is returned or counted as
 * a warning; seen = returned + warned once a cursor has ended, in both orders, on synthetic files with skipped
 * records and on every corpus file.
 */
class EtlRecordCountsTest {
    @TempDir
    Path tmp;

    private static byte[] patch16(byte[] record, int offset, int value) {
        ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN).putShort(offset, (short) value);
        return record;
    }

    /** A record of a header type ETW does not write (0x0C), well formed otherwise. */
    private static byte[] unsupported(int length) {
        byte[] r = new byte[length];
        ByteBuffer.wrap(r).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 0xC000_0000 | (0x0C << 16) | length);
        return r;
    }

    /**
     * The {@link EtlRecordKindsTest#allKinds} records (8 over two processors) plus four that are skipped with a
     * warning each, and one good record hidden behind a record whose size cannot be trusted (the rest of its
     * buffer is skipped: one warning, not a record seen).
     */
    private static EtlBuilder withSkippedRecords(boolean compressed) {
        EtlBuilder b = EtlRecordKindsTest.allKinds(compressed);
        long t = EtlRecordKindsTest.T0;
        b.add(0, unsupported(24));
        // An event whose first extended item has an ItemSize below the item header.
        byte[] badExt = EtlBuilder.event(TraceHeaderTypes.EVENT_HEADER64, 104, 204, t + 80,
                EtlRecordKindsTest.PROVIDER, 514, 0, 11, 5, 1, 77, 1, 15, 16, EtlRecordKindsTest.ACTIVITY,
                List.of(new EtlBuilder.Ext(EventHeaderLayout.EXT_PROV_TRAITS, EtlBuilder.providerTraits("P"))),
                EtlBuilder.bytes(1, 2));
        b.add(1, patch16(badExt, EventHeaderLayout.HEADER_SIZE + EventHeaderLayout.EXT_ITEM_SIZE, 3));
        // A message whose option flags need more bytes than the record has.
        byte[] badMessage = EtlBuilder.message(0x04, 14, 0, null, 0x4321, 0, 0, 0, EtlBuilder.bytes(0xF4));
        b.add(1, patch16(badMessage, ClassicLayout.MESSAGE_OPTION_FLAGS, 0x01 | 0x02 | 0x08 | 0x20));
        // A compact record claiming 4 bytes: the rest of processor 0's buffer is skipped, hiding the next record.
        byte[] tooSmall = EtlBuilder.compact(TraceHeaderTypes.COMPACT64, 3, 10, 101, 201, t + 90,
                EtlBuilder.bytes(9, 9));
        b.add(0, patch16(tooSmall, SystemTraceHeaderLayout.SIZE, 4));
        b.add(0, EtlBuilder.compact(TraceHeaderTypes.COMPACT64, 3, 10, 101, 201, t + 95, EtlBuilder.bytes(8)));
        return b;
    }

    private Path write(byte[] bytes) throws IOException {
        Path p = Files.createTempFile(tmp, "counts", ".etl");
        Files.write(p, bytes);
        return p;
    }

    private static long returnedByCleanFile(EtlBuilder clean, Path p) throws IOException {
        Files.write(p, clean.build());
        try (EtlFile f = EtlFile.open(p, EtlReadOptions.strictMode())) {
            EtlCursor c = f.cursor(EtlOrder.FILE);
            long n = 0;
            while (c.advance()) {
                n++;
            }
            assertEquals(new EtlRecordCounts(n, n, 0), c.recordCounts(), "a clean file: everything returned");
            return n;
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtlOrder.class)
    void skippedRecordsAreCountedAsWarnings(EtlOrder order) throws IOException {
        for (boolean compressed : new boolean[] {false, true}) {
            long clean = returnedByCleanFile(EtlRecordKindsTest.allKinds(compressed), tmp.resolve("clean.etl"));
            List<EtlWarning> warnings = new ArrayList<>();
            try (EtlFile f = EtlFile.open(write(withSkippedRecords(compressed).build()),
                    EtlReadOptions.lenient(warnings::add))) {
                EtlCursor c = f.cursor(order);
                long returned = 0;
                while (c.advance()) {
                    returned++;
                    EtlRecordCounts mid = c.recordCounts();
                    assertEquals(returned, mid.returned());
                    assertTrue(mid.pending() >= 0 && mid.pending() <= f.processorIndexes().length,
                            "pending " + mid.pending() + ": at most one record per stream");
                }
                String what = order + (compressed ? " compressed" : "");
                assertEquals(clean, returned, what + ": the good records");
                EtlRecordCounts counts = c.recordCounts();
                assertEquals(new EtlRecordCounts(clean + 4, clean, 4), counts, what + ": " + warnings);
                assertEquals(0, counts.pending(), what);
                List<EtlWarning.Kind> kinds = warnings.stream().map(EtlWarning::kind).toList();
                assertEquals(4, kinds.stream().filter(k -> k == EtlWarning.Kind.BAD_RECORD
                        || k == EtlWarning.Kind.UNSUPPORTED_RECORD).count(), what + ": " + warnings);
                assertTrue(kinds.contains(EtlWarning.Kind.UNSUPPORTED_RECORD), what);
            }
        }
    }

    @Test
    void aMergedCursorAddsUpItsFiles() throws IOException {
        Path a = write(withSkippedRecords(false).build());
        Path b = write(EtlRecordKindsTest.allKinds(true).build());
        try (EtlFile fa = EtlFile.open(a, EtlReadOptions.lenient(EtlWarningListener.IGNORE));
             EtlFile fb = EtlFile.open(b, EtlReadOptions.lenient(EtlWarningListener.IGNORE))) {
            EtlCursor c = EtlFile.merge(List.of(fa, fb));
            long n = 0;
            while (c.advance()) {
                n++;
            }
            EtlRecordCounts counts = c.recordCounts();
            assertEquals(n, counts.returned());
            assertEquals(4, counts.warned());
            assertEquals(counts.seen(), counts.returned() + counts.warned());
        }
    }

    static List<Path> corpus() {
        return Corpus.files();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void everyCorpusFileAddsUp(Path etl) throws IOException {
        for (EtlOrder order : EtlOrder.values()) {
            List<EtlWarning> warnings = new ArrayList<>();
            try (EtlFile f = EtlFile.open(etl, EtlReadOptions.lenient(warnings::add))) {
                EtlCursor c = f.cursor(order);
                long n = 0;
                while (c.advance()) {
                    n++;
                }
                EtlRecordCounts counts = c.recordCounts();
                assertEquals(n, counts.returned(), order + " returned");
                assertEquals(counts.seen(), counts.returned() + counts.warned(), order + ": " + counts);
                long recordWarnings = warnings.stream().filter(w -> w.kind() == EtlWarning.Kind.BAD_RECORD
                        || w.kind() == EtlWarning.Kind.UNSUPPORTED_RECORD).count();
                assertEquals(recordWarnings, counts.warned(), order + ": every warned record is a warning");
            }
        }
    }
}
