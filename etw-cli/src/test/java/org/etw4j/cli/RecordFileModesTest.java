package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code etw record --max-size/--circular/--new-file} on the simulated backend: the files it writes stay within the
 * size, each is read back by {@code etw summary}, and the combinations ETW refuses are usage errors (exit 2).
 * 1 KB buffers, 1 MB files and the demo load at full rate fill a file in well under the recording's duration.
 */
class RecordFileModesTest {
    @TempDir
    Path dir;

    private static Cli.Result record(Path out, String... more) {
        String[] base = {"record", "--session", "etw4j-test-modes-" + System.nanoTime(), "--output", out.toString(),
                "--duration", "3s", "--demo-load", "--rate", "1000000", "--buffer-size", "1", "--backend", "simulated"};
        String[] args = new String[base.length + more.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        return Cli.run(args);
    }

    @Test
    void aSequentialFileStopsAtMaxSizeAndSaysSo() throws Exception {
        Path etl = dir.resolve("seq.etl");
        Cli.Result r = record(etl, "--max-size", "1");
        assertEquals(0, r.code(), r.toString());
        assertTrue(Files.size(etl) <= 1 << 20, r.toString());
        assertEquals(1 << 20, Files.size(etl), "the load fills the megabyte: " + r);
        assertTrue(r.out().contains("the file reached --max-size 1 MB"), r.out());
        assertEquals(0, Cli.run("summary", etl.toString()).code());
    }

    @Test
    void circularKeepsOneFileWithinMaxSize() throws Exception {
        Path etl = dir.resolve("ring.etl");
        Cli.Result r = record(etl, "--max-size", "1", "--circular");
        assertEquals(0, r.code(), r.toString());
        assertEquals(1 << 20, Files.size(etl), r.toString());
        assertEquals(1, r.out().split("output   ", -1).length - 1, r.out());
        Cli.Result sum = Cli.run("summary", etl.toString());
        assertEquals(0, sum.code(), sum.toString());
    }

    @Test
    void newFileNumbersTheFilesAndListsThem() throws Exception {
        Cli.Result r = record(dir.resolve("parts.etl"), "--max-size", "1", "--new-file");
        assertEquals(0, r.code(), r.toString());
        assertFalse(Files.exists(dir.resolve("parts.etl")));
        assertTrue(Files.exists(dir.resolve("parts_1.etl")) && Files.exists(dir.resolve("parts_2.etl")), r.toString());
        int files = 0;
        while (Files.exists(dir.resolve("parts_" + (files + 1) + ".etl"))) {
            files++;
        }
        assertTrue(files <= 3 ? r.out().contains("parts_2.etl (") : r.out().contains("parts_" + files + ".etl (" + files + " files, "),
                r.out());
        for (int n = 1; Files.exists(dir.resolve("parts_" + n + ".etl")); n++) {
            Path part = dir.resolve("parts_" + n + ".etl");
            assertTrue(Files.size(part) <= 1 << 20, part.toString());
            assertEquals(0, Cli.run("summary", part.toString()).code(), part.toString());
        }
    }

    @Test
    void numberedFilesOfAnEarlierRecordingAreRefusedOrWithForceRemoved() throws Exception {
        Files.writeString(dir.resolve("old_2.etl"), "an earlier recording's second file");
        Cli.Result r = record(dir.resolve("old.etl"), "--max-size", "1", "--new-file");
        assertEquals(1, r.code(), r.toString());
        assertTrue(r.err().contains("old_2.etl exists"), r.err());
        assertFalse(Files.exists(dir.resolve("old_1.etl")), "nothing recorded");
        Cli.Result forced = record(dir.resolve("old.etl"), "--max-size", "1", "--new-file", "--force");
        assertEquals(0, forced.code(), forced.toString());
        assertEquals(0, Cli.run("summary", dir.resolve("old_2.etl").toString()).code(), "old_2.etl is this recording's");
    }

    @Test
    void combinationsEtwRefusesAreUsageErrors() {
        Cli.Result both = record(dir.resolve("x.etl"), "--circular", "--new-file");
        assertEquals(2, both.code(), both.toString());
        assertTrue(both.err().contains("--circular and --new-file"), both.err());
        Cli.Result noSize = record(dir.resolve("y.etl"), "--circular", "--max-size", "0");
        assertEquals(2, noSize.code(), noSize.toString());
        assertTrue(noSize.err().contains("--max-size"), noSize.err());
        Cli.Result tooSmall = Cli.run("record", "--output", dir.resolve("z.etl").toString(), "--demo-load", "--duration", "1s",
                "--backend", "simulated", "--buffer-size", "1024", "--max-size", "1");
        assertEquals(2, tooSmall.code(), tooSmall.toString());
        assertTrue(tooSmall.err().contains("MAXIMUM_FILE_SIZE_BELOW_TWO_BUFFERS"), tooSmall.err());
    }

    @Test
    void theDefaultLimitIsOneGigabyte() {
        assertEquals(1024, RecordCommand.DEFAULT_MAX_SIZE_MB);
        Cli.Result help = Cli.run("record", "--help");
        assertTrue(help.out().contains("(default: 1024)"), help.out());
        assertEquals(Path.of("a", "t_%d.etl"), RecordCommand.withCounter(Path.of("a", "t.etl")));
        assertEquals(Path.of("t%d.etl"), RecordCommand.withCounter(Path.of("t%d.etl")));
    }
}
