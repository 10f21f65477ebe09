package org.etw4j.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.tracelogging.ProviderIds;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code etw guid NAME...}: the provider GUID EventSource and TraceLogging derive from a provider name.
 *
 * <p>A picocli command object: one instance per command line, not thread-safe. Its model is built in code
 * ({@link #commandLine()}), not read from annotations: {@code etw guid} is one of the commands whose start-up counts
 * (issue 20 target 2; {@link CommandSpecs} says why).
 */
final class GuidCommand implements Callable<Integer> {
    CommandSpec spec;

    List<String> names;

    /** A new command object and its picocli model: what {@code @Command(name = "guid", ...)} declared. */
    static CommandLine commandLine() {
        GuidCommand c = new GuidCommand();
        CommandSpec spec = CommandSpecs.subcommand(c, "guid", "Print the provider GUID derived from a provider name.",
                "The EventSource / TraceLogging rule: SHA-1 over a fixed namespace and the upper-cased UTF-16BE name, "
                        + "read as a version-5 GUID.");
        spec.addPositional(CommandSpecs.oneOrMore("NAME", String.class, "provider name(s), e.g. MyCompany-MyService",
                CommandSpecs.field(() -> c.names, v -> c.names = v)));
        c.spec = spec;
        return CommandSpecs.commandLine(spec);
    }

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        for (String name : names) {
            if (name.isEmpty()) {
                throw new UsageException("NAME must not be empty (a provider name, e.g. MyCompany-MyService)");
            }
            String guid = ProviderIds.fromName(name).toString();
            out.println(names.size() == 1 ? guid : guid + "  " + name);
        }
        out.flush();
        return EtwCommand.OK;
    }
}
