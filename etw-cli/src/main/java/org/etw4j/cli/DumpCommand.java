package org.etw4j.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.ReadSetupException;
import org.etw4j.consumer.TraceFile;
import org.etw4j.consumer.output.EventFormat;
import org.etw4j.consumer.output.EventFormatter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code etw dump FILE...}: the events of .etl files, decoded, as text, JSON Lines or CSV.
 *
 * <p>A picocli command object: one instance per command line, not thread-safe. Open, loop, format: the files are
 * read through {@link TraceFile} (the consumer's one read path, the one {@link org.etw4j.consumer.EventStream}
 * reads files through), decoded with the built-in kernel (MOF) layouts, EventSource manifests found in the trace,
 * TraceLogging schemas carried by the events, the manifests given with {@code --manifest} and the built-in one of
 * the etw4j-Demo provider (so that files made by {@code etw record --demo-load} decode). The reader's default two
 * passes, as TraceEvent's TraceLog reads a trace, show every event through the trace's context: file names in
 * drive-letter form, the process each event belongs to. Events are written from the reader's reused view
 * ({@link EventFormatter#write(EventRecord)}), without building a {@code DecodedEvent} for the events it reads in place.
 */
@Command(name = "dump", mixinStandardHelpOptions = true,
        header = "Print the decoded events of .etl files (text, jsonl or csv).",
        description = "Several files are merged in time order. Events decode with the built-in kernel layouts, "
                + "the EventSource manifests found in the trace, TraceLogging schemas, the etw4j-Demo manifest and the "
                + "manifests given with --manifest. Pure Java: any OS.")
final class DumpCommand implements Callable<Integer> {
    /** Units of the progress bar's total (TraceFile.progress gives 0 to 1). */
    private static final long PROGRESS_SCALE = 1_000_000;
    /** The progress line is updated every this many records read. */
    private static final long PROGRESS_EVERY = 4096;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = ".etl file(s)")
    List<Path> files;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text, jsonl or csv (default: ${DEFAULT-VALUE})")
    EventFormat format;

    @Option(names = "--provider", paramLabel = "NAME_OR_GUID",
            description = "only events of this provider (GUID, name, or name the GUID is derived from); repeatable")
    List<String> providers = new ArrayList<>();

    @Option(names = "--manifest", paramLabel = "FILE.xml",
            description = "instrumentation manifest describing events (e.g. a .man file); repeatable")
    List<Path> manifests = new ArrayList<>();

    @Option(names = "--max-events", paramLabel = "N", description = "stop after N events")
    Long maxEvents;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "0",
            description = "decode and format on N more threads while this one reads (0: all on one thread, the "
                    + "default; the output is the same, byte for byte; worth it with a free core)")
    int threads;

    @Mixin
    TraceWarnings.ListOption warningsOption;

    @Override
    public Integer call() throws IOException {
        InputFiles.check(files);
        TraceWarnings warnings = new TraceWarnings();
        long limit = maxEvents == null ? Long.MAX_VALUE : maxEvents;
        if (threads < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--threads must be >= 0");
        }
        if (limit < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--max-events must be >= 0");
        }
        ReadSettings.Builder settings = manifests(providers(ReadSettings.builder(), providers, "--provider"), manifests)
                .warnings(warnings);
        EventFormatter output = formatter(spec.commandLine().getOut(), format);
        try (Progress progress = Progress.start(spec.commandLine().getErr(), "reading processes and volumes", 0);
             TraceFile in = TraceFile.open(settings.build(), files)) {
            long written = 0;
            long shown = 0;
            java.io.OutputStream bytes = StdoutWriter.bytesOf(spec.commandLine().getOut());
            if (threads > 0 && bytes != null) {
                written = in.writeEvents(format, bytes, limit, threads, n -> showProgress(progress, in, in.recordsRead()));
            }
            while ((threads == 0 || bytes == null) && written < limit && in.hasMoreEvents()) {
                EventRecord e = in.readEvent();
                if (in.recordsRead() - shown >= PROGRESS_EVERY) {
                    shown = in.recordsRead();
                    showProgress(progress, in, shown);
                }
                output.write(e);
                written++;
            }
            output.flush();
            if (written == 0 && limit > 0 && !providers.isEmpty()) {
                warnings.report(spec.commandLine().getErr(), "dump", warningsOption.list);
                return noMatch(spec.commandLine().getErr(), "dump", "--provider", providers);
            }
        } catch (ReadSetupException e) {
            throw new CliException(e.source() + ": " + EtwCommand.oneLine(e.getCause()), e);
        } catch (org.etw4j.consumer.etl.EtlFormatException e) {
            throw new CliException(EtwCommand.oneLine(e), e);
        } finally {
            output.flush();
        }
        // Problems the reader stepped over: counted, and said once per file (the records are not lost silently).
        return warnings.report(spec.commandLine().getErr(), "dump", warningsOption.list);
    }

    private void showProgress(Progress progress, TraceFile in, long records) {
        progress.label(files.size() == 1 ? String.valueOf(files.get(0).getFileName()) : files.size() + " files");
        progress.total(PROGRESS_SCALE);
        progress.update((long) (in.progress() * PROGRESS_SCALE), records + " records");
    }

    /**
     * {@code settings} with the provider filter {@code providers}; an empty or blank name is a usage error naming
     * {@code option} (said before anything is read).
     */
    static ReadSettings.Builder providers(ReadSettings.Builder settings, List<String> providers, String option) {
        try {
            return settings.providers(providers);
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }

    /**
     * {@code settings} with the manifests the reading commands decode with: the etw4j-Demo provider's built-in one
     * (so that files made by {@code etw record --demo-load} decode), then the {@code --manifest} files in order.
     */
    static ReadSettings.Builder manifests(ReadSettings.Builder settings, List<Path> manifests) throws IOException {
        settings.manifest(DemoEvents.manifestBytes());
        manifests.forEach(settings::manifest);
        return settings;
    }

    /**
     * Says on {@code err} that the provider filter {@code option} matched no event, and returns
     * {@value EtwCommand#NO_MATCH}: an empty output is otherwise indistinguishable from a trace without such events.
     */
    static int noMatch(java.io.PrintWriter err, String command, String option, List<String> providers) {
        err.println(command + ": no event matched " + option + " " + String.join(",", providers)
                + " (a name matches through the trace's own metadata, the --manifest files and the GUID derived from "
                + "it; a GUID always matches)");
        err.flush();
        return EtwCommand.NO_MATCH;
    }

    /**
     * The formatter of {@code etw dump}: UTF-8 bytes straight to the standard output's stream, or, for a caller's
     * own writer (tests, embedding), through it.
     */
    static EventFormatter formatter(java.io.PrintWriter out, EventFormat format) {
        java.io.OutputStream bytes = StdoutWriter.bytesOf(out);
        return bytes != null ? new EventFormatter(format, bytes) : new EventFormatter(format, out, false);
    }
}
