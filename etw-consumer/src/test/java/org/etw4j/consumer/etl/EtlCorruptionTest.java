package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.etw4j.format.LogfileHeaderLayout;
import org.etw4j.format.TraceHeaderTypes;
import org.etw4j.format.WmiBufferLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input: truncated and corrupted variants of corpus files (made here in a temp dir, never committed),
 * synthetic files with absurd sizes, and random byte flips. The reader must either throw
 * {@link EtlFormatException} (naming file offset and buffer) or skip and count; never anything else, never
 * hang, never run out of memory.
 */
class EtlCorruptionTest {
    @TempDir
    Path tmp;

    private Path variant(String name, byte[] bytes) throws IOException {
        Path p = tmp.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    private static byte[] corpusBytes(String name) throws IOException {
        return Files.readAllBytes(Corpus.file(name));
    }

    private static long total(Path p, List<EtlWarning> warnings) throws IOException {
        try (EtlFile f = EtlFile.open(p, EtlReadOptions.lenient(warnings::add))) {
            long n = 0;
            EtlCursor c = f.cursor();
            while (c.advance()) {
                n++;
            }
            assertEquals(warnings.size(), f.warningCount());
            return n;
        }
    }

    private static void putInt(byte[] b, int offset, int value) {
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(offset, value);
    }

    private static void putShort(byte[] b, int offset, int value) {
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(offset, (short) value);
    }

    // lxcore_kernel.etl: 3 buffers of 0x2000; buffer 0 holds 2 SYSTEM records, buffers 1 and 2 one event each.

    @Test
    void badBufferSizeFieldSkipsThatBuffer() throws IOException {
        byte[] b = corpusBytes("airbus__lxcore_kernel.etl");
        putInt(b, 0x2000 + WmiBufferLayout.BUFFER_SIZE, 0x1234);
        Path p = variant("bad-size.etl", b);
        List<EtlWarning> w = new ArrayList<>();
        assertEquals(3, total(p, w));
        assertEquals(1, w.size(), w.toString());
        assertEquals(EtlWarning.Kind.BAD_BUFFER, w.get(0).kind());
        assertEquals(0x2000, w.get(0).fileOffset());
        assertEquals(1, w.get(0).bufferIndex());
        EtlFormatException e = assertThrows(EtlFormatException.class, () -> EtlFile.open(p, EtlReadOptions.strictMode()));
        assertTrue(e.getMessage().contains("file offset 0x2000") && e.getMessage().contains("buffer 1"), e.getMessage());
        assertTrue(e.getMessage().contains("bad-size.etl"), e.getMessage());
        assertEquals(0x2000, e.fileOffset());
        assertEquals(1, e.bufferIndex());
    }

    @Test
    void savedOffsetPastTheBufferIsReportedAndOffsetUsed() throws IOException {
        byte[] b = corpusBytes("airbus__lxcore_kernel.etl");
        putInt(b, 0x4000 + WmiBufferLayout.SAVED_OFFSET, 0x7FFF_FFF0);
        List<EtlWarning> w = new ArrayList<>();
        assertEquals(4, total(variant("bad-saved.etl", b), w), "Offset (0x30) still says where the records end");
        assertEquals(List.of(EtlWarning.Kind.BAD_BUFFER), w.stream().map(EtlWarning::kind).toList());
        assertEquals(2, w.get(0).bufferIndex());
        assertTrue(w.get(0).message().contains("read up to Offset"), w.get(0).message());
    }

    @Test
    void savedOffsetAndOffsetPastTheBufferSkipThatBuffer() throws IOException {
        byte[] b = corpusBytes("airbus__lxcore_kernel.etl");
        putInt(b, 0x4000 + WmiBufferLayout.SAVED_OFFSET, 0x7FFF_FFF0);
        putInt(b, 0x4000 + WmiBufferLayout.OFFSET, 0x10);
        List<EtlWarning> w = new ArrayList<>();
        assertEquals(3, total(variant("bad-ends.etl", b), w));
        assertEquals(List.of(EtlWarning.Kind.BAD_BUFFER), w.stream().map(EtlWarning::kind).toList());
        assertEquals(2, w.get(0).bufferIndex());
    }

    @Test
    void recordSizeBelowItsHeaderSkipsTheRestOfTheBuffer() throws IOException {
        byte[] b = corpusBytes("airbus__lxcore_kernel.etl");
        int record = 0x2000 + WmiBufferLayout.HEADER_SIZE;
        assertEquals(TraceHeaderTypes.EVENT_HEADER64, b[record + 2]);
        putShort(b, record, 0x10);
        Path p = variant("small-record.etl", b);
        List<EtlWarning> w = new ArrayList<>();
        assertEquals(3, total(p, w));
        assertEquals(EtlWarning.Kind.BAD_RECORD, w.get(0).kind());
        assertEquals(record, w.get(0).fileOffset());
        try (EtlFile f = EtlFile.open(p, EtlReadOptions.strictMode())) {
            EtlCursor c = f.cursor(EtlOrder.FILE);
            EtlFormatException e = assertThrows(EtlFormatException.class, () -> c.forEachRemaining(r -> { }));
            assertTrue(e.getMessage().contains("0x2048") && e.getMessage().contains("buffer 1"), e.getMessage());
        }
    }

    @Test
    void badExtendedDataSkipsOnlyThatRecord() throws IOException {
        byte[] b = corpusBytes("airbus__lxcore_kernel.etl");
        int firstItem = 0x2000 + WmiBufferLayout.HEADER_SIZE + 0x50;
        putShort(b, firstItem, 3);   // ItemSize below the 8-byte item header
        List<EtlWarning> w = new ArrayList<>();
        assertEquals(3, total(variant("bad-ext.etl", b), w));
        assertEquals(EtlWarning.Kind.BAD_RECORD, w.get(0).kind());
        assertTrue(w.get(0).message().contains("extended data"), w.get(0).message());
    }

    @Test
    void unknownMarkerSkipsTheRestOfTheBuffer() throws IOException {
        byte[] b = corpusBytes("airbus__lxcore_kernel.etl");
        b[0x2000 + WmiBufferLayout.HEADER_SIZE + 3] = 0x12;
        List<EtlWarning> w = new ArrayList<>();
        assertEquals(3, total(variant("bad-marker.etl", b), w));
        assertTrue(w.get(0).message().contains("unknown record marker"), w.get(0).message());
    }

    @Test
    void truncatedCopiesAreReadAsFarAsTheyGo() throws IOException {
        for (String name : List.of("airbus__lxcore_kernel.etl", "perfview__primitive-types.etl", "perfview__smallEtlFile.etl",
                "perfview__gcrundownevents.clrRundown.etl")) {
            byte[] full = corpusBytes(name);
            long fullTotal = total(Corpus.file(name), new ArrayList<>());
            int bufferSize = ByteBuffer.wrap(full).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
            int[] cuts = {0, 1, 0x47, 0x48, 0x100, bufferSize - 1, bufferSize, bufferSize + 0x47, bufferSize + 0x100,
                full.length / 2, full.length - 1};
            for (int cut : cuts) {
                if (cut < 0 || cut >= full.length) {
                    continue;
                }
                byte[] part = java.util.Arrays.copyOf(full, cut);
                Path p = variant("cut-" + cut + "-" + name, part);
                List<EtlWarning> w = new ArrayList<>();
                long n;
                try {
                    n = total(p, w);
                } catch (EtlFormatException e) {
                    assertTrue(cut < 0x48 + 0x20 + 0x118 + 64, name + " cut at " + cut + " rejected: " + e.getMessage());
                    assertTrue(e.getMessage().contains(p.getFileName().toString()), e.getMessage());
                    continue;
                }
                assertTrue(n <= fullTotal, name + " cut at " + cut);
                assertTrue(!w.isEmpty(), name + " cut at " + cut + " must warn");
                assertThrows(EtlFormatException.class, () -> EtlFile.open(p, EtlReadOptions.strictMode()).close(),
                        name + " cut at " + cut + " strict");
            }
        }
    }

    @Test
    void corruptCompressedDataIsSkippedWithAWarning() throws IOException {
        byte[] b = corpusBytes("perfview__smallEtlFile.etl");
        int second = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(0);   // buffer 0's stored size
        assertTrue((b[second + WmiBufferLayout.BUFFER_FLAG] & WmiBufferLayout.FLAG_COMPRESSED) != 0);
        putInt(b, second + WmiBufferLayout.HEADER_SIZE, -1);   // first token: a match with nothing before it
        List<EtlWarning> w = new ArrayList<>();
        assertEquals(1, total(variant("bad-lz77.etl", b), w));
        assertEquals(List.of(EtlWarning.Kind.BAD_COMPRESSED_DATA), w.stream().map(EtlWarning::kind).toList());
        assertEquals(second, w.get(0).fileOffset());
        assertEquals(1, w.get(0).bufferIndex());
    }

    @Test
    void lznt1LookingDataIsNamedInTheWarning() throws IOException {
        byte[] b = corpusBytes("perfview__smallEtlFile.etl");
        int second = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        // An LZNT1 compressed-chunk header (0xB000 | size - 3) where the Plain LZ77 flags word should be.
        putShort(b, second + WmiBufferLayout.HEADER_SIZE, 0xB000 | 0x40);
        putShort(b, second + WmiBufferLayout.HEADER_SIZE + 2, 0xFFFF);
        List<EtlWarning> w = new ArrayList<>();
        total(variant("lznt1.etl", b), w);
        assertEquals(EtlWarning.Kind.BAD_COMPRESSED_DATA, w.get(0).kind());
        assertTrue(w.get(0).message().contains("LZNT1"), w.get(0).message());
        EtlFormatException e = assertThrows(EtlFormatException.class, () -> {
            try (EtlFile f = EtlFile.open(variant("lznt1-strict.etl", b), EtlReadOptions.strictMode())) {
                f.cursor().forEachRemaining(r -> { });
            }
        });
        assertTrue(e.getMessage().contains("buffer 1") && e.getMessage().contains("0x" + Integer.toHexString(second)),
                e.getMessage());
    }

    @Test
    void brokenChainInACompressedFileStopsThere() throws IOException {
        byte[] b = corpusBytes("perfview__smallEtlFile.etl");
        int second = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        putInt(b, second + WmiBufferLayout.BUFFER_SIZE, 0x7FFF_0000);
        List<EtlWarning> w = new ArrayList<>();
        assertEquals(1, total(variant("chain.etl", b), w));
        assertEquals(List.of(EtlWarning.Kind.BROKEN_CHAIN, EtlWarning.Kind.BUFFER_COUNT_MISMATCH),
                w.stream().map(EtlWarning::kind).toList());
    }

    @Test
    void notAnEtlFileIsRejected() throws IOException {
        assertThrows(EtlFormatException.class, () -> EtlFile.open(variant("empty.etl", new byte[0])));
        assertThrows(EtlFormatException.class, () -> EtlFile.open(variant("zeros.etl", new byte[8192])));
        byte[] noise = new byte[65536];
        new Random(1).nextBytes(noise);
        EtlFormatException e = assertThrows(EtlFormatException.class, () -> EtlFile.open(variant("noise.etl", noise)));
        assertTrue(e.getMessage().startsWith("not an .etl file"), e.getMessage());
        assertEquals(0, e.bufferIndex());
    }

    @Test
    void absurdHeaderSizesAreRejected() throws IOException {
        byte[] b = corpusBytes("airbus__lxcore_kernel.etl");
        int logfile = WmiBufferLayout.HEADER_SIZE + 0x20;
        byte[] huge = b.clone();
        putInt(huge, logfile + LogfileHeaderLayout.BUFFER_SIZE, 0x7FFF_FFFF);
        EtlFormatException e = assertThrows(EtlFormatException.class, () -> EtlFile.open(variant("huge.etl", huge)));
        assertTrue(e.getMessage().contains("BufferSize"), e.getMessage());
        byte[] tiny = b.clone();
        putInt(tiny, logfile + LogfileHeaderLayout.BUFFER_SIZE, 16);
        assertThrows(EtlFormatException.class, () -> EtlFile.open(variant("tiny.etl", tiny)));
        byte[] record = b.clone();
        putShort(record, WmiBufferLayout.HEADER_SIZE + 4, 0xFFFF);   // header record larger than the file region
        byte[] small = java.util.Arrays.copyOf(record, 0x200);
        assertThrows(EtlFormatException.class, () -> EtlFile.open(variant("record.etl", small)));
        byte[] count = b.clone();
        putInt(count, logfile + LogfileHeaderLayout.BUFFERS_WRITTEN, Integer.MAX_VALUE);
        List<EtlWarning> w = new ArrayList<>();
        assertEquals(4, total(variant("count.etl", count), w));
        assertEquals(List.of(EtlWarning.Kind.BUFFER_COUNT_MISMATCH), w.stream().map(EtlWarning::kind).toList());
    }

    /** Random byte flips: a bounded number of mutants per file, each fully read through every accessor. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void randomByteFlipsOnlyEverRaiseEtlFormatException() throws IOException {
        Random random = new Random(20_240_601L);
        int mutants = 0;
        int rejected = 0;
        long warnings = 0;
        for (String name : List.of("airbus__lxcore_kernel.etl", "perfview__smallEtlFile.etl", "perfview__primitive-types.etl",
                "perfview__gcrundownevents.clrRundown.etl", "krabsetw__powershell.etl")) {
            byte[] original = corpusBytes(name);
            for (int i = 0; i < 80; i++) {
                byte[] b = original.clone();
                int flips = 1 + random.nextInt(16);
                for (int k = 0; k < flips; k++) {
                    // Half of the flips land in headers (buffer and record headers), where they hurt most.
                    int at = random.nextBoolean() ? random.nextInt(b.length)
                            : (random.nextInt(b.length / 0x200 + 1) * 0x200 + random.nextInt(0xA0)) % b.length;
                    b[at] ^= (byte) (1 << random.nextInt(8));
                }
                if (random.nextInt(8) == 0) {
                    b = java.util.Arrays.copyOf(b, random.nextInt(b.length));
                }
                Path p = tmp.resolve("mutant.etl");
                Files.write(p, b);
                mutants++;
                try {
                    warnings += readEverything(p, EtlReadOptions.DEFAULT);
                } catch (EtlFormatException expected) {
                    rejected++;
                } catch (RuntimeException | Error e) {
                    fail(name + " mutant " + i + ": " + e, e);
                }
                try {
                    readEverything(p, EtlReadOptions.strictMode());
                } catch (EtlFormatException expected) {
                    // fine
                } catch (RuntimeException | Error e) {
                    fail(name + " mutant " + i + " (strict): " + e, e);
                }
            }
        }
        assertEquals(400, mutants);
        assertTrue(rejected > 0 && rejected < mutants, "rejected " + rejected + " of " + mutants);
        assertTrue(warnings > 0, "lenient reads counted warnings");
    }

    private static long readEverything(Path p, EtlReadOptions options) throws IOException {
        try (EtlFile f = EtlFile.open(p, options)) {
            for (EtlOrder order : EtlOrder.values()) {
                EtlCursor c = f.cursor(order);
                while (c.advance()) {
                    EtlRecordView r = c.record();
                    r.copy();
                    r.providerId();
                    r.pointerSize();
                    r.timestampInstant();
                    r.messageSequence();
                    r.messageComponentId();
                    r.parentGuid();
                    r.recordBytes();
                    r.toString();
                    if (r.extendedDataCount() > 0) {
                        EtlSummary.traceLoggingProviderName(r);
                    }
                }
            }
            EtlSummary.of(f).toJson();
            return f.warningCount();
        }
    }
}
