package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Standard output that cannot be written (a full disk, {@code > /dev/full}): every command stops at the first
 * failed write and exits 1 with one line (issue 22 item 5, {@code repro_stdout_full.sh}).
 */
class StdoutErrorTest {
    /** An output that fails every write as a full disk does, and counts the attempts. */
    static final class FullDisk extends OutputStream {
        int attempts;

        @Override
        public void write(int b) throws IOException {
            attempts++;
            throw new IOException("No space left on device");
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            attempts++;
            throw new IOException("No space left on device");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dump S", "dump --format jsonl S", "summary S", "summary --json S", "guid x",
            "profile NET --format collapsed", "timeline S", "--help", "--version"})
    void aFullStdoutEndsTheCommandWithOneLineAndExit1(String line) throws Exception {
        Path small = SharedData.resolve("etl-corpus/krabsetw__powershell.etl");
        Path net = SharedData.resolve("etl-corpus/perfview__net.4.5.2.x64.etl");
        String[] args = Arrays.stream(line.split(" "))
                .map(a -> a.equals("S") ? small.toString() : a.equals("NET") ? net.toString() : a)
                .toArray(String[]::new);
        FullDisk full = new FullDisk();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = EtwCommand.run(full, err, args);
        String e = err.toString(StandardCharsets.UTF_8);
        List<String> lines = e.lines().toList();
        assertEquals(EtwCommand.FAILED, code, e);
        assertEquals(1, lines.size(), e);
        assertTrue(lines.get(0).contains("cannot write to standard output: No space left on device"), e);
        assertEquals(1, full.attempts, "stops at the first failed write");
    }
}
