package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.etw4j.Guid;
import org.etw4j.format.LogfileHeaderLayout;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.format.TraceHeaderTypes;
import org.etw4j.format.WmiBufferLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * End to end: .etl files rewritten with LZNT1-compressed buffers ({@link Lznt1EtlRewriter}, in a temp dir)
 * must give exactly the records of the original, in file and in time order; the corpus' Plain LZ77 file
 * must still be read as Plain LZ77 buffer by buffer; a broken LZNT1 buffer is reported with its offset.
 */
class Lznt1EtlTest {
    private static final Guid PROVIDER = Guid.parse("7c3e5f8a-1d2b-4c6e-9a0f-123456789abc");
    private static final long T0 = 1_000_000L;

    @TempDir
    Path tmp;

    static List<Path> corpus() {
        return Corpus.files();
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = tmp.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    /**
     * A record's copy without what legitimately differs between the two files: the name, buffer offsets and
     * the EVENT_TRACE_COMPRESSED_MODE bit the rewrite sets in the logfile header record.
     */
    private static EtlRecord normalized(EtlRecord r) {
        byte[] user = r.userData();
        if (r.bufferIndex() == 0 && r.hookId() == SystemTraceHeaderLayout.HOOK_LOGFILE_HEADER) {
            ByteBuffer b = ByteBuffer.wrap(user).order(ByteOrder.LITTLE_ENDIAN);
            int mode = LogfileHeaderLayout.LOG_FILE_MODE;
            b.putInt(mode, b.getInt(mode) & ~LogfileHeaderLayout.MODE_COMPRESSED);
        }
        return new EtlRecord("-", r.kind(), r.headerType(), r.pointerSize(), r.providerId(), r.eventId(), r.version(),
                r.channel(), r.level(), r.opcode(), r.task(), r.keyword(), r.hookId(), r.processId(), r.threadId(),
                r.processorIndex(), r.timestamp(), r.fileTime(), r.kernelTime(), r.userTime(), r.activityId(),
                r.headerFlags(), r.eventProperty(), r.extendedData(), user, r.bufferIndex(), 0,
                r.offsetInBuffer());
    }

    /** Every record in the given order; and, per record, the compression of its buffer. */
    private static List<EtlRecord> records(EtlFile f, EtlOrder order, List<BufferCompression> compressions) {
        List<EtlRecord> out = new ArrayList<>();
        EtlCursor c = f.cursor(order);
        while (c.advance()) {
            out.add(normalized(c.record().copy()));
            if (compressions != null) {
                compressions.add(c.record().bufferCompression());
            }
        }
        return out;
    }

    private void assertSameRecords(Path original, byte[] rewritten, String name) throws IOException {
        Path copy = write(name, rewritten);
        try (EtlFile a = EtlFile.open(original, EtlReadOptions.strictMode());
                EtlFile b = EtlFile.open(copy, EtlReadOptions.strictMode())) {
            assertTrue(b.compressedMode());
            List<BufferCompression> compressions = new ArrayList<>();
            List<EtlRecord> fileOrder = records(b, EtlOrder.FILE, compressions);
            List<EtlRecord> expected = records(a, EtlOrder.FILE, null);
            assertEquals(expected.size(), fileOrder.size(), "record count");
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i), fileOrder.get(i), "record " + i + " in file order");
                BufferCompression c = compressions.get(i);
                assertTrue(c == null || c == BufferCompression.LZNT1, "record " + i + ": " + c);
            }
            assertTrue(compressions.contains(BufferCompression.LZNT1), "some records came from LZNT1 buffers");
            assertEquals(records(a, EtlOrder.TIME, null), records(b, EtlOrder.TIME, null), "time order");
            assertEquals(0, b.warningCount());
        }
    }

    /** Rewritten corpus files, kept for the tests that share them (rewriting the large ones takes seconds). */
    private static final Map<Path, Lznt1EtlRewriter.Result> REWRITTEN = new ConcurrentHashMap<>();

    private static Lznt1EtlRewriter.Result rewritten(Path etl) {
        return REWRITTEN.computeIfAbsent(etl, p -> {
            try {
                return Lznt1EtlRewriter.rewrite(Files.readAllBytes(p), Lznt1Encoder.Mode.BEST, true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void corpusFileRewrittenWithLznt1BuffersReadsTheSame(Path etl) throws IOException {
        Lznt1EtlRewriter.Result r = rewritten(etl);
        assertTrue(r.lznt1Buffers() > 0, "compressed buffers: " + r.lznt1Buffers() + " of " + r.buffers());
        assertSameRecords(etl, r.file(), "lznt1-" + etl.getFileName());
    }

    @Test
    void everyChunkFormAndTerminationReadsTheSame() throws IOException {
        Path etl = Corpus.file("krabsetw__powershell.etl");
        byte[] bytes = Files.readAllBytes(etl);
        for (Lznt1Encoder.Mode mode : Lznt1Encoder.Mode.values()) {
            for (boolean terminator : new boolean[] {true, false}) {
                Lznt1EtlRewriter.Result r = Lznt1EtlRewriter.rewrite(bytes, mode, terminator);
                assertSameRecords(etl, r.file(), "lznt1-" + mode + "-" + terminator + ".etl");
            }
        }
    }

    @Test
    void lznt1BuffersAreDecodedWithoutAllocatingPerBuffer() throws Exception {
        LongSupplier allocatedBytes = ThreadAllocation.counterOrSkip();
        Path path = write("alloc.etl", rewritten(Corpus.file("perfview__net.4.5.2.x64.etl")).file());
        try (EtlFile f = EtlFile.open(path, EtlReadOptions.strictMode())) {
            long records = scan(f);   // warm-up
            long before = allocatedBytes.getAsLong();
            assertEquals(records, scan(f));
            long allocated = allocatedBytes.getAsLong() - before;
            long decompression = (f.processorIndexes().length + 1L) * f.header().bufferSize();
            long budget = 16_384 + 512 * f.bufferCount() + decompression;
            assertTrue(allocated <= budget, allocated + " bytes allocated for " + records + " records in "
                    + f.bufferCount() + " buffers, budget " + budget);
        }
    }

    private static long scan(EtlFile f) {
        EtlCursor c = f.cursor();
        long n = 0;
        while (c.advance()) {
            assertTrue(c.record().bufferIndex() == 0 || c.record().bufferCompression() == BufferCompression.LZNT1);
            n++;
        }
        return n;
    }

    @Test
    void corpusPlainLz77FileIsStillReadAsPlainLz77() throws IOException {
        for (String name : List.of("perfview__net.4.5.2.x64.etl", "perfview__smallEtlFile.etl")) {
            try (EtlFile f = EtlFile.open(Corpus.file(name), EtlReadOptions.strictMode())) {
                List<BufferCompression> compressions = new ArrayList<>();
                List<EtlRecord> all = records(f, EtlOrder.FILE, compressions);
                assertFalse(all.isEmpty());
                long plain = compressions.stream().filter(c -> c == BufferCompression.PLAIN_LZ77).count();
                assertTrue(plain > 0, name);
                assertTrue(compressions.stream().allMatch(c -> c == null || c == BufferCompression.PLAIN_LZ77), name);
                assertEquals(0, f.warningCount());
            }
        }
    }

    /** Three processors, payloads of mixed compressibility, 64 KiB buffers (16 chunks each). */
    private static EtlBuilder synthetic() {
        EtlBuilder b = new EtlBuilder();
        b.bufferSize = 0x10000;
        Random random = new Random(5);
        for (int i = 0; i < 3000; i++) {
            byte[] payload = new byte[random.nextInt(300)];
            if (i % 3 == 0) {
                random.nextBytes(payload);
            } else {
                String text = "payload " + (i % 17);
                for (int k = 0; k < payload.length; k++) {
                    payload[k] = (byte) text.charAt(k % text.length());
                }
            }
            b.add(i % 3, EtlBuilder.event(TraceHeaderTypes.EVENT_HEADER64, 100 + i % 7, 4, T0 + i, PROVIDER, i % 50, 0, 0,
                    4, 0, 0, 0, 0, 0, Guid.NULL, List.of(), payload));
        }
        return b;
    }

    @Test
    void syntheticFileRewrittenWithLznt1BuffersReadsTheSame() throws IOException {
        Path original = write("synthetic.etl", synthetic().build());
        Lznt1EtlRewriter.Result r = Lznt1EtlRewriter.rewrite(Files.readAllBytes(original), Lznt1Encoder.Mode.BEST, false);
        assertEquals(r.buffers() - 1, r.lznt1Buffers(), "every data buffer compressed");
        assertSameRecords(original, r.file(), "synthetic-lznt1.etl");
    }

    @Test
    void aBrokenLznt1BufferIsReportedWithItsOffsetAndIndex() throws IOException {
        Lznt1EtlRewriter.Result r = Lznt1EtlRewriter.rewrite(synthetic().build(), Lznt1Encoder.Mode.BEST, true);
        byte[] b = r.file().clone();
        ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int second = le.getInt(0);   // buffer 0 is stored at its full size
        assertTrue((le.getShort(second + WmiBufferLayout.BUFFER_FLAG) & WmiBufferLayout.FLAG_COMPRESSED) != 0);
        // Walk to the second chunk of buffer 1 and break its signature.
        int chunk = second + WmiBufferLayout.HEADER_SIZE;
        int first = le.getShort(chunk) & 0xFFFF;
        int next = chunk + 2 + (first & 0xFFF) + 1;
        le.putShort(next, (short) (le.getShort(next) & 0x8FFF | 0x5000));
        long total = 0;
        long inBufferOne = 0;
        try (EtlFile f = EtlFile.open(write("whole.etl", r.file()), EtlReadOptions.strictMode())) {
            EtlCursor c = f.cursor(EtlOrder.FILE);
            while (c.advance()) {
                total++;
                inBufferOne += c.record().bufferIndex() == 1 ? 1 : 0;
            }
        }
        assertTrue(inBufferOne > 0);
        List<EtlWarning> warnings = new ArrayList<>();
        try (EtlFile f = EtlFile.open(write("broken.etl", b), EtlReadOptions.lenient(warnings::add))) {
            assertEquals(total - inBufferOne, records(f, EtlOrder.FILE, null).size(), "only buffer 1 is skipped");
        }
        assertEquals(1, warnings.size(), warnings.toString());
        EtlWarning w = warnings.get(0);
        assertEquals(EtlWarning.Kind.BAD_COMPRESSED_DATA, w.kind());
        assertEquals(second, w.fileOffset());
        assertEquals(1, w.bufferIndex());
        assertTrue(w.message().contains("lacks the LZNT1 signature") && w.message().contains("at byte "
                + (next - chunk)), w.message());
        EtlFormatException e = assertThrows(EtlFormatException.class, () -> {
            try (EtlFile f = EtlFile.open(write("broken-strict.etl", b), EtlReadOptions.strictMode())) {
                f.cursor().forEachRemaining(x -> { });
            }
        });
        assertTrue(e.getMessage().contains("buffer 1") && e.getMessage().contains("0x" + Integer.toHexString(second)),
                e.getMessage());
    }
}
