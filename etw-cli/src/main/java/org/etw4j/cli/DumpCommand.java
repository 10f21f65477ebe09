package org.etw4j.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.ReadSetupException;
import org.etw4j.consumer.TraceFile;
import org.etw4j.consumer.decode.EventDecoder;
import org.etw4j.consumer.decode.ManifestRegistry;
import org.etw4j.consumer.internal.EventRecordAccess;
import picocli.CommandLine.Command;
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
 * ({@link EventRecordAccess#view}), without building a {@code DecodedEvent} for the events it reads in place.
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
        long limit = maxEvents == null ? Long.MAX_VALUE : maxEvents;
        if (limit < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--max-events must be >= 0");
        }
        ReadSettings.Builder settings = ReadSettings.builder().manifest(DemoEvents.manifestBytes()).providers(providers);
        manifests.forEach(settings::manifest);
        EventOutput output = new EventOutput(spec.commandLine().getOut(), format);
        try (Progress progress = Progress.start(spec.commandLine().getErr(), "reading processes and volumes", 0);
             TraceFile in = TraceFile.open(settings.build(), files)) {
            long written = 0;
            long shown = 0;
            while (written < limit && in.hasMoreEvents()) {
                EventRecord e = in.readEvent();
                if (in.recordsRead() - shown >= PROGRESS_EVERY) {
                    shown = in.recordsRead();
                    progress.label(files.size() == 1 ? String.valueOf(files.get(0).getFileName()) : files.size() + " files");
                    progress.total(PROGRESS_SCALE);
                    progress.update((long) (in.progress() * PROGRESS_SCALE), shown + " records");
                }
                output.write(EventRecordAccess.raw(e), EventRecordAccess.view(e), e.exactTimestamp());
                written++;
            }
            // Problems the reader stepped over: counted, and said once per file (the records are not lost silently).
            for (TraceFile.Warnings w : in.warnings()) {
                if (w.count() > 0) {
                    java.io.PrintWriter err = spec.commandLine().getErr();
                    err.println("etw dump: " + w.file() + ": " + w.count() + " warning"
                            + (w.count() == 1 ? "" : "s") + " (malformed buffers or records skipped)");
                    err.flush();
                }
            }
        } catch (ReadSetupException e) {
            throw new CliException(e.source() + ": " + EtwCommand.oneLine(e.getCause()), e);
        } catch (org.etw4j.consumer.etl.EtlFormatException e) {
            throw new CliException(EtwCommand.oneLine(e), e);
        } finally {
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
