package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exit statuses and error lines of docs/cli.md, command by command: usage errors exit 2 naming the option,
 * failures 1 with one line that names no Java class, filters that match nothing {@value EtwCommand#NO_MATCH}
 * (issue 22 item 12, issue 24 item 7, issue 25 items 3 and 7).
 */
class ExitStatusTest {
    /** A Java class name at the start of an error line's text, e.g. "EtlFormatException: ..." or "java.io...". */
    private static final Pattern CLASS_NAME = Pattern.compile("(\\b[A-Z][A-Za-z]+(Exception|Error)\\b)|(\\bjava\\.)");

    @TempDir
    Path dir;

    @Test
    void noCommandPrintsUsageOnStderrAndExits2() {
        Cli.Result r = Cli.run();
        assertEquals(EtwCommand.USAGE, r.code(), r.toString());
        assertEquals("", r.out(), r.toString());
        assertTrue(r.err().contains("Usage: etw"), r.toString());
    }

    @Test
    void helpCommandBesideHelpOption() {
        Cli.Result viaHelp = Cli.run("help", "summary");
        assertEquals(EtwCommand.OK, viaHelp.code(), viaHelp.toString());
        assertEquals(Cli.run("summary", "--help").out(), viaHelp.out());
        Cli.Result unknown = Cli.run("help", "frobnicate");
        assertEquals(EtwCommand.USAGE, unknown.code(), unknown.toString());
    }

    @Test
    void emptyGuidNameIsAUsageErrorNamingTheParameter() {
        Cli.Result r = Cli.run("guid", "");
        assertUsage(r, "NAME");
    }

    @Test
    void sessionOptionsAreUsageErrorsNamingTheOption() {
        Path out = dir.resolve("x.etl");
        assertUsage(Cli.run("record", "-o", out.toString(), "--buffer-size", "0", "--duration", "1s", "--demo-load"),
                "--buffer-size");
        assertUsage(Cli.run("record", "-o", out.toString(), "--buffer-size", "99999999", "--duration", "1s",
                "--demo-load"), "--buffer-size");
        assertUsage(Cli.run("record", "-o", out.toString(), "--session", "", "--duration", "1s", "--demo-load"),
                "--session");
        assertUsage(Cli.run("record", "-o", out.toString(), "--session", "s".repeat(2000), "--duration", "1s",
                "--demo-load"), "--session");
        assertUsage(Cli.run("live", "--session", "", "--duration", "1s", "--demo-load"), "--session");
        assertFalse(Files.exists(out), "nothing is started on a usage error");
    }

    @Test
    void oversizedDurationIsAUsageErrorBeforeAnythingStarts() {
        for (String d : new String[] {"1e10s", "9223372036854775807s", "Infinitys", "1e300h"}) {
            Path out = dir.resolve("d.etl");
            Cli.Result r = Cli.run("record", "-o", out.toString(), "--duration", d, "--demo-load");
            assertUsage(r, "--duration");
            assertFalse(r.err().contains("recording"), "no banner: " + r);
            assertFalse(Files.exists(out), "no file: " + r);
            assertUsage(Cli.run("live", "--duration", d, "--max-events", "1", "--demo-load"), "--duration");
        }
    }

    @Test
    void emptyProviderFilterIsAUsageError() throws Exception {
        Path etl = SharedData.resolve("etl-corpus/perfview__primitive-types.etl");
        assertUsage(Cli.run("dump", "--provider", "", etl.toString()), "--provider");
        assertUsage(Cli.run("timeline", etl.toString(), "--providers", "", "-o", dir.resolve("t.json").toString()),
                "--provider");
    }

    @Test
    void missingPathAndDirectoryAreSaidApart() throws Exception {
        Path missing = dir.resolve("nosuch.etl");
        for (String cmd : new String[] {"summary", "dump", "profile", "timeline"}) {
            Cli.Result r = Cli.run(cmd, missing.toString());
            assertFailure(r, "no such file: " + missing);
            Cli.Result d = Cli.run(cmd, dir.toString());
            assertFailure(d, dir + " is a directory, not an .etl file");
        }
        assertFailure(Cli.run("report", missing.toString(), "-o", dir.resolve("r.html").toString()),
                "no such file: " + missing);
    }

    @Test
    void aFileThatIsNotAnEtlFileIsSaidToBeOne() throws Exception {
        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "x".repeat(4096));
        for (String cmd : new String[] {"summary", "dump", "profile", "timeline"}) {
            Cli.Result r = Cli.run(cmd, text.toString());
            assertFailure(r, "not an .etl file");
            assertFalse(r.err().contains("compressed"), r.toString());
        }
    }

    @Test
    void summaryJsonOverSeveralFilesPrintsTheGoodOnesAndAnErrorEntry() throws Exception {
        Path good = SharedData.resolve("etl-corpus/perfview__primitive-types.etl");
        Path bad = dir.resolve("bad.etl");
        Files.writeString(bad, "x".repeat(4096));
        Path missing = dir.resolve("missing.etl");
        Cli.Result r = Cli.run("summary", "--json", good.toString(), bad.toString(), missing.toString());
        assertEquals(EtwCommand.FAILED, r.code(), r.toString());
        JsonNode a = new ObjectMapper().readTree(r.out());
        assertTrue(a.isArray(), r.out());
        assertEquals(3, a.size(), r.out());
        assertEquals("perfview__primitive-types.etl", a.get(0).get("file").asText());
        assertTrue(a.get(0).has("records"), r.out());
        assertEquals("bad.etl", a.get(1).get("file").asText());
        assertTrue(a.get(1).get("error").asText().contains("not an .etl file"), r.out());
        assertEquals("missing.etl", a.get(2).get("file").asText());
        assertTrue(a.get(2).get("error").asText().contains("no such file"), r.out());
        assertEquals(2, r.errLines().size(), r.toString());
    }

    @Test
    void aProviderFilterThatMatchesNothingSaysSo() throws Exception {
        Path etl = SharedData.resolve("etl-corpus/krabsetw__powershell.etl");
        Cli.Result dump = Cli.run("dump", "--provider", "Nobody-Logs-This", etl.toString());
        assertEquals(EtwCommand.NO_MATCH, dump.code(), dump.toString());
        assertEquals("", dump.out());
        assertTrue(dump.err().contains("no event matched --provider Nobody-Logs-This"), dump.toString());

        Cli.Result timeline = Cli.run("timeline", etl.toString(), "--providers", "Nobody-Logs-This", "-o",
                dir.resolve("t.json").toString());
        assertEquals(EtwCommand.NO_MATCH, timeline.code(), timeline.toString());
        assertTrue(timeline.err().contains("no event matched --providers Nobody-Logs-This"), timeline.toString());

        // a filter that matches keeps exit 0
        Cli.Result some = Cli.run("dump", "--provider", "a0c1853b-5c40-4b15-8766-3cf1c58f985a", "--max-events", "1",
                etl.toString());
        assertEquals(EtwCommand.OK, some.code(), some.toString());
    }

    @Test
    void errorLinesNameNoJavaClass() {
        assertEquals("internal error; run with ETW_DEBUG=1 for the stack trace",
                EtwCommand.oneLine(new NullPointerException()));
        assertFalse(CLASS_NAME.matcher(EtwCommand.oneLine(new OutOfMemoryError("Java heap space"))).find());
        assertTrue(EtwCommand.oneLine(new OutOfMemoryError("Java heap space")).startsWith("out of memory"));
        assertFalse(CLASS_NAME.matcher(EtwCommand.oneLine(new StackOverflowError())).find());
        assertFalse(CLASS_NAME.matcher(EtwCommand.oneLine(
                new org.etw4j.consumer.etl.EtlFormatException("x.etl", "bad", 0, 0))).find());
        assertFalse(CLASS_NAME.matcher(EtwCommand.oneLine(new RuntimeException(new java.io.IOException("disk")))).find());
    }

    private static void assertUsage(Cli.Result r, String option) {
        assertEquals(EtwCommand.USAGE, r.code(), r.toString());
        assertTrue(r.errLines().get(0).contains(option), "the first line names " + option + ": " + r);
        assertFalse(CLASS_NAME.matcher(r.err()).find(), r.toString());
        assertFalse(r.err().contains("SessionConfig"), r.toString());
    }

    private static void assertFailure(Cli.Result r, String text) {
        assertEquals(EtwCommand.FAILED, r.code(), r.toString());
        assertEquals(1, r.errLines().size(), r.toString());
        assertTrue(r.err().contains(text), "expected '" + text + "': " + r);
        assertFalse(CLASS_NAME.matcher(r.err()).find(), r.toString());
    }
}
