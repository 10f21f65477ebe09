package org.etw4j.samples.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.controller.IfSessionExists;
import org.etw4j.controller.SessionConfig;
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
@Command(name = "record", mixinStandardHelpOptions = true,
        header = "Record provider events into an .etl file.",
        description = "Starts a file-mode session, enables the providers and writes until Ctrl-C or --duration "
                + "(the file is completed either way). Off Windows the session runs on the simulated ETW, where only "
                + "providers in this process exist: use --demo-load.")
final class RecordCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--session", paramLabel = "NAME", defaultValue = "etw4j-record",
            description = "session name (default: ${DEFAULT-VALUE})")
    String session;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE.etl", required = true, description = "the .etl file to write")
    Path output;

    @Option(names = "--provider", paramLabel = "NAME_OR_GUID[:LEVEL[:KEYWORDS]]", converter = ProviderSpec.Converter.class,
            description = "provider to enable; repeatable. LEVEL: 0-255 or critical/error/warning/info/verbose "
                    + "(default verbose); KEYWORDS: MatchAnyKeyword mask, 0x... or decimal (default all)")
    List<ProviderSpec> providers = new ArrayList<>();

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
            description = "stop after this long (e.g. 10s, 2m); default: until Ctrl-C")
    Duration duration;

    @Option(names = "--demo-load", description = "also write the events of 'etw demo' (provider etw4j-Demo) from this process")
    boolean demoLoad;

    @Option(names = "--rate", paramLabel = "N", defaultValue = "1000",
            description = "--demo-load rounds per second, 6 events each (default: ${DEFAULT-VALUE})")
    long rate;

    @Option(names = "--buffer-size", paramLabel = "KB", defaultValue = "64",
            description = "session buffer size in KB (default: ${DEFAULT-VALUE})")
    int bufferSizeKb;

    @Option(names = "--replace", description = "stop a running session of the same name first")
    boolean replace;

    @Mixin
    BackendOption backendOption;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        List<ProviderSpec> enable = SessionSetup.providers(cl, providers, demoLoad);
        if (rate < 1 || rate > 1_000_000) {
            throw new CommandLine.ParameterException(cl, "--rate must be 1-1000000, got " + rate);
        }
        Path file = output.toAbsolutePath();
        if (file.getParent() != null && !Files.isDirectory(file.getParent())) {
            throw new CliException("output folder does not exist: " + file.getParent());
        }
        EtwBackend backend = backendOption.backend();
        if (!backend.supportsControl()) {
            throw new CliException("backend " + backend.name() + " cannot start sessions");
        }
        PrintWriter out = cl.getOut();
        PrintWriter err = cl.getErr();
        SessionConfig config = SessionConfig.file(session, file)
                .bufferSizeKb(bufferSizeKb)
                .ifExists(replace ? IfSessionExists.REPLACE : IfSessionExists.FAIL)
                .build();

        long started = System.nanoTime();
        // Everything, the report included, happens before the StopSignal closes: on Ctrl-C the JVM exits as
        // soon as the shutdown hook returns, and the hook waits for that close.
        try (StopSignal signal = new StopSignal()) {
            SessionStatistics stats;
            long rounds = 0;
            try (TraceSession s = TraceSession.start(config, backend)) {
                SessionSetup.enable(s, enable);
                DemoLoad load = demoLoad ? DemoLoad.start(backend, rate) : null;
                err.println("recording session '" + session + "' on the " + backend.name() + " backend to " + file
                        + (duration == null ? "; press Ctrl-C to stop" : " for " + SessionSetup.format(duration)));
                err.flush();
                try {
                    signal.await(duration);
                } finally {
                    if (load != null) {
                        load.close();
                        rounds = load.rounds();
                    }
                    s.stop(); // completes the file: final header, last buffers
                }
                stats = SessionSetup.finalStatistics(s);
            }
            if (backend instanceof SimulatedBackend sim && !sim.backgroundErrors().isEmpty()) {
                throw new CliException("writing " + file + " failed: " + EtwCommand.oneLine(sim.backgroundErrors().get(0)));
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            out.printf("session %s stopped after %.1f s%s%n", session, seconds, signal.byShutdown() ? " (interrupted)" : "");
            out.printf("  output   %s (%d bytes)%n", file, Files.exists(file) ? Files.size(file) : 0);
            out.printf("  events   accepted %d, written %d, lost %d%n", stats.eventsAccepted(), stats.eventsDelivered(),
                    stats.eventsLost());
            out.printf("  buffers  written %d, lost %d%n", stats.buffersWritten(), stats.buffersLost());
            if (demoLoad) {
                out.printf("  load     %d rounds of the etw4j-Demo events%n", rounds);
            }
            out.println("next: ./etw summary " + file + "   or   ./etw dump " + file);
            out.flush();
        }
        return EtwCommand.OK;
    }
}
