package org.etw4j.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.report.HtmlReport;
import org.etw4j.report.TraceReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code etw report FILE -o report.html}: one self-contained HTML page about a trace (etw-report's
 * {@link HtmlReport}): header facts, providers, events per second, top processes by CPU samples, flame graph.
 *
 * <p>A picocli command object: one instance per command line, not thread-safe. Reads the file twice, the trace
 * model's two passes, which also count the summary and the events per second ({@link TraceReport#read}); the page is
 * written to a temporary file beside the output and moved into place, so a failed run leaves no half page.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        header = "Write a self-contained HTML report of an .etl file.",
        description = "One HTML file that opens in any browser without network access: header facts as 'etw summary' "
                + "shows them, the provider table, events per second over time, top processes by CPU samples and an "
                + "interactive flame graph of the CPU samples (click to zoom, hover for name and count). Frames are "
                + "module!+0xOFFSET (no PDB symbols) or, for .NET JIT-compiled code, Module!Namespace.Type.Method. "
                + "Pure Java: any OS.")
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1", paramLabel = "FILE", description = ".etl file")
    Path file;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true,
            description = "the HTML file to write (- for stdout; an existing FILE needs --force)")
    Path output;

    @Mixin
    OutputTarget.Force force;

    @Mixin
    TraceWarnings.ListOption warningsOption;

    @Override
    public Integer call() throws IOException {
        InputFiles.check(java.util.List.of(file));
        TraceWarnings warnings = new TraceWarnings();
        // checked before the long read, not after it
        try (OutputTarget target = OutputTarget.open(output, force.force, spec.commandLine().getOut())) {
            TraceReport report;
            try (Progress progress = Progress.start(spec.commandLine().getErr(), "opening", 0);
                 EtlFile f = EtlFile.open(file, warnings.options())) {
                report = TraceReport.read(f, progress::label, progress.modelRead());
            } catch (IOException | RuntimeException e) { // EtlFormatException too: a one-line message naming the file
                throw new CliException(file + ": " + EtwCommand.oneLine(e), e);
            }
            if (report.cpu().sampleCount() == 0) {
                spec.commandLine().getErr().println("etw report: no CPU samples in the trace (the flame graph section "
                        + "says so; record with the kernel's profile flag)");
            }
            HtmlReport.write(report, target.writer());
            target.commit();
            if (!target.isStdout()) {
                spec.commandLine().getErr().println("etw report: wrote " + output + " (" + Files.size(target.path())
                        + " bytes, " + report.summary().totalRecords() + " records, " + report.cpu().sampleCount()
                        + " CPU samples)");
            }
        }
        return warnings.report(spec.commandLine().getErr(), "report", warningsOption.list);
    }
}
