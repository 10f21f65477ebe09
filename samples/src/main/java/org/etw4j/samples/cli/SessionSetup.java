package org.etw4j.samples.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.Level;
import org.etw4j.controller.SessionStatistics;
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

    /**
     * The counters of a stopped session once they are final. On Ctrl-C, TraceSession's own shutdown hook may be
     * stopping the session at the same moment; a second stop() returns at once while the first is still
     * delivering the last buffers, so wait (at most 10 s) until nothing is pending any more. Counters ETW does
     * not report (-1) are not waited for.
     */
    static SessionStatistics finalStatistics(TraceSession s) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        SessionStatistics st = s.statistics();
        while (st.eventsPending() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
            st = s.statistics();
        }
        return st;
    }

    static String format(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }
}
