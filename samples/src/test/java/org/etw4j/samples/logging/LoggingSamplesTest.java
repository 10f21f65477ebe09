package org.etw4j.samples.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The three logging samples run and their sessions receive the three records each logs. */
class LoggingSamplesTest {

    interface Sample {
        void run(PrintStream out) throws Exception;
    }

    private static List<String> run(Sample sample) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            sample.run(out);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static void check(List<String> lines, String provider) {
        // Each event printed as EventRecord.toString(): etw dump's text line (timestamp, pid, tid, cpu, level, then
        // PROVIDER/EVENT and the fields).
        List<String> events = lines.stream().filter(l -> l.contains("  " + provider + "/FormattedMessage ")).toList();
        assertEquals(3, events.size(), String.join("\n", lines));
        assertTrue(events.get(0).contains("order 1001 placed"), events.get(0));
        assertTrue(events.get(2).contains("card declined"), events.get(2));
        assertTrue(lines.get(lines.size() - 1).startsWith("3 events received; session "), lines.toString());
    }

    @Test
    void logback() throws Exception {
        List<String> lines = run(LogbackSample::run);
        check(lines, LogbackSample.PROVIDER);
        assertTrue(lines.get(0).contains("r-42"), "the MDC entry is a field: " + lines.get(0));
    }

    @Test
    void log4j2() throws Exception {
        List<String> lines = run(Log4j2Sample::run);
        check(lines, Log4j2Sample.PROVIDER);
        assertTrue(lines.get(0).contains("r-42"), "the ThreadContext entry is a field: " + lines.get(0));
    }

    @Test
    void jul() throws Exception {
        check(run(JulSample::run), JulSample.PROVIDER);
    }
}
