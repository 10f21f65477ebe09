package org.etw4j.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.consumer.decode.EventDecoder;
import org.etw4j.consumer.decode.EventView;
import org.etw4j.consumer.decode.ManifestRegistry;
import org.etw4j.consumer.decode.ProviderSelection;
import org.etw4j.consumer.decode.TraceContext;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlMergedCursor;
import org.etw4j.consumer.etl.EtlRecordEvent;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.etl.ReadFraction;
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
 * <p>A picocli command object: one instance per command line, not thread-safe. Reads with etw-consumer's
 * pure-Java reader (several files are merged in time order) and decodes with its {@link EventDecoder}: kernel
 * (MOF) layouts built in, EventSource manifests found in the trace, TraceLogging schemas carried by the events,
 * the instrumentation manifests given with {@code --manifest}, and the built-in one of the etw4j-Demo provider
 * (so that files made by {@code etw record --demo-load} decode). Reads the files directly rather than through an
 * {@link org.etw4j.consumer.EventStream}, to keep one decoder over all files and the reader's views at hand.
 * The files are read twice, as TraceEvent's TraceLog reads a trace: a first pass feeds a {@link TraceContext}
 * (volume mapping, processes, threads, file names), then every event is shown through it: file names in
 * drive-letter form, the process each event belongs to. Events are decoded into one reused {@link EventView} and
 * written from it, without building a {@link org.etw4j.consumer.decode.DecodedEvent} for the events it reads in
 * place.
 */
@Command(name = "dump", mixinStandardHelpOptions = true,
        header = "Print the decoded events of .etl files (text, jsonl or csv).",
        description = "Several files are merged in time order. Events decode with the built-in kernel layouts, "
                + "the EventSource manifests found in the trace, TraceLogging schemas, the etw4j-Demo manifest and the "
                + "manifests given with --manifest. Pure Java: any OS.")
final class DumpCommand implements Callable<Integer> {
    /** Units of the progress bar's total (ReadFraction gives 0 to 1). */
    private static final long PROGRESS_SCALE = 1_000_000;

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

    @Mixin
    TraceWarnings.ListOption warningsOption;

    @Override
    public Integer call() throws IOException {
        InputFiles.check(files);
        EventDecoder decoder = decoder(manifests);
        ProviderSelection filter = providerSelection(providers, "--provider");
        TraceWarnings warnings = new TraceWarnings();
        EventFormatter output = formatter(spec.commandLine().getOut(), format);
        long limit = maxEvents == null ? Long.MAX_VALUE : maxEvents;
        if (limit < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--max-events must be >= 0");
        }

        List<EtlFile> open = new ArrayList<>();
        try (Progress progress = Progress.start(spec.commandLine().getErr(), "opening", 0)) {
            for (Path f : files) {
                progress.label("opening " + f.getFileName());
                try {
                    open.add(EtlFile.open(f, warnings.options()));
                } catch (IOException | RuntimeException e) {
                    throw new CliException(f + ": " + EtwCommand.oneLine(e), e);
                }
            }
            // Progress: per file, how far through its time span the reader is (records come in time order),
            // weighted by file size. Files from different times merge one after the other, so a single time
            // span over all of them would jump.
            ReadFraction fp = new ReadFraction(open);
            progress.label("reading processes and volumes");
            TraceContext context = firstPass(open, decoder);
            progress.label(files.size() == 1 ? String.valueOf(files.get(0).getFileName()) : files.size() + " files");
            progress.total(PROGRESS_SCALE);
            EtlCursor cursor = open.size() == 1 ? open.get(0).cursor() : EtlMergedCursor.of(open);
            EtlRecordEvent record = new EtlRecordEvent();
            EventView event = new EventView(decoder);
            long written = 0;
            long seen = 0;
            while (written < limit && cursor.advance()) {
                EtlRecordView view = cursor.record();
                if ((++seen & 0xFFF) == 0) {
                    progress.update((long) (fp.at(view) * PROGRESS_SCALE), seen + " records");
                }
                record.of(view);
                if (!filter.acceptsId(record.providerId()) && !filter.hasNames()) {
                    continue;
                }
                event.decode(record);
                if (!filter.accepts(event)) {
                    continue;
                }
                context.present(record, event); // drive-letter paths, file names of file keys, the process
                output.write(record, event, view.timestampInstant());
                written++;
            }
            output.flush();
            if (written == 0 && limit > 0 && !providers.isEmpty()) {
                warnings.report(spec.commandLine().getErr(), "dump", warningsOption.list);
                return noMatch(spec.commandLine().getErr(), "dump", "--provider", providers);
            }
        } catch (org.etw4j.consumer.etl.EtlFormatException e) {
            throw new CliException(EtwCommand.oneLine(e), e);
        } finally {
            for (EtlFile f : open) {
                f.close();
            }
            output.flush();
        }
        // Problems the reader stepped over: counted, and said once per file (the records are not lost silently).
        return warnings.report(spec.commandLine().getErr(), "dump", warningsOption.list);
    }

    /** A provider filter's selection; an empty or blank name is a usage error naming {@code option}. */
    static ProviderSelection providerSelection(List<String> providers, String option) {
        try {
            return new ProviderSelection(providers);
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
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

    /**
     * The decoder of the commands that read files: the etw4j-Demo manifest and {@code manifests} registered (a
     * manifest that cannot be read ends the command).
     */
    static EventDecoder decoder(List<Path> manifests) throws IOException {
        ManifestRegistry registry = new ManifestRegistry();
        registry.register(DemoEvents.loadManifest());
        for (Path m : manifests) {
            try {
                registry.register(m);
            } catch (IOException e) {
                throw new CliException("manifest " + m + ": " + EtwCommand.oneLine(e), e);
            }
        }
        return new EventDecoder(registry);
    }

    /**
     * The first of two passes, as TraceEvent's TraceLog reads a trace: the volume mapping, processes, threads and
     * file names of {@code open}, so that events logged before the rundown that describes their process show it.
     */
    private static TraceContext firstPass(List<EtlFile> open, EventDecoder decoder) {
        TraceContext context = new TraceContext();
        EtlRecordEvent record = new EtlRecordEvent();
        EtlCursor cursor = open.size() == 1 ? open.get(0).cursor() : EtlMergedCursor.of(open);
        while (cursor.advance()) {
            context.learn(record.of(cursor.record()), decoder);
        }
        return context;
    }
}
