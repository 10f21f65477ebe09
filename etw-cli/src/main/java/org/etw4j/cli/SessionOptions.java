package org.etw4j.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.controller.IfSessionExists;
import org.etw4j.controller.ProviderResolution;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.controller.TraceSession;
import org.etw4j.spi.EtwBackend;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * What {@code etw record} and {@code etw live} share: their common options ({@code --session}, {@code --provider},
 * {@code --duration}, {@code --demo-load}, {@code --rate}, {@code --replace}, {@code --backend}) and the steps
 * around their session: checking the options, enabling the providers, running the demo load while waiting for the
 * stop, stopping, and reading the final counters. The defaults that differ by command come from {@link Defaults}.
 *
 * <p>A picocli mixin: one instance per command line, not thread-safe.
 */
final class SessionOptions {
    @Option(names = "--session", paramLabel = "NAME", description = "session name (default: ${DEFAULT-VALUE})")
    String session;

    @Option(names = "--provider", paramLabel = "NAME_OR_GUID[:LEVEL[:KEYWORDS]]", converter = ProviderSpec.Converter.class,
            description = "provider to enable; repeatable. LEVEL: 0-255 or critical/error/warning/info/verbose "
                    + "(default verbose); KEYWORDS: MatchAnyKeyword mask, 0x... or decimal (default all)")
    List<ProviderSpec> providers = new ArrayList<>();

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
            description = "stop after this long (e.g. 10s, 2m); default: until Ctrl-C")
    Duration duration;

    @Option(names = "--demo-load", description = "also write the events of 'etw demo' (provider etw4j-Demo) from this process")
    boolean demoLoad;

    @Option(names = "--rate", paramLabel = "N",
            description = "--demo-load rounds per second, 6 events each (default: ${DEFAULT-VALUE})")
    long rate;

    @Option(names = "--replace", description = "stop a running session of the same name first")
    boolean replace;

    @Mixin
    BackendOption backendOption;

    /** What the command adds to every provider's enable parameters (record's --stacks adds STACK_TRACE). */
    java.util.function.UnaryOperator<org.etw4j.controller.EnableParameters> enableAdjustment = p -> p;

    /**
     * The providers of the manifests the command knows, name to GUID: the demo provider's, plus those of its
     * {@code --manifest} files ({@link #addManifestProviders}); what provider names resolve against after the
     * machine's registered providers.
     */
    private final Map<String, Guid> manifestProviders = new LinkedHashMap<>(Map.of(DemoEvents.PROVIDER_NAME, DemoEvents.PROVIDER_ID));

    /** Adds the providers a manifest declares to those names resolve against. */
    void addManifestProviders(Map<String, Guid> providers) {
        providers.forEach(manifestProviders::putIfAbsent);
    }

    /**
     * The defaults that differ by command, named in the command's {@code @Command(defaultValueProvider)}: the
     * session is {@code etw4j-<command>}; the demo load writes 1000 rounds a second for {@code record} (a file
     * takes them) and 100 for {@code live} (a terminal prints them).
     *
     * <p>Stateless; thread-safe.
     */
    static final class Defaults implements CommandLine.IDefaultValueProvider {
        @Override
        public String defaultValue(ArgSpec arg) {
            if (!(arg instanceof OptionSpec o)) {
                return null;
            }
            return switch (o.longestName()) {
                case "--session" -> "etw4j-" + arg.command().name();
                case "--rate" -> "live".equals(arg.command().name()) ? "100" : "1000";
                default -> null;
            };
        }
    }

    /** What {@link #run} reports: the demo-load rounds written (0 without {@code --demo-load}), the final counters. */
    record Outcome(long demoRounds, SessionStatistics statistics) {
    }

    /** A step that runs once the session has stopped (e.g. waiting for a consumer to drain). */
    interface AfterStop {
        void run() throws InterruptedException;
    }

    /**
     * Checks the options and returns the providers to enable: those given, plus the demo provider when
     * {@code --demo-load} is set and it is not among them. None at all, or a rate outside 1-1000000, is a usage
     * error.
     */
    List<ProviderSpec> providersToEnable(CommandLine cl) {
        return providersToEnable(cl, false);
    }

    /** As {@link #providersToEnable(CommandLine)}; with {@code noneIsFine} (kernel events recorded) none is fine. */
    List<ProviderSpec> providersToEnable(CommandLine cl, boolean noneIsFine) {
        List<ProviderSpec> list = new ArrayList<>(providers);
        if (demoLoad && list.stream().noneMatch(p -> p.id().equals(DemoEvents.PROVIDER_ID))) {
            list.add(new ProviderSpec(DemoEvents.PROVIDER_NAME, DemoEvents.PROVIDER_ID, Level.VERBOSE.value(), -1L));
        }
        if (list.isEmpty() && !noneIsFine) {
            throw new CommandLine.ParameterException(cl, "give at least one --provider (or --demo-load)");
        }
        if (rate < 1 || rate > 1_000_000) {
            throw new CommandLine.ParameterException(cl, "--rate must be 1-1000000, got " + rate);
        }
        if (session == null || session.isBlank() || session.length() > SessionConfig.MAX_NAME_LENGTH) {
            throw new CommandLine.ParameterException(cl, "--session must be 1-" + SessionConfig.MAX_NAME_LENGTH
                    + " characters" + (session == null || session.isBlank() ? ", not empty" : ", got "
                    + session.length()));
        }
        return list;
    }

    /** The backend chosen with {@code --backend}; one that cannot start sessions is a runtime error. */
    EtwBackend controllingBackend() {
        EtwBackend backend = backendOption.backend();
        if (!backend.supportsControl()) {
            throw new CliException("backend " + backend.name() + " cannot start sessions");
        }
        return backend;
    }

    /** What to do when a session of the same name runs. */
    IfSessionExists ifExists() {
        return replace ? IfSessionExists.REPLACE : IfSessionExists.FAIL;
    }

    /**
     * Runs the started session {@code s} until {@code signal} (Ctrl-C, or the command's own stop) or
     * {@code --duration}: enables {@code providers}, starts the demo load at {@code --rate} rounds a second when
     * asked, tells {@code err} what runs ({@code "<what> on the <backend> backend<where>; press Ctrl-C to stop"}
     * or {@code "... for <duration>"}), waits, then, whatever ended the wait, stops the load and the session and
     * runs {@code afterStop} (may be null). The counters are read once they are final.
     */
    Outcome run(TraceSession s, EtwBackend backend, List<ProviderSpec> providers, StopSignal signal, PrintWriter err,
                String what, String where, AfterStop afterStop) throws InterruptedException {
        for (ProviderSpec p : providers) {
            ProviderResolution r = p.resolve(backend, manifestProviders);
            if (r.rule() != ProviderResolution.Rule.GUID && !r.id().equals(DemoEvents.PROVIDER_ID)) {
                err.println(r.describe()); // which rule chose the GUID (not for GUIDs and the built-in demo provider)
            }
            if (r.warning() != null) {
                err.println("warning: " + r.warning());
            }
            s.enable(r.id(), enableAdjustment.apply(p.parameters()));
        }
        DemoLoad load = demoLoad ? DemoLoad.start(backend, rate) : null;
        err.println(what + " on the " + backend.name() + " backend" + where
                + (duration == null ? "; press Ctrl-C to stop" : " for " + format(duration)));
        err.flush();
        long rounds = 0;
        try {
            signal.await(duration);
        } finally {
            if (load != null) {
                load.close();
                rounds = load.rounds();
            }
            s.stop(); // delivers what is buffered (live) or completes the file (record)
            if (afterStop != null) {
                afterStop.run();
            }
        }
        return new Outcome(rounds, finalStatistics(s));
    }

    /**
     * The counters of a stopped session once they are final. On Ctrl-C, TraceSession's own shutdown hook may be
     * stopping the session at the same moment; a second stop() returns at once while the first is still
     * delivering the last buffers, so wait (at most 10 s) until nothing is pending any more. Counters ETW does
     * not report (-1) are not waited for.
     */
    private static SessionStatistics finalStatistics(TraceSession s) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        SessionStatistics st = s.statistics();
        while (st.eventsPending() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
            st = s.statistics();
        }
        return st;
    }

    private static String format(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }
}
