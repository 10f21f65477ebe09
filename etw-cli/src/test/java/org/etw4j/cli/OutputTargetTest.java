package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code -o FILE} of report, timeline, profile and record (issue 22 item 6, {@code repro_output_targets.sh}):
 * an existing file is refused unless {@code --force}, a symbolic link is never followed, a directory never
 * replaced, a read-only file never replaced, {@code -o -} is stdout, and a failed write leaves no file.
 */
class OutputTargetTest {
    @TempDir
    Path dir;

    private List<String> command(String name, Path out) throws Exception {
        String etl = SharedData.resolve("etl-corpus/perfview__primitive-types.etl").toString();
        List<String> args = new ArrayList<>(switch (name) {
            case "report" -> List.of("report", etl);
            case "timeline" -> List.of("timeline", etl);
            case "profile" -> List.of("profile", etl, "--format", "collapsed");
            case "record" -> List.of("record", "--backend", "simulated", "--session", "etw4j-test-" + System.nanoTime(),
                    "--duration", "200ms", "--demo-load");
            default -> throw new IllegalArgumentException(name);
        });
        args.add("-o");
        args.add(out.toString());
        return args;
    }

    private Cli.Result run(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return Cli.run(all.toArray(String[]::new));
    }

    @ParameterizedTest
    @ValueSource(strings = {"report", "timeline", "profile", "record"})
    void anExistingFileIsRefusedUnlessForced(String name) throws Exception {
        Path out = dir.resolve("out." + name);
        Files.writeString(out, "precious");
        Cli.Result r = run(command(name, out));
        assertEquals(EtwCommand.FAILED, r.code(), r.toString());
        assertTrue(r.err().contains(out + " exists (--force replaces it"), r.toString());
        assertEquals("precious", Files.readString(out));

        Cli.Result forced = run(command(name, out), "--force");
        assertEquals(EtwCommand.OK, forced.code(), forced.toString());
        assertFalse(java.util.Arrays.equals("precious".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                Files.readAllBytes(out)), "replaced");
        assertNoTemporaryFiles();
    }

    @ParameterizedTest
    @ValueSource(strings = {"report", "timeline", "profile", "record"})
    void aSymbolicLinkIsNeverFollowed(String name) throws Exception {
        Path victim = dir.resolve("victim.txt");
        Files.writeString(victim, "victim");
        Path link = Files.createSymbolicLink(dir.resolve("link." + name), victim);
        Cli.Result r = run(command(name, link));
        assertEquals(EtwCommand.FAILED, r.code(), r.toString());
        assertTrue(r.err().contains("symbolic link"), r.toString());
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("victim", Files.readString(victim));

        Cli.Result forced = run(command(name, link), "--force");
        assertEquals(EtwCommand.OK, forced.code(), forced.toString());
        assertFalse(Files.isSymbolicLink(link), "the link itself was replaced");
        assertEquals("victim", Files.readString(victim), "what it pointed to is untouched");
    }

    @ParameterizedTest
    @ValueSource(strings = {"report", "timeline", "profile", "record"})
    void aDirectoryIsNeverReplaced(String name) throws Exception {
        Path d = Files.createDirectory(dir.resolve("dir." + name));
        for (String[] force : new String[][] {{}, {"--force"}}) {
            Cli.Result r = run(command(name, d), force);
            assertEquals(EtwCommand.FAILED, r.code(), r.toString());
            assertTrue(r.err().contains(d + " is a directory"), r.toString());
            assertTrue(Files.isDirectory(d));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"report", "timeline", "profile", "record"})
    void aReadOnlyFileIsNotReplacedEvenWithForce(String name) throws Exception {
        Path out = dir.resolve("ro." + name);
        Files.writeString(out, "keep");
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("r--r--r--"));
        Cli.Result r = run(command(name, out), "--force");
        assertEquals(EtwCommand.FAILED, r.code(), r.toString());
        assertTrue(r.err().contains(out + " is read-only"), r.toString());
        assertEquals("keep", Files.readString(out));
    }

    @ParameterizedTest
    @ValueSource(strings = {"report", "timeline", "profile", "record"})
    void anEmptyOutputNameIsAUsageError(String name) throws Exception {
        Cli.Result r = run(command(name, Path.of("")));
        assertEquals(EtwCommand.USAGE, r.code(), r.toString());
        assertTrue(r.err().contains("--output"), r.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"report", "timeline", "profile"})
    void dashIsStandardOutput(String name) throws Exception {
        Cli.Result r = run(command(name, Path.of("-")));
        assertEquals(EtwCommand.OK, r.code(), r.toString());
        if (!name.equals("profile")) { // the file has no CPU samples: an empty profile
            assertFalse(r.out().isEmpty());
        }
        assertFalse(Files.exists(Path.of("-")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"report", "timeline", "profile"})
    void aDeviceIsWrittenInPlaceWithoutForce(String name) throws Exception {
        Path devNull = Path.of("/dev/null");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(devNull), "no /dev/null here");
        Cli.Result r = run(command(name, devNull));
        assertEquals(EtwCommand.OK, r.code(), r.toString());
        assertFalse(Files.isRegularFile(devNull), "still the device");
    }

    @Test
    void recordRefusesStandardOutput() throws Exception {
        Cli.Result r = run(command("record", Path.of("-")));
        assertEquals(EtwCommand.USAGE, r.code(), r.toString());
    }

    @Test
    void aWriteThatFailsLeavesNoFile() throws Exception {
        Path out = dir.resolve("partial.json");
        try (OutputTarget t = OutputTarget.open(out, false, new PrintWriter(new StringWriter()))) {
            Writer w = t.writer();
            w.write("x".repeat(100_000)); // the disk fills here, or the command fails: no commit
            w.flush();
        }
        assertFalse(Files.exists(out));
        assertNoTemporaryFiles();
    }

    @Test
    void aCommittedWriteAppearsWhole() throws Exception {
        Path out = dir.resolve("whole.json");
        try (OutputTarget t = OutputTarget.open(out, false, new PrintWriter(new StringWriter()))) {
            t.writer().write("{}");
            assertFalse(Files.exists(out), "not before commit");
            t.commit();
        }
        assertEquals("{}", Files.readString(out));
        assertNoTemporaryFiles();
    }

    @Test
    void fileSystemErrorsAreSaidAsSuch() {
        assertEquals("permission denied: cannot create a file in /x",
                OutputTarget.describe(new java.nio.file.AccessDeniedException("/x/.a.tmp"), Path.of("/x")));
        assertEquals("/x is on a read-only file system",
                OutputTarget.describe(new java.nio.file.FileSystemException("/x/.a.tmp", null, "Read-only file system"),
                        Path.of("/x")));
    }

    private void assertNoTemporaryFiles() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(), s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList());
        }
    }
}
