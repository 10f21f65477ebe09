package org.etw4j.cli;

import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * The subcommands of {@code etw}, in the order {@code etw --help} lists them: each one's name and how to build it.
 *
 * <p>Stateless; thread-safe (each {@link Entry#command()} call builds a new command object). Adding a command is
 * one line here. A command line that names a subcommand builds that one alone, so that only its classes load
 * ({@link EtwCommand#commandLine(java.io.PrintWriter, java.io.PrintWriter, String...)}): the names are here as plain
 * strings because reading them from each command's {@code @Command} annotation would load every command class and
 * make the JDK spin a dynamic proxy class for the annotation, the largest part of {@code etw guid}'s start-up
 * (PERFORMANCE.md, "issue 20 target 2, start-up"). {@code SubcommandsTest} checks that each name here is the one
 * its command declares.
 */
final class Subcommands {
    private Subcommands() {
    }

    /**
     * One subcommand.
     *
     * @param name    the name it is run by (no command has an alias)
     * @param command builds what {@link CommandLine#addSubcommand(String, Object)} takes: a command class picocli
     *                reads the annotations of, or a {@link CommandLine} whose model is built in code
     */
    record Entry(String name, Supplier<Object> command) {
    }

    /** Every subcommand, in {@code --help} order; picocli's {@code help} command last. */
    static final List<Entry> ALL = List.of(
            new Entry("demo", () -> DemoCommand.class),
            new Entry("guid", GuidCommand::commandLine),
            new Entry("summary", SummaryCommandSpec::commandLine),
            new Entry("dump", () -> DumpCommand.class),
            new Entry("profile", () -> ProfileCommand.class),
            new Entry("timeline", () -> TimelineCommand.class),
            new Entry("report", () -> ReportCommand.class),
            new Entry("record", () -> RecordCommand.class),
            new Entry("live", () -> LiveCommand.class),
            new Entry("help", () -> CommandLine.HelpCommand.class));

    /** The subcommand named {@code name}, or null; {@code help} is not looked up (it needs the others to help on). */
    static Entry named(String name) {
        for (Entry e : ALL) {
            if (e.name().equals(name) && !e.name().equals("help")) {
                return e;
            }
        }
        return null;
    }
}
