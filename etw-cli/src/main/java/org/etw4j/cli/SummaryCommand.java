package org.etw4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.ReadSetupException;
import org.etw4j.consumer.TraceFile;
import org.etw4j.consumer.UndecodedEvents;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlSummary;
import org.etw4j.consumer.output.JsonWriter;
import org.etw4j.report.TraceFacts;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code etw summary [--json] [--manifest M] FILE...}: header facts, record counts per header kind and provider,
 * first and last timestamps of .etl files, read with etw-consumer's pure-Java reader ({@link EtlSummary}), and how
 * many events of each kind no schema describes, with why ({@link UndecodedEvents}: the events decode as
 * {@code etw dump} decodes them).
 *
 * <p>A picocli command object: one instance per command line, not thread-safe; its model is built in code
 * ({@link SummaryCommandSpec}). The JSON is {@link EtlSummary}'s
 * with one member added, {@code undecoded}: one object for one file, an array for several.
 */
final class SummaryCommand implements Callable<Integer> {
    // The options' declarations and help text: SummaryCommandSpec.
    CommandSpec spec;

    boolean json;

    boolean noUndecoded;

    List<Path> manifests = new ArrayList<>();

    List<Path> files;

    TraceWarnings.ListOption warningsOption;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TraceWarnings warnings = new TraceWarnings();
        // A file that cannot be read does not hide the others: they are printed, it is an error line (and an
        // {"file":...,"error":...} entry in the JSON array), and the exit code is 1.
        List<EtlSummary> summaries = new ArrayList<>();
        List<UndecodedEvents> undecoded = new ArrayList<>();
        ReadSettings settings = settings(manifests);
        List<String> errors = new ArrayList<>();
        long totalBytes = 0;
        for (Path f : files) {
            totalBytes += Files.isRegularFile(f) ? Files.size(f) : 0;
        }
        // EtlSummary reads a file in one call: the line moves file by file (and shows which one is being read).
        try (Progress progress = Progress.start(err, "", totalBytes)) {
            long done = 0;
            for (int i = 0; i < files.size(); i++) {
                Path f = files.get(i);
                progress.label(f.getFileName() + (files.size() > 1 ? " (" + (i + 1) + "/" + files.size() + ")" : ""));
                String problem = InputFiles.problem(f);
                if (problem == null) {
                    try (EtlFile file = EtlFile.open(f, warnings.options())) {
                        if (noUndecoded) {
                            summaries.add(EtlSummary.of(file));
                            undecoded.add(null);
                        } else { // one read of the file: the summary counts the records the listing reads
                            EtlSummary.Counter counter = new EtlSummary.Counter();
                            UndecodedEvents u = undecoded(file, settings, counter);
                            summaries.add(counter.finish(file));
                            undecoded.add(u);
                        }
                    } catch (ReadSetupException e) { // a --manifest that cannot be read: the same for every file
                        throw new CliException(e.source() + ": " + EtwCommand.oneLine(e.getCause()), e);
                    } catch (IOException | RuntimeException e) {
                        problem = f + ": " + EtwCommand.oneLine(e);
                    }
                    done += Files.size(f);
                }
                if (problem != null) {
                    if (files.size() == 1) {
                        throw new CliException(problem);
                    }
                    if (summaries.size() > undecoded.size()) {
                        summaries.remove(summaries.size() - 1); // the summary was read, the decoding pass failed
                    }
                    summaries.add(null);
                    undecoded.add(null);
                    errors.add(problem);
                }
                progress.update(done, null);
            }
        }
        if (json) {
            out.println(json(summaries, undecoded, errors));
        } else {
            boolean first = true;
            for (int i = 0; i < summaries.size(); i++) {
                if (summaries.get(i) != null) {
                    if (!first) {
                        out.println();
                    }
                    printText(out, summaries.get(i), files.get(i), undecoded.get(i));
                    first = false;
                }
            }
        }
        out.flush();
        for (String e : errors) {
            err.println("summary: " + e);
        }
        int code = warnings.report(err, "summary", warningsOption.list);
        return errors.isEmpty() ? code : EtwCommand.FAILED;
    }

    /**
     * The summaries as JSON, each with its {@code undecoded} member: one object for one file, else an array with
     * {@code {"file":NAME,"error":TEXT}} where a file could not be read.
     */
    private String json(List<EtlSummary> summaries, List<UndecodedEvents> undecoded, List<String> errors) {
        StringBuilder sb = new StringBuilder();
        JsonWriter w = new JsonWriter(sb, 2);
        if (summaries.size() == 1) {
            UndecodedEvents u = undecoded.get(0);
            summaries.get(0).writeJson(w, u == null ? null : x -> u.writeJson(x.name("undecoded")));
            return sb.toString();
        }
        w.beginArray();
        int e = 0;
        for (int i = 0; i < summaries.size(); i++) {
            if (summaries.get(i) != null) {
                UndecodedEvents u = undecoded.get(i);
                summaries.get(i).writeJson(w, u == null ? null : x -> u.writeJson(x.name("undecoded")));
            } else {
                Path name = files.get(i).getFileName();
                w.beginObject().member("file", name == null ? files.get(i).toString() : name.toString())
                        .member("error", errors.get(e++)).endObject();
            }
        }
        w.endArray();
        return sb.toString();
    }

    /**
     * How the undecoded listing reads each file: the etw4j-Demo manifest and {@code manifests} (a manifest that
     * cannot be read ends the command, before any file is read), no trace context (only the schema matters here),
     * and the reader's tally of events no schema describes.
     */
    static ReadSettings settings(List<Path> manifests) throws IOException {
        return DumpCommand.manifests(ReadSettings.builder(), manifests)
                .traceContext(ReadSettings.TraceContext.NONE).tallyUndecoded(true).build();
    }

    /**
     * The events of {@code file} no schema describes, decoded as {@code etw dump} decodes them: read through the
     * consumer's reader ({@link TraceFile#over}, with {@link ReadSettings.Builder#tallyUndecoded}) over the file
     * already open for the summary. Each record is also given to {@code summary} (which counts in any order), so
     * that the file is read once.
     */
    static UndecodedEvents undecoded(EtlFile file, ReadSettings settings, EtlSummary.Counter summary)
            throws ReadSetupException {
        TraceFile in = TraceFile.over(settings, List.of(file));
        while (in.hasMoreEvents()) {
            in.readEvent();
            summary.add(in.record());
        }
        return in.undecoded();
    }

    private static void printText(PrintWriter out, EtlSummary s, Path path, UndecodedEvents undecoded)
            throws IOException {
        out.println(s.file() + "  (" + Files.size(path) + " bytes)");
        TextTable t = new TextTable("  ");
        for (TraceFacts.Fact f : TraceFacts.of(s)) { // the same lines as the HTML report's header
            t.row(f.label(), f.value());
        }
        t.print(out);
        out.println("  providers (" + s.providers().size() + ")");
        TextTable p = new TextTable("    ");
        for (EtlSummary.ProviderSummary ps : s.providers()) {
            p.row(ps.records(), ps.id(), ps.label() == null ? "" : ps.label(), TraceFacts.kinds(ps.byHeaderKind()).trim());
        }
        p.print(out);
        if (undecoded == null) {
            return;
        }
        List<UndecodedEvents.Kind> kinds = undecoded.kinds();
        out.println("  undecoded events (" + undecoded.total() + " in " + kinds.size() + " kind"
                + (kinds.size() == 1 ? "" : "s") + ")");
        TextTable u = new TextTable("    ");
        for (UndecodedEvents.Kind k : kinds) {
            u.row(k.count(), k.providerName() + "/" + k.eventName(), "id " + k.id() + " opcode " + k.opcode()
                    + " v" + k.version(), k.why());
        }
        u.print(out);
    }
}
