package org.etw4j.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.tracelogging.ProviderIds;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

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
        CommandSpec spec = CommandSpec.wrapWithoutInspection(c).name("guid");
        spec.usageMessage()
                .header("Print the provider GUID derived from a provider name.")
                .description("The EventSource / TraceLogging rule: SHA-1 over a fixed namespace and the upper-cased "
                        + "UTF-16BE name, read as a version-5 GUID.");
        var names = CommandSpecs.<List<String>>field(() -> c.names, v -> c.names = v);
        spec.addPositional(PositionalParamSpec.builder().arity("1..*").required(true).paramLabel("NAME")
                .type(List.class).auxiliaryTypes(String.class)
                .description("provider name(s), e.g. MyCompany-MyService")
                .getter(names).setter(names).build());
        CommandSpecs.standardHelpOptions(spec);
        c.spec = spec;
        return new CommandLine(spec);
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
