package org.etw4j.samples.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.Level;
import org.etw4j.controller.TraceSession;
import picocli.CommandLine;

/**
 * What {@code etw record} and {@code etw live} share: which providers to enable and enabling them.
 *
 * <p>Stateless; thread-safe.
 */
final class SessionSetup {
    private SessionSetup() {
    }

    /**
     * The providers to enable: those given, plus the demo provider when {@code demoLoad} is set and it is not
     * among them. None at all is a usage error.
     */
    static List<ProviderSpec> providers(CommandLine cl, List<ProviderSpec> given, boolean demoLoad) {
        List<ProviderSpec> list = new ArrayList<>(given);
        if (demoLoad && list.stream().noneMatch(p -> p.id().equals(DemoEvents.PROVIDER_ID))) {
            list.add(new ProviderSpec(DemoEvents.PROVIDER_NAME, DemoEvents.PROVIDER_ID, Level.VERBOSE.value(), -1L));
        }
        if (list.isEmpty()) {
            throw new CommandLine.ParameterException(cl, "give at least one --provider (or --demo-load)");
        }
        return list;
    }

    static void enable(TraceSession s, List<ProviderSpec> providers) {
        for (ProviderSpec p : providers) {
            s.enable(p.id(), p.parameters());
        }
    }

    static String format(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }
}
