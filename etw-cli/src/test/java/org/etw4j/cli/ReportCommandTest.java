package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code etw report}: the page is written (the browser side is etw-report's ReportBrowserTest), stderr says what was
 * written and when there are no CPU samples, errors are one line with the exit codes of {@code --help}.
 */
class ReportCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static JsonNode data(Path html) throws Exception {
        Matcher m = Pattern.compile("<script id=\"etw4j-data\" type=\"application/json\">(.*?)</script>",
                Pattern.DOTALL).matcher(Files.readString(html, StandardCharsets.UTF_8));
        assertTrue(m.find(), "the data element");
        return JSON.readTree(m.group(1));
    }

    @Test
    void traceWithSamples() throws Exception {
        Path html = dir.resolve("report.html");
        Path trace = SharedData.resolve("etl-corpus/perfview__net.4.5.2.x64.etl");
        EtwCommand.progressAllowed(true); // as on a terminal: the long read draws a progress line
        Cli.Result r;
        try {
            r = Cli.run("report", trace.toString(), "-o", html.toString());
        } finally {
            EtwCommand.progressAllowed(false);
        }
        assertEquals(EtwCommand.OK, r.code(), r.toString());
        assertEquals("", r.out());
        int erased = r.err().lastIndexOf('\r');
        assertTrue(erased > 0 && r.err().substring(0, erased + 1).matches("(?s).*\\r +\\r"),
                "a progress line, erased before the last line: " + r.err());
        Matcher bar = Pattern.compile("\\r\\[[#.]{30}\\] +(\\d+)%  processes, threads, images, samples and stacks"
                + "  pass ([12])/2").matcher(r.err());
        int last = -1;
        boolean second = false;
        while (bar.find()) {
            assertTrue(Integer.parseInt(bar.group(1)) >= last, "never goes back: " + r.err());
            last = Integer.parseInt(bar.group(1));
            second |= bar.group(2).equals("2");
        }
        assertTrue(last >= 0 && second, "the model's passes shown: " + r.err());
        assertEquals("etw report: wrote " + html + " (" + Files.size(html) + " bytes, 179474 records, 79528 CPU"
                + " samples)\n", r.err().substring(erased + 1).replace("\r\n", "\n"));
        JsonNode d = data(html);
        assertEquals(79528, d.at("/cpu/samples").asLong(), "PerfInfo/SampleProf events (TraceModelCorpusTest)");
        assertEquals(179474, d.path("totalRecords").asLong(), "etw summary's record count");
        assertEquals(List.of(), leftovers(), "no temporary file left");
    }

    @Test
    void traceWithoutSamplesStillGivesAReportAndSaysSo() throws Exception {
        Path html = dir.resolve("gc.html");
        Files.writeString(html, "old content");
        Cli.Result r = Cli.run("report", SharedData.resolve("etl-corpus/perfview__gcevents.etl").toString(),
                "--output", html.toString(), "--force");
        assertEquals(EtwCommand.OK, r.code(), r.toString());
        assertEquals("etw report: no CPU samples in the trace (the flame graph section says so; record with the"
                + " kernel's profile flag)", r.errLines().get(0));
        assertTrue(Files.readString(html).startsWith("<!DOCTYPE html>"), "replaced");
        if (html.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Path plain = Files.writeString(dir.resolve("plain.txt"), "x");
            assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(html),
                    "the page has the permissions of any new file (umask), not a temporary file's owner-only ones");
        }
        assertEquals(0, data(html).at("/cpu/samples").asLong());
    }

    @Test
    void errorsAreOneLineWithTheExitCodesOfHelp() throws Exception {
        Cli.Result noOutput = Cli.run("report", "x.etl");
        assertEquals(EtwCommand.USAGE, noOutput.code(), noOutput.toString());
        assertTrue(noOutput.err().contains("Missing required option: '--output=FILE'"), noOutput.err());

        Cli.Result missing = Cli.run("report", dir.resolve("nosuch.etl").toString(), "-o", dir.resolve("a.html").toString());
        assertEquals(EtwCommand.FAILED, missing.code(), missing.toString());
        assertEquals(List.of("report: no such file: " + dir.resolve("nosuch.etl")), missing.errLines());

        Path junk = Files.write(dir.resolve("junk.etl"), new byte[100]);
        Path out = dir.resolve("junk.html");
        Cli.Result bad = Cli.run("report", junk.toString(), "-o", out.toString());
        assertEquals(EtwCommand.FAILED, bad.code(), bad.toString());
        assertEquals(1, bad.errLines().size(), bad.err());
        assertTrue(bad.err().contains("junk.etl") && bad.err().contains("not an .etl file"), bad.err());
        assertFalse(Files.exists(out), "no page for a file that could not be read");

        Cli.Result noDir = Cli.run("report", SharedData.resolve("etl-corpus/perfview__smallEtlFile.etl").toString(),
                "-o", dir.resolve("no/such/dir/r.html").toString());
        assertEquals(EtwCommand.FAILED, noDir.code(), noDir.toString());
        assertEquals(List.of("report: no such directory: " + dir.resolve("no/such/dir")), noDir.errLines());
        assertEquals(List.of(), leftovers());
    }

    private List<String> leftovers() throws Exception {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList();
        }
    }
}
