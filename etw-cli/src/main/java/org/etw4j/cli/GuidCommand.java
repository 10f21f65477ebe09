package org.etw4j.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.tracelogging.ProviderIds;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code etw guid NAME...}: the provider GUID EventSource and TraceLogging derive from a provider name.
 *
 * <p>A picocli command object: one instance per command line, not thread-safe.
 */
@Command(name = "guid", mixinStandardHelpOptions = true,
        header = "Print the provider GUID derived from a provider name.",
        description = "The EventSource / TraceLogging rule: SHA-1 over a fixed namespace and the upper-cased "
                + "UTF-16BE name, read as a version-5 GUID.")
final class GuidCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "NAME", description = "provider name(s), e.g. MyCompany-MyService")
    List<String> names;

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
