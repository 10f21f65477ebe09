package org.etw4j.cli;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The picocli model of {@code etw summary} ({@link SummaryCommand}), built in code: what its {@code @Command},
 * {@code @Option} and {@code @Parameters} annotations declared, with the same help text.
 *
 * <p>Stateless; thread-safe (each call builds a new command object). Apart from the command so that the command's
 * body and its declaration change independently; in code rather than annotations because {@code etw summary} is a
 * start-up target (issue 20 target 2; {@link CommandSpecs} says why). The {@code --warnings} mixin, shared with the
 * annotated commands, takes its name and text from {@link TraceWarnings.ListOption}'s constants.
 */
final class SummaryCommandSpec {
    private SummaryCommandSpec() {
    }

    /** A new {@link SummaryCommand} and its picocli model. */
    static CommandLine commandLine() {
        SummaryCommand c = new SummaryCommand();
        CommandSpec spec = CommandSpecs.subcommand(c, "summary",
                "Summarize .etl files (header, record counts, providers, time span).",
                "Reads the files with etw4j's pure-Java reader (any OS). --json prints the library's "
                        + "EtlSummary JSON (one object for one file, an array for several) with the undecoded events "
                        + "added. Undecoded events: per provider, id/opcode and version, how many no schema describes "
                        + "(built-in kernel and CLR tables, in-trace metadata, --manifest files) and why.");
        // initial values as picocli reads them from annotated fields (it resets each option to it before parsing)
        var json = CommandSpecs.<Boolean>field(() -> c.json, v -> c.json = v);
        spec.addOption(OptionSpec.builder("--json").type(boolean.class)
                .description("print JSON (one object for one file, an array for several)")
                .initialValue(c.json).getter(json).setter(json).build());
        var noUndecoded = CommandSpecs.<Boolean>field(() -> c.noUndecoded, v -> c.noUndecoded = v);
        spec.addOption(OptionSpec.builder("--no-undecoded").type(boolean.class)
                .description("skip the decoding pass that counts undecoded events (faster: the summary then reads "
                        + "record headers only)")
                .initialValue(c.noUndecoded).getter(noUndecoded).setter(noUndecoded).build());
        var manifests = CommandSpecs.<List<Path>>field(() -> c.manifests, v -> c.manifests = v);
        spec.addOption(OptionSpec.builder("--manifest").paramLabel("MAN").type(List.class).auxiliaryTypes(Path.class)
                .description("instrumentation manifest(s) to decode with")
                .initialValue(c.manifests).getter(manifests).setter(manifests).build());
        spec.addPositional(CommandSpecs.oneOrMore("FILE", Path.class, ".etl file(s)",
                CommandSpecs.field(() -> c.files, v -> c.files = v)));
        c.warningsOption = new TraceWarnings.ListOption().addTo(spec, "warningsOption");
        c.spec = spec;
        return CommandSpecs.commandLine(spec);
    }
}
