package org.etw4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.ReadSetupException;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlFormatException;
import org.etw4j.consumer.model.Timeline;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code etw timeline FILE... [-o trace.json]}: .etl files as a Trace Event Format JSON file that ui.perfetto.dev
 * and chrome://tracing open (see {@link Timeline}).
 *
 * <p>A picocli command object: one instance per command line, not thread-safe. Decodes like {@code etw dump}
 * (built-in kernel layouts, the trace's own schemas, the etw4j-Demo manifest and {@code --manifest} files).
 */
@Command(name = "timeline", mixinStandardHelpOptions = true,
        header = "Write .etl files as a timeline: trace-event JSON for Perfetto.",
        description = "A track per process and thread; CPU samples (PerfInfo/SampleProf) as instants with their "
                + "sampled frame; Start/Stop event pairs (opcodes 1/2, matched by activity id, else on their "
                + "thread) as slices; every other event as an instant named Provider/Task/Opcode with its decoded "
                + "fields. Opens in ui.perfetto.dev and chrome://tracing. Times in microseconds since the trace's "
                + "start. Several files are merged in time order. "
                + "A summary goes to stderr. Pure Java: any OS.")
final class TimelineCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = ".etl file(s)")
    List<Path> files;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write to FILE instead of stdout (- for "
            + "stdout; an existing FILE needs --force)")
    Path output;

    @Mixin
    OutputTarget.Force force;

    @Mixin
    TraceWarnings.ListOption warningsOption;

    @Option(names = {"--providers", "--provider"}, split = ",", paramLabel = "NAME_OR_GUID",
            description = "only events of these providers (GUID, name, or name the GUID is derived from; "
                    + "comma-separated or repeated); CPU samples are kept unless --no-samples")
    List<String> providers = new ArrayList<>();

    @Option(names = "--no-samples", description = "leave out the CPU samples")
    boolean noSamples;

    @Option(names = "--no-instants", description = "leave out events that are not Start/Stop pairs (slices and "
            + "samples only)")
    boolean noInstants;

    @Option(names = "--from", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "draw from this long after the trace's start (e.g. 1.5s, 200ms)")
    Duration from;

    @Option(names = "--to", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "draw up to this long after the trace's start")
    Duration to;

    @Option(names = "--manifest", paramLabel = "FILE.xml",
            description = "instrumentation manifest describing events (e.g. a .man file); repeatable")
    List<Path> manifests = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        InputFiles.check(files);
        long fromTicks = from == null ? 0 : ticks(from);
        long toTicks = to == null ? Long.MAX_VALUE : ticks(to);
        if (toTicks < fromTicks) {
            throw new ParameterException(spec.commandLine(), "--to must not be before --from");
        }
        // An empty provider name is a usage error; the manifests are read when the write starts.
        DumpCommand.providers(ReadSettings.builder(), providers, "--providers");
        ReadSettings.Builder decoding = DumpCommand.manifests(ReadSettings.builder(), manifests);
        PrintWriter err = spec.commandLine().getErr();
        TraceWarnings warnings = new TraceWarnings();
        List<EtlFile> open = new ArrayList<>();
        Timeline.Summary summary;
        try (OutputTarget target = OutputTarget.open(output, force.force, spec.commandLine().getOut());
             Progress progress = Progress.start(err, "opening", 0)) {
            for (Path f : files) {
                try {
                    open.add(EtlFile.open(f, warnings.options()));
                } catch (IOException | RuntimeException e) {
                    throw new CliException(f + ": " + EtwCommand.oneLine(e), e);
                }
            }
            Timeline.Options options;
            try {
                options = Timeline.Options.defaults().withProviders(providers).withSamples(!noSamples)
                        .withInstants(!noInstants).withRange(fromTicks, toTicks)
                        .withManifests(decoding.build())
                        .withProgress(progress.modelRead());
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            progress.label(files.size() == 1 ? "reading " + files.get(0).getFileName() : "reading " + files.size()
                    + " files");
            summary = Timeline.write(open, options, target.writer());
            target.writer().write('\n');
            target.commit();
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof ReadSetupException r) { // a --manifest that cannot be read ends the command
                throw new CliException(r.source() + ": " + EtwCommand.oneLine(r.getCause()), r);
            }
            throw e;
        } catch (EtlFormatException e) {
            throw new CliException(EtwCommand.oneLine(e), e);
        } finally {
            for (EtlFile f : open) {
                f.close();
            }
        }
        err.println("etw timeline: " + summary.samples() + " CPU samples, " + summary.slices() + " slices, "
                + summary.instants() + " instants on " + summary.processes() + " processes / " + summary.threads()
                + " threads; " + summary.unmatchedStarts() + " starts without stop, " + summary.unmatchedStops()
                + " stops without start" + (OutputTarget.isStdout(output) ? "" : "; written to " + output));
        err.flush();
        int code = warnings.report(err, "timeline", warningsOption.list);
        if (!providers.isEmpty() && summary.pairs() + summary.instants() + summary.unmatchedStarts()
                + summary.unmatchedStops() == 0) {
            return DumpCommand.noMatch(err, "timeline", "--providers", providers);
        }
        return code;
    }

    /** A duration in 100 ns ticks (saturating). */
    private static long ticks(Duration d) {
        try {
            return Math.multiplyExact(d.getSeconds(), 10_000_000L) + d.getNano() / 100;
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
