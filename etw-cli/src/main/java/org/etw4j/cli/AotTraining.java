package org.etw4j.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The training run of the {@code ./etw} launcher's ahead-of-time cache (JDK 25, JEP 483/514/515): runs the
 * commands people start most, in-process, on a small .etl file it records itself on the simulated backend, so
 * that the JVM sees the classes and methods those commands use. Its output is discarded.
 *
 * <p>Not part of the command line; started by the launcher with {@code -XX:AOTMode=record} once per build and
 * cache. Argument {@code light}: only the commands that read no trace ({@code --version}, {@code --help},
 * {@code guid}), for the launcher's light cache: the JVM loads every class of a cache at start, and those commands
 * start faster without the readers' classes. Anything else or nothing: every training command (the full cache).
 * Single-threaded; leaves nothing behind (the recorded file is deleted). Exit code 0 when every command succeeded,
 * 1 otherwise (the launcher then makes no cache: a cache trained on failures would be a poor one).
 */
public final class AotTraining {
    /** The commands that read no trace, trained alone for the light cache and first in the full one. */
    private static final String[][] LIGHT = {
        {"--version"},
        {"--help"},
        {"guid", "etw4j-Demo"},
    };

    private AotTraining() {
    }

    /** Runs the training commands: {@code light} or all of them. */
    public static void main(String[] args) throws IOException {
        boolean light = args.length > 0 && args[0].equals("light");
        PrintWriter out = new PrintWriter(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        Path dir = Files.createTempDirectory("etw-aot-training");
        Path etl = dir.resolve("training.etl");
        int failed = 0;
        try {
            String file = etl.toString();
            String[][] readers = {
                {"record", "--backend", "simulated", "--session", "etw-aot-training-" + ProcessHandle.current().pid(),
                    "--output", file, "--provider", "etw4j-Demo", "--duration", "300ms", "--demo-load"},
                {"summary", file},
                {"summary", "--json", file},
                {"dump", file},
                {"dump", "--format", "jsonl", file},
                {"dump", "--format", "csv", file},
                {"dump", "--help"},
            };
            List<String[]> commands = new ArrayList<>(List.of(LIGHT));
            if (!light) {
                commands.addAll(List.of(readers));
            }
            for (String[] c : commands) {
                if (EtwCommand.execute(out, err, c) != EtwCommand.OK) {
                    failed++;
                }
            }
        } finally {
            Files.deleteIfExists(etl);
            Files.deleteIfExists(dir);
        }
        System.exit(failed == 0 ? 0 : 1);
    }
}
