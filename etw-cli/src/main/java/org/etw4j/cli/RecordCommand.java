package org.etw4j.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.EnableProperty;
import org.etw4j.controller.KernelTracing;
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

    @Mixin
    SessionOptions common;

    @Mixin
    KernelOptions kernelOptions;

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
        Path file = OutputTarget.prepareInPlace(output, force.force);
        EtwBackend backend = common.controllingBackend();
        PrintWriter out = cl.getOut();
        PrintWriter err = cl.getErr();
        SessionConfig config = SessionConfig.file(sessionName, file)
                .bufferSizeKb(bufferSizeKb)
                .ifExists(common.ifExists())
                .kernel(kernel)
                .build();

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
            out.printf("  output   %s (%d bytes)%n", file, Files.exists(file) ? Files.size(file) : 0);
            out.printf("  events   accepted %s, written %s, lost %d%n", LiveCommand.countOrNa(stats.acceptedEvents()),
                    LiveCommand.countOrNa(stats.deliveredEvents()), stats.eventsLost());
            out.printf("  buffers  written %d, lost %d%n", stats.buffersWritten(), stats.buffersLost());
            if (common.demoLoad) {
                out.printf("  load     %d rounds of the etw4j-Demo events%n", outcome.demoRounds());
            }
            out.println(kernel == null ? "next: ./etw summary " + file + "   or   ./etw dump " + file
                    : "next: ./etw profile " + file + "   or   ./etw report " + file);
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
}
