package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.etw4j.format.LogfileHeaderLayout;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.format.WmiBufferLayout;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input files at the command line ({@code etw summary}, {@code etw dump}): each ends with a one-line
 * error (exit 1, as {@code etw --help} documents: 0 ok, 1 runtime error, 2 usage error) or with its problems
 * counted as warnings (exit 0), never a stack trace. Memory: the reader maps the file (no heap per file byte)
 * and holds at most one cursor's decompressed buffers (256 MiB, compressed files only) plus the decoder's
 * schemas; the uncompressed multi-GB sparse file is read by a JVM limited to 64 MiB of heap.
 */
class HostileFilesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int LOGFILE = WmiBufferLayout.HEADER_SIZE + SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE;

    @TempDir
    Path dir;

    /** A real, small, uncompressed trace (8 KiB buffers) copied to the temp folder. */
    private Path copyOfSmallTrace(String name) throws IOException {
        return Files.copy(SharedData.resolve("etl-corpus/airbus__lxcore_kernel.etl"), dir.resolve(name));
    }

    private static void patchInt(Path file, int offset, int value) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            byte[] b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
            f.seek(offset);
            f.write(b);
        }
    }

    private static void assertOneLineError(Cli.Result r, String... fragments) {
        assertEquals(EtwCommand.FAILED, r.code(), r.toString());
        assertEquals(1, r.errLines().size(), r.toString());
        for (String f : fragments) {
            assertTrue(r.err().contains(f), "'" + f + "' in " + r);
        }
        assertNoStackTrace(r.err());
    }

    private static void assertNoStackTrace(String err) {
        assertFalse(err.contains("\tat ") || err.contains("Exception in thread"), err);
    }

    @Test
    void headerClaimingHugeBuffersIsAOneLineError() throws IOException {
        Path f = copyOfSmallTrace("huge-buffers.etl");
        patchInt(f, LOGFILE + LogfileHeaderLayout.BUFFER_SIZE, 0x7FFF_FFFF);
        for (String cmd : new String[] {"summary", "dump"}) {
            assertOneLineError(Cli.run(cmd, f.toString()), "huge-buffers.etl", "BufferSize 2147483647");
        }
    }

    @Test
    void headerClaimingHugeCountsIsReadWithAWarning() throws IOException {
        Path f = copyOfSmallTrace("huge-counts.etl");
        patchInt(f, LOGFILE + LogfileHeaderLayout.BUFFERS_WRITTEN, -1);
        patchInt(f, LOGFILE + LogfileHeaderLayout.NUMBER_OF_PROCESSORS, -1);
        Cli.Result r = Cli.run("summary", "--json", f.toString());
        assertEquals(EtwCommand.WARNINGS, r.code(), r.toString());
        JsonNode s = JSON.readTree(r.out());
        assertEquals(1, s.get("warnings").asLong(), "BuffersWritten differs from the buffers found: " + r);
        assertTrue(s.at("/records/total").asLong() > 0);
        Cli.Result dump = Cli.run("dump", "--format", "jsonl", f.toString());
        assertEquals(EtwCommand.WARNINGS, dump.code(), dump.err());
        assertEquals(s.at("/records/total").asLong(), dump.outLines().size());
        assertEquals(List.of("dump: " + f.getFileName() + ": 1 warning (records or buffers skipped; --warnings lists them)"),
                dump.errLines(), "dump counts the problem on stderr");
    }

    @Test
    void directoryIsAOneLineError() {
        for (String cmd : new String[] {"summary", "dump"}) {
            assertOneLineError(Cli.run(cmd, dir.toString()), "is a directory, not an .etl file");
        }
    }

    @Test
    void fifoIsAOneLineErrorWithoutBlocking() throws Exception {
        Path fifo = dir.resolve("pipe.etl");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assumeTrue(mk.waitFor(10, TimeUnit.SECONDS) && mk.exitValue() == 0, "mkfifo is not available");
        for (String cmd : new String[] {"summary", "dump"}) {
            // Nobody writes the FIFO: opening it for reading would block forever.
            Cli.Result r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                    () -> Cli.run(cmd, fifo.toString()));
            assertOneLineError(r, "not a regular file", "pipe.etl");
        }
    }

    @Test
    void emptyAndTinyFilesAreOneLineErrors() throws IOException {
        Path empty = Files.createFile(dir.resolve("empty.etl"));
        Path tiny = Files.write(dir.resolve("tiny.etl"), new byte[100]);
        for (String cmd : new String[] {"summary", "dump"}) {
            assertOneLineError(Cli.run(cmd, empty.toString()), "empty.etl", "not an .etl file");
            assertOneLineError(Cli.run(cmd, tiny.toString()), "tiny.etl", "not an .etl file");
        }
    }

    /**
     * A sparse file of 2 GiB and more (a real trace, then holes) read in a JVM with 64 MiB of heap: every empty buffer is
     * a counted warning, the records of the real part are all there, and nothing is held per buffer.
     */
    @Test
    void sparseMultiGigabyteFileIsReadInBoundedMemory() throws Exception {
        Path f = copyOfSmallTrace("sparse.etl");
        long original = Files.size(f);
        long size = (2L << 30) + (128 << 10); // past 2 GiB: offsets beyond int range
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(size);
        }
        long buffers = size / 8192;
        long holes = (size - original) / 8192;
        Forked summary = forked("-Xmx64m", "summary", "--json", f.toString());
        assertEquals(EtwCommand.WARNINGS, summary.code, summary.toString());
        assertNoStackTrace(summary.err);
        JsonNode s = JSON.readTree(summary.out);
        assertEquals(holes + 1, s.get("warnings").asLong(), "one per empty buffer, one for BuffersWritten vs "
                + buffers + " buffers");
        Cli.Result small = Cli.run("summary", "--json", SharedData.resolve("etl-corpus/airbus__lxcore_kernel.etl").toString());
        assertEquals(JSON.readTree(small.out()).at("/records/total"), s.at("/records/total"));

        Forked dump = forked("-Xmx64m", "dump", "--format", "csv", f.toString());
        assertEquals(EtwCommand.WARNINGS, dump.code, dump.toString());
        assertNoStackTrace(dump.err);
        assertEquals(1, dump.err.lines().count(), dump.err);
        assertTrue(dump.err.contains((holes + 1) + " warnings"), dump.err);
    }

    /**
     * The file is truncated (or grown) by another process while {@code etw dump} reads it (after its first
     * 2000 lines): a one-line error naming the cause, or, for growth, a normal end with every record of the
     * file as it was opened (the mapping is fixed at open). A truncated mapping faults on Linux (SIGBUS), which
     * the JVM turns into an InternalError at the read.
     */
    @Test
    void fileChangedWhileReadIsAOneLineErrorOrANormalEnd() throws Exception {
        Path source = SharedData.resolve("etl-corpus/airbus__ShutdownPerfDiagLogger.etl"); // 17078 records
        Cli.Result whole = Cli.run("dump", "--format", "csv", source.toString());
        assertEquals(EtwCommand.OK, whole.code(), whole.err());
        Path changing = dir.resolve("changing.etl");
        for (boolean truncate : new boolean[] {true, false}) {
            Files.copy(source, changing, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            ProcessBuilder pb = command("-Xmx256m", "dump", "--format", "csv", changing.toString());
            Path err = dir.resolve("err-" + truncate + ".txt");
            pb.redirectError(err.toFile());
            Process p = pb.start();
            long lines = 0;
            try (java.io.BufferedReader out = new java.io.BufferedReader(
                    new java.io.InputStreamReader(p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
                while (out.readLine() != null) {
                    if (++lines == 2000) {
                        try (RandomAccessFile raf = new RandomAccessFile(changing.toFile(), "rw")) {
                            if (truncate) {
                                raf.setLength(100_000);
                            } else {
                                raf.seek(raf.length());
                                raf.write(new byte[4 << 20]);
                            }
                        }
                    }
                }
            }
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "dump ended");
            String stderr = Files.readString(err);
            assertNoStackTrace(stderr);
            if (truncate) {
                assertEquals(EtwCommand.FAILED, p.exitValue(), stderr);
                assertEquals(1, stderr.lines().count(), stderr);
                assertTrue(stderr.contains("changed while being read"), stderr);
            } else {
                assertEquals(EtwCommand.OK, p.exitValue(), stderr);
                assertEquals(whole.outLines().size(), lines, "every record of the file as opened");
            }
        }
    }

    private record Forked(int code, String out, String err) {
        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout (head)\n" + out.substring(0, Math.min(2000, out.length()))
                    + "\n--- stderr\n" + err;
        }
    }

    private ProcessBuilder command(String heap, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add(heap);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add(EtwCommand.class.getName());
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd);
    }

    private Forked forked(String heap, String... args) throws Exception {
        ProcessBuilder pb = command(heap, args);
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "command ended");
        String o = out.getFileName().toString().isEmpty() ? "" : Files.readString(out);
        return new Forked(p.exitValue(), o, Files.readString(err));
    }
}
