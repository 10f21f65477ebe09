package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --help} on every command, and the exit codes of usage and runtime errors. */
class HelpAndUsageTest {
    private static final List<String> COMMANDS = List.of("demo", "guid", "summary", "dump", "profile", "timeline", "report",
            "record", "live");

    @Test
    void everyCommandIsCoveredHere() {
        var cl = EtwCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        Set<String> registered = new TreeSet<>(cl.getSubcommands().keySet());
        registered.remove("help");
        assertEquals(new TreeSet<>(COMMANDS), registered, "a command was added or removed: update COMMANDS");
    }

    @Test
    void topLevelHelpListsTheCommands() {
        Cli.Result r = Cli.run("--help");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().startsWith("Usage: etw"), r.out());
        for (String c : COMMANDS) {
            assertTrue(r.out().contains("\n  " + c + " "), "missing " + c + " in\n" + r.out());
        }
        assertTrue(r.out().contains("Exit codes: 0 ok, 1 failure, 2 usage error, 3 completed with warnings"), r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo", "guid", "summary", "dump", "timeline", "report", "record", "live"})
    void helpOfEachCommand(String command) {
        Cli.Result r = Cli.run(command, "--help");
        assertEquals(0, r.code(), r.toString());
        // a one-line header (also shown in the top-level list), then the synopsis
        assertTrue(r.outLines().get(0).endsWith("."), r.out());
        assertTrue(Cli.run("--help").out().contains(r.outLines().get(0)), r.out());
        assertTrue(r.outLines().get(1).startsWith("Usage: etw " + command), r.out());
        assertTrue(r.out().contains("-h, --help"), r.out());
        assertEquals("", r.err());
        // "etw help CMD" says the same
        Cli.Result viaHelp = Cli.run("help", command);
        assertEquals(0, viaHelp.code());
        assertEquals(r.out(), viaHelp.out());
    }

    @Test
    void commandOptionsAreDocumented() {
        assertTrue(Cli.run("demo", "--help").out().contains("--events=N"));
        assertTrue(Cli.run("demo", "--help").out().contains("--threads=N"));
        String dump = Cli.run("dump", "--help").out();
        for (String o : List.of("--format=FORMAT", "--provider=NAME_OR_GUID", "--manifest=FILE.xml", "--max-events=N")) {
            assertTrue(dump.contains(o), o + " missing in\n" + dump);
        }
        String record = Cli.run("record", "--help").out();
        for (String o : List.of("--session=NAME", "--output=FILE.etl", "--provider=NAME_OR_GUID", "--duration=TIME", "--demo-load")) {
            assertTrue(record.contains(o), o + " missing in\n" + record);
        }
        String live = Cli.run("live", "--help").out();
        for (String o : List.of("--session=NAME", "--provider=NAME_OR_GUID", "--duration=TIME", "--max-events=N")) {
            assertTrue(live.contains(o), o + " missing in\n" + live);
        }
        assertTrue(Cli.run("summary", "--help").out().contains("--json"));
    }

    @Test
    void noCommandPrintsUsage() {
        Cli.Result r = Cli.run();
        assertEquals(EtwCommand.USAGE, r.code());
        assertTrue(r.err().startsWith("Usage: etw"));
    }

    @Test
    void usageErrorsExitWith2() {
        assertUsageError(Cli.run("frobnicate"));
        assertUsageError(Cli.run("guid"));
        assertUsageError(Cli.run("summary"));
        assertUsageError(Cli.run("dump", "--format", "xml", "x.etl"));
        assertUsageError(Cli.run("demo", "--threads", "0"));
        assertUsageError(Cli.run("demo", "--events", "many"));
        assertUsageError(Cli.run("record", "--provider", "X"));                       // no --output
        assertUsageError(Cli.run("record", "--output", "x.etl"));                     // no provider
        assertUsageError(Cli.run("record", "--output", "x.etl", "--provider", "X:loud"));
        assertUsageError(Cli.run("live", "--provider", "X", "--duration", "soon"));
    }

    private static void assertUsageError(Cli.Result r) {
        assertEquals(2, r.code(), r.toString());
        assertEquals("", r.out(), r.toString());
        assertTrue(r.err().startsWith("etw") || r.err().contains(": "), r.toString());
    }

    @Test
    void runtimeErrorIsOneLineAndExit1() {
        Cli.Result r = Cli.run("summary", "/nonexistent/etw4j/nothing.etl");
        assertEquals(1, r.code(), r.toString());
        assertEquals(1, r.errLines().size(), r.toString());
        assertEquals("summary: no such file: /nonexistent/etw4j/nothing.etl", r.errLines().get(0));

        Cli.Result notEtl = Cli.run("dump", "pom.xml");
        assertEquals(1, notEtl.code(), notEtl.toString());
        assertEquals(1, notEtl.errLines().size(), notEtl.toString());
        assertTrue(notEtl.err().startsWith("dump: pom.xml: "), notEtl.toString());
    }

    @Test
    void versionNamesJava() {
        Cli.Result r = Cli.run("--version");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("etw4j "), r.out());
        assertTrue(r.out().contains("Java " + Runtime.version().feature()), r.out());
    }
}
