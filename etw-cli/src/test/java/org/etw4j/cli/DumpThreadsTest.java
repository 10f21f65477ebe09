package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code etw dump --threads N} writes to the process's byte stream exactly what the one-thread dump writes (the
 * command's own path: {@link StdoutWriter}'s bytes, progress, limits); {@code --threads} below 0 is a usage error.
 */
class DumpThreadsTest {

    private static byte[] dump(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int code;
        try (StdoutWriter out = new StdoutWriter(bytes); PrintWriter e = new PrintWriter(err)) {
            code = EtwCommand.execute(out, e, args);
        }
        assertEquals(0, code, String.join(" ", args) + ": " + err);
        return bytes.toByteArray();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"perfview__gcevents.etl, jsonl", "perfview__gcevents.etl, csv", "krabsetw__powershell.etl, text",
            "airbus__lxcore_kernel.etl, csv"})
    void workerThreadsWriteWhatOneThreadWrites(String file, String format) {
        String etl = SharedData.resolve("etl-corpus/" + file).toString();
        byte[] one = dump("dump", "--format", format, etl);
        assertTrue(one.length > 0);
        assertArrayEquals(one, dump("dump", "--threads", "2", "--format", format, etl));
        assertArrayEquals(dump("dump", "--format", format, etl, etl),
                dump("dump", "--threads", "1", "--format", format, etl, etl));
        assertArrayEquals(dump("dump", "--format", format, "--max-events", "3", etl),
                dump("dump", "--threads", "2", "--format", format, "--max-events", "3", etl));
    }

    @org.junit.jupiter.api.Test
    void negativeThreadsAreAUsageError() {
        StringWriter err = new StringWriter();
        int code;
        try (StdoutWriter out = new StdoutWriter(new ByteArrayOutputStream()); PrintWriter e = new PrintWriter(err)) {
            code = EtwCommand.execute(out, e, "dump", "--threads", "-1",
                    SharedData.resolve("etl-corpus/perfview__smallEtlFile.etl").toString());
        }
        assertTrue(code != 0 && err.toString().contains("--threads must be >= 0"), code + ": " + err);
    }
}
