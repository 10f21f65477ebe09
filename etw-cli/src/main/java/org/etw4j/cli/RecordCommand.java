package org.etw4j.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.EnableProperty;
import org.etw4j.controller.KernelTracing;
import org.etw4j.controller.LogFileMode;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionConfigException;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.controller.TraceSession;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.EtwBackend;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code etw record}: starts a file-mode session, enables providers, and writes an .etl file until Ctrl-C or
 * {@code --duration}.
 *
 * <p>A picocli command object: one instance per command line, not thread-safe. The session is stopped (and the
 * file completed) whatever ends the recording, Ctrl-C included. Off Windows the session runs on the simulated
 * ETW, which writes the .etl with etw-consumer's writer; only providers in this process can log to it there, so
 * {@code --demo-load} adds one.
 */
@Command(name = "record", mixinStandardHelpOptions = true, defaultValueProvider = SessionOptions.Defaults.class,
        header = "Record provider and kernel events into an .etl file.",
        description = "Starts a file-mode session, enables the providers (and the kernel events of --kernel) and "
                + "writes until Ctrl-C or --duration (the file is completed either way). Off Windows the session runs "
                + "on the simulated ETW, where only providers in this process exist (use --demo-load) and the kernel "
                + "events describe this JVM.")
final class RecordCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE.etl", required = true,
            description = "the .etl file to write (an existing one needs --force)")
    Path output;

    @Mixin
    OutputTarget.Force force;

    @Option(names = "--buffer-size", paramLabel = "KB", defaultValue = "64",
            description = "session buffer size in KB (default: ${DEFAULT-VALUE})")
    int bufferSizeKb;

    @Option(names = "--max-size", paramLabel = "MB", defaultValue = "" + DEFAULT_MAX_SIZE_MB,
            description = "most megabytes the .etl file holds (MaximumFileSize); a sequential file stops there and "
                    + "further events are counted lost; 0 = no limit (default: ${DEFAULT-VALUE})")
    int maxSizeMb;

    @Option(names = "--circular", description = "a circular file of --max-size MB that keeps the latest events "
            + "(the flight recorder: oldest buffers overwritten)")
    boolean circular;

    @Option(names = "--new-file", description = "a new file each time --max-size MB are written: FILE_%%d.etl gives "
            + "FILE_1.etl, FILE_2.etl... (a name without %%d gets _%%d before its extension)")
    boolean newFile;

    @Mixin
    SessionOptions common;

    @Mixin
    KernelOptions kernelOptions;

    /** The default --max-size: without one, a recording without --duration would grow until the disk is full. */
    static final int DEFAULT_MAX_SIZE_MB = 1024;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        List<ProviderSpec> enable = common.providersToEnable(cl, kernelOptions.wanted());
        KernelTracing kernel = kernelOptions.tracing(cl);
        String sessionName = kernelOptions.sessionName(common.session);
        if (kernelOptions.stacks) {
            // MS Learn, ENABLE_TRACE_PARAMETERS: EVENT_ENABLE_PROPERTY_STACK_TRACE adds a call stack to each event
            common.enableAdjustment = p -> EnableParameters.builder().level(p.level())
                    .matchAnyKeyword(p.matchAnyKeyword()).matchAllKeyword(p.matchAllKeyword())
                    .properties(p.properties()).property(EnableProperty.STACK_TRACE).build();
        }
        if (bufferSizeKb < 1 || bufferSizeKb > SessionConfig.MAX_BUFFER_SIZE_KB) {
            throw new CommandLine.ParameterException(cl, "--buffer-size must be 1-" + SessionConfig.MAX_BUFFER_SIZE_KB
                    + " (KB), got " + bufferSizeKb);
        }
        // ETW writes the file itself (and names it in the trace's header): no temporary file, but the same checks
        // as every -o (never through a symbolic link, never over a directory or, without --force, a file), and a
        // directory where a file can be created, said as such (permission denied, read-only file system).
        LogFileMode mode = fileMode(cl);
        if (mode == LogFileMode.NEW_FILE && (OutputTarget.isStdout(output) || output.toString().isEmpty())) {
            OutputTarget.prepareInPlace(output, force.force); // the usage error every -o gives for these
        }
        Path pattern = mode == LogFileMode.NEW_FILE ? withCounter(output) : output;
        SessionConfig asked = config(cl, sessionName, pattern, mode, kernel); // ETW's rules first: a refused setting touches no file
        // the first file is checked as every -o is; a NEW_FILE session's later files are created by ETW as it reaches
        // them, so numbered files left by an earlier recording are refused (or, with --force, removed) first: else
        // the listing and the reader would take them for this recording's
        Path first = OutputTarget.prepareInPlace(asked.logFile(1), force.force);
        for (int n = 2; mode == LogFileMode.NEW_FILE && Files.exists(asked.logFile(n), java.nio.file.LinkOption.NOFOLLOW_LINKS); n++) {
            OutputTarget.prepareInPlace(asked.logFile(n), force.force);
        }
        SessionConfig config = config(cl, sessionName, mode == LogFileMode.NEW_FILE ? first.resolveSibling(pattern.getFileName()) : first,
                mode, kernel);
        Path file = config.logFile();
        EtwBackend backend = common.controllingBackend();
        PrintWriter out = cl.getOut();
        PrintWriter err = cl.getErr();

        long started = System.nanoTime();
        // Everything, the report included, happens before the StopSignal closes: on Ctrl-C the JVM exits as
        // soon as the shutdown hook returns, and the hook waits for that close.
        try (StopSignal signal = new StopSignal()) {
            SessionOptions.Outcome outcome;
            try (TraceSession s = TraceSession.start(config, backend)) {
                outcome = common.run(s, backend, enable, signal, err, "recording session '" + sessionName + "'"
                                + (kernel == null ? "" : " (kernel: " + kernelGroups(kernel) + ")"),
                        " to " + file, null);
            }
            SessionStatistics stats = outcome.statistics();
            if (backend instanceof SimulatedBackend sim && !sim.backgroundErrors().isEmpty()) {
                throw new CliException("writing " + file + " failed: " + EtwCommand.oneLine(sim.backgroundErrors().get(0)));
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            out.printf("session %s stopped after %.1f s%s%n", sessionName, seconds, signal.byShutdown() ? " (interrupted)" : "");
            List<Path> files = filesWritten(config);
            if (files.size() <= 3) {
                for (Path written : files) {
                    out.printf("  output   %s (%d bytes)%n", written, Files.exists(written) ? Files.size(written) : 0);
                }
            } else {
                long total = 0;
                for (Path written : files) {
                    total += Files.size(written);
                }
                out.printf("  output   %s ... %s (%d files, %d bytes)%n", files.get(0), files.get(files.size() - 1).getFileName(),
                        files.size(), total);
            }
            out.printf("  events   accepted %s, written %s, lost %d%n", LiveCommand.countOrNa(stats.acceptedEvents()),
                    LiveCommand.countOrNa(stats.deliveredEvents()), stats.eventsLost());
            out.printf("  buffers  written %d, lost %d%n", stats.buffersWritten(), stats.buffersLost());
            if (common.demoLoad) {
                out.printf("  load     %d rounds of the etw4j-Demo events%n", outcome.demoRounds());
            }
            if (mode == LogFileMode.SEQUENTIAL && maxSizeMb > 0 && stats.eventsLost() > 0 && Files.exists(first)
                    && Files.size(first) + (long) bufferSizeKb * 1024 > config.maximumFileSizeBytes()) {
                out.printf("  the file reached --max-size %d MB: events after that were lost (--circular keeps the "
                        + "latest, --new-file starts new files, --max-size 0 removes the limit)%n", maxSizeMb);
            }
            out.println(kernel == null ? "next: ./etw summary " + first + "   or   ./etw dump " + first
                    : "next: ./etw profile " + first + "   or   ./etw report " + first);
            out.flush();
        }
        return EtwCommand.OK;
    }

    /** The kernel groups and stack events, as the start line tells them. */
    private static String kernelGroups(KernelTracing k) {
        StringBuilder s = new StringBuilder();
        for (org.etw4j.controller.KernelFlag f : k.flags()) {
            s.append(s.isEmpty() ? "" : ",").append(f.name().toLowerCase(java.util.Locale.ROOT));
        }
        if (!k.stackEvents().isEmpty()) {
            s.append("; stacks on ").append(k.stackEvents().size()).append(" kernel events");
        }
        return s.toString();
    }

    private SessionConfig config(CommandLine cl, String sessionName, Path file, LogFileMode mode, KernelTracing kernel) {
        try {
            return SessionConfig.file(sessionName, file).bufferSizeKb(bufferSizeKb).fileMode(mode)
                    .maximumFileSizeMb(maxSizeMb).ifExists(common.ifExists()).kernel(kernel).build();
        } catch (SessionConfigException e) {
            throw new CommandLine.ParameterException(cl, "--max-size " + maxSizeMb + " with " + mode + ": " + e.getMessage());
        }
    }

    private LogFileMode fileMode(CommandLine cl) {
        if (circular && newFile) {
            // MS Learn, "Logging Mode Constants": CIRCULAR "Do not use with ... EVENT_TRACE_FILE_MODE_NEWFILE"
            throw new CommandLine.ParameterException(cl, "--circular and --new-file cannot be combined (a file is one or the other)");
        }
        if ((circular || newFile) && maxSizeMb == 0) {
            throw new CommandLine.ParameterException(cl, (circular ? "--circular" : "--new-file")
                    + " needs a --max-size above 0 (ETW requires MaximumFileSize for it)");
        }
        return circular ? LogFileMode.CIRCULAR : newFile ? LogFileMode.NEW_FILE : LogFileMode.SEQUENTIAL;
    }

    /** {@code output} with a {@code %d} for the file counter: as given when it has one, else before the extension. */
    static Path withCounter(Path output) {
        String name = String.valueOf(output.getFileName());
        if (name.contains("%d")) {
            return output;
        }
        int dot = name.lastIndexOf('.');
        String counted = dot > 0 ? name.substring(0, dot) + "_%d" + name.substring(dot) : name + "_%d";
        return output.resolveSibling(counted);
    }

    /** The files the session wrote: its one file, or a NEW_FILE session's numbered files that exist. */
    private static List<Path> filesWritten(SessionConfig config) {
        if (config.fileMode() != LogFileMode.NEW_FILE) {
            return List.of(config.logFile());
        }
        List<Path> files = new java.util.ArrayList<>();
        for (int n = 1; Files.exists(config.logFile(n)); n++) {
            files.add(config.logFile(n));
        }
        return files.isEmpty() ? List.of(config.logFile(1)) : files;
    }
}
