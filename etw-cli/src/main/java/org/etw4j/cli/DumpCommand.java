package org.etw4j.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.consumer.decode.EventDecoder;
import org.etw4j.consumer.decode.EventView;
import org.etw4j.consumer.decode.ManifestRegistry;
import org.etw4j.consumer.decode.ProviderSelection;
import org.etw4j.consumer.decode.TraceContext;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlRecordEvent;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.internal.FilePass;
import picocli.CommandLine.Command;
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
    EventOutput.Format format;

    @Option(names = "--provider", paramLabel = "NAME_OR_GUID",
            description = "only events of this provider (GUID, name, or name the GUID is derived from); repeatable")
    List<String> providers = new ArrayList<>();

    @Option(names = "--manifest", paramLabel = "FILE.xml",
            description = "instrumentation manifest describing events (e.g. a .man file); repeatable")
    List<Path> manifests = new ArrayList<>();

    @Option(names = "--max-events", paramLabel = "N", description = "stop after N events")
    Long maxEvents;

    @Override
    public Integer call() throws IOException {
        for (Path f : files) {
            if (!Files.isRegularFile(f)) {
                throw new CliException("not a file: " + f);
            }
        }
        EventDecoder decoder = decoder(manifests);
        ProviderSelection filter = new ProviderSelection(providers);
        EventOutput output = new EventOutput(spec.commandLine().getOut(), format);
        long limit = maxEvents == null ? Long.MAX_VALUE : maxEvents;
        if (limit < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--max-events must be >= 0");
        }

        List<EtlFile> open = new ArrayList<>();
        try (Progress progress = Progress.start(spec.commandLine().getErr(), "opening", 0)) {
            for (Path f : files) {
                progress.label("opening " + f.getFileName());
                try {
                    open.add(EtlFile.open(f));
                } catch (IOException | RuntimeException e) {
                    throw new CliException(f + ": " + EtwCommand.oneLine(e), e);
                }
            }
            // Progress: per file, how far through its time span the reader is (records come in time order),
            // weighted by file size. Files from different times merge one after the other, so a single time
            // span over all of them would jump.
            long[] openingWarnings = open.stream().mapToLong(EtlFile::warningCount).toArray();
            progress.label("reading processes and volumes");
            TraceContext context = FilePass.learnContext(open, decoder, false);
            // The first pass meets the same record problems as the second: count them once.
            long[] firstPassWarnings = new long[open.size()];
            for (int i = 0; i < open.size(); i++) {
                firstPassWarnings[i] = open.get(i).warningCount() - openingWarnings[i];
            }
            progress.label(files.size() == 1 ? String.valueOf(files.get(0).getFileName()) : files.size() + " files");
            progress.total(PROGRESS_SCALE);
            FilePass pass = FilePass.over(open);
            EventView event = new EventView(decoder);
            long written = 0;
            long seen = 0;
            while (written < limit && pass.advance()) {
                EtlRecordView view = pass.view();
                if ((++seen & 0xFFF) == 0) {
                    progress.update((long) (pass.fraction() * PROGRESS_SCALE), seen + " records");
                }
                EtlRecordEvent record = pass.record();
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
            // Problems the reader stepped over: counted, and said once per file (the records are not lost silently).
            for (int i = 0; i < open.size(); i++) {
                long warnings = open.get(i).warningCount() - firstPassWarnings[i];
                if (warnings > 0) {
                    java.io.PrintWriter err = spec.commandLine().getErr();
                    err.println("etw dump: " + open.get(i).name() + ": " + warnings + " warning"
                            + (warnings == 1 ? "" : "s") + " (malformed buffers or records skipped)");
                    err.flush();
                }
            }
        } catch (org.etw4j.consumer.etl.EtlFormatException e) {
            throw new CliException(EtwCommand.oneLine(e), e);
        } finally {
            for (EtlFile f : open) {
                f.close();
            }
            output.flush();
        }
        return EtwCommand.OK;
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
}
