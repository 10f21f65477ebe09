package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A partly unreadable trace (issue 22 item 11, {@code repro_A3_warnings.sh}: krabsetw__powershell.etl cut at
 * 150,000 bytes): every command that reads traces says how many problems it stepped over, exits
 * {@value EtwCommand#WARNINGS} (completed with warnings), and {@code --warnings} lists each one with its kind, file
 * offset and buffer.
 */
class WarningsTest {
    private static final Pattern LISTED = Pattern.compile(
            "^[a-z]+: warning: trunc\\.etl: [A-Z_]+ at offset \\d+ \\(0x[0-9a-f]+\\)(, buffer \\d+)?: .+$");

    @TempDir
    Path dir;
    Path trunc;

    @BeforeEach
    void truncated() throws Exception {
        byte[] all = Files.readAllBytes(SharedData.resolve("etl-corpus/krabsetw__powershell.etl"));
        trunc = Files.write(dir.resolve("trunc.etl"), Arrays.copyOf(all, 150_000));
    }

    private List<String> command(String name) {
        String f = trunc.toString();
        return new ArrayList<>(switch (name) {
            case "summary" -> List.of("summary", f);
            case "dump" -> List.of("dump", f);
            case "profile" -> List.of("profile", f, "-o", dir.resolve("p.txt").toString());
            case "timeline" -> List.of("timeline", f, "-o", dir.resolve("t.json").toString());
            case "report" -> List.of("report", f, "-o", dir.resolve("r.html").toString());
            default -> throw new IllegalArgumentException(name);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"summary", "dump", "profile", "timeline", "report"})
    void everyReadingCommandCountsWarningsAndExitsWithTheWarningsStatus(String name) {
        Cli.Result r = Cli.run(command(name).toArray(String[]::new));
        assertEquals(EtwCommand.WARNINGS, r.code(), r.toString());
        assertTrue(r.err().contains(name + ": trunc.etl: 2 warnings (records or buffers skipped; --warnings lists them)"),
                r.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"summary", "dump", "profile", "timeline", "report"})
    void warningsListsKindOffsetAndBuffer(String name) {
        List<String> args = command(name);
        args.add("--warnings");
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        assertEquals(EtwCommand.WARNINGS, r.code(), r.toString());
        List<String> listed = r.errLines().stream().filter(l -> l.contains(": warning: ")).toList();
        assertEquals(2, listed.size(), r.toString());
        for (String l : listed) {
            assertTrue(LISTED.matcher(l).matches(), l);
        }
        assertTrue(r.err().contains("TRUNCATED_BUFFER"), r.toString());
        // the buffer count is a whole-file warning: it names no buffer (it printed "buffer -1" before)
        assertTrue(listed.stream().anyMatch(l -> l.contains("BUFFER_COUNT_MISMATCH at offset 150000 (0x249f0): ")),
                r.toString());
    }

    @Test
    void aCleanTraceExits0() throws Exception {
        Cli.Result r = Cli.run("summary", SharedData.resolve("etl-corpus/krabsetw__powershell.etl").toString());
        assertEquals(EtwCommand.OK, r.code(), r.toString());
        assertEquals("", r.err());
    }
}
