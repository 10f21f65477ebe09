package org.etw4j.samples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.Guid;
import org.etw4j.consumer.decode.DecodedEvent;
import org.etw4j.consumer.decode.EventDecoder;
import org.etw4j.consumer.decode.ManifestRegistry;
import org.etw4j.controller.IfSessionExists;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.controller.TraceSession;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.RawEventRecord;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.TraceConsumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code etw live}: starts a real-time session, enables providers and prints their events as they arrive, until
 * Ctrl-C, {@code --duration} or {@code --max-events}.
 *
 * <p>A picocli command object: one instance per command line, not thread-safe. Events are consumed and printed
 * on one platform thread (the ProcessTrace thread); the command's thread waits and stops the session. The trace's
 * synthetic header event is not printed.
 */
@Command(name = "live", mixinStandardHelpOptions = true,
        description = {"Prints the events of providers as they happen (a real-time session), until Ctrl-C,",
                       "--duration or --max-events. Off Windows use --demo-load to generate events."})
final class LiveCommand implements Callable<Integer> {
    /** EventTraceGuid: the provider of the trace-header event every real-time consumer gets first (seed 003). */
    private static final Guid EVENT_TRACE_GUID = SessionTally.EVENT_TRACE_GUID;

    @Spec
    CommandSpec spec;

    @Option(names = "--session", paramLabel = "NAME", defaultValue = "etw4j-live",
            description = "session name (default: ${DEFAULT-VALUE})")
    String session;

    @Option(names = "--provider", paramLabel = "NAME_OR_GUID[:LEVEL[:KEYWORDS]]", converter = ProviderSpec.Converter.class,
            description = {"provider to enable; repeatable. LEVEL: 0-255 or critical/error/warning/info/verbose",
                           "(default verbose); KEYWORDS: MatchAnyKeyword mask, 0x... or decimal (default all)"})
    List<ProviderSpec> providers = new ArrayList<>();

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text, jsonl or csv (default: ${DEFAULT-VALUE})")
    EventOutput.Format format;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
            description = "stop after this long (e.g. 10s, 2m); default: until Ctrl-C")
    Duration duration;

    @Option(names = "--max-events", paramLabel = "N", description = "stop after printing N events")
    Long maxEvents;

    @Option(names = "--manifest", paramLabel = "FILE.xml",
            description = "instrumentation manifest describing events; repeatable")
    List<Path> manifests = new ArrayList<>();

    @Option(names = "--demo-load", description = "also write the events of 'etw demo' (provider etw4j-Demo) from this process")
    boolean demoLoad;

    @Option(names = "--rate", paramLabel = "N", defaultValue = "100",
            description = "--demo-load rounds per second, 6 events each (default: ${DEFAULT-VALUE})")
    long rate;

    @Option(names = "--replace", description = "stop a running session of the same name first")
    boolean replace;

    @Mixin
    BackendOption backendOption;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        List<ProviderSpec> enable = SessionSetup.providers(cl, providers, demoLoad);
        if (rate < 1 || rate > 1_000_000) {
            throw new CommandLine.ParameterException(cl, "--rate must be 1-1000000, got " + rate);
        }
        if (maxEvents != null && maxEvents < 1) {
            throw new CommandLine.ParameterException(cl, "--max-events must be at least 1");
        }
        ManifestRegistry registry = new ManifestRegistry();
        for (Path m : manifests) {
            try {
                registry.register(m);
            } catch (IOException e) {
                throw new CliException("manifest " + m + ": " + EtwCommand.oneLine(e), e);
            }
        }
        if (demoLoad && registry.provider(DemoEvents.PROVIDER_ID) == null) {
            registry.register(DemoEvents.loadManifest());
        }
        EtwBackend backend = backendOption.backend();
        if (!backend.supportsControl()) {
            throw new CliException("backend " + backend.name() + " cannot start sessions");
        }
        PrintWriter out = cl.getOut();
        PrintWriter err = cl.getErr();
        SessionConfig config = SessionConfig.realTime(session)
                .flushTimer(Duration.ofSeconds(1))
                .ifExists(replace ? IfSessionExists.REPLACE : IfSessionExists.FAIL)
                .build();

        try (StopSignal signal = new StopSignal()) {
            Printer printer = new Printer(new EventDecoder(registry), new EventOutput(out, format),
                    maxEvents == null ? Long.MAX_VALUE : maxEvents, signal);
            SessionStatistics stats;
            try (TraceSession s = TraceSession.start(config, backend)) {
                TraceConsumer consumer = backend.openRealTime(session, printer);
                Thread thread = new Thread(() -> {
                    try (consumer) {
                        consumer.process();
                    } finally {
                        signal.stop(); // the session ended by itself (e.g. stopped by another tool)
                    }
                }, "etw-live-consumer");
                thread.setDaemon(true);
                thread.start();
                SessionSetup.enable(s, enable);
                DemoLoad load = demoLoad ? DemoLoad.start(backend, rate) : null;
                err.println("live session '" + session + "' on the " + backend.name() + " backend"
                        + (duration == null ? "; press Ctrl-C to stop" : " for " + SessionSetup.format(duration)));
                err.flush();
                try {
                    signal.await(duration);
                } finally {
                    if (load != null) {
                        load.close();
                    }
                    s.stop(); // delivers what is buffered, then ends the consumer
                    thread.join(30_000);
                    consumer.close();
                }
                stats = s.statistics();
            }
            out.flush();
            err.printf("%d events printed; session: accepted %d, delivered %d, lost %d%n", printer.printed,
                    stats.eventsAccepted(), stats.eventsDelivered(), stats.eventsLost());
            for (String e : printer.errors) {
                err.println("consumer error: " + e);
            }
            err.flush();
        }
        return EtwCommand.OK;
    }

    /**
     * Decodes and prints each event on the consumer thread; asks to stop once enough were printed.
     *
     * <p>Confined to the consumer thread while it runs; its counters are read after joining that thread.
     */
    private static final class Printer implements RecordSink {
        private final EventDecoder decoder;
        private final EventOutput output;
        private final long max;
        private final StopSignal signal;
        private final List<String> errors = new ArrayList<>();
        private long printed;

        Printer(EventDecoder decoder, EventOutput output, long max, StopSignal signal) {
            this.decoder = decoder;
            this.output = output;
            this.max = max;
            this.signal = signal;
        }

        @Override
        public void onRecord(RawEventRecord r) {
            if (printed >= max) {
                return;
            }
            if (r.providerIdMsb() == EVENT_TRACE_GUID.mostSignificantBits()
                    && r.providerIdLsb() == EVENT_TRACE_GUID.leastSignificantBits()) {
                return;
            }
            DecodedEvent e = decoder.decode(r);
            output.write(r, e, fileTimeToInstant(r.timestamp()));
            if (++printed >= max) {
                output.flush();
                signal.stop();
            }
        }

        @Override
        public void onLost(long events, long buffers) {
            errors.add("the session lost " + events + " events");
        }

        @Override
        public void onError(Throwable error) {
            if (errors.size() < 10) {
                errors.add(EtwCommand.oneLine(error));
            }
        }
    }

    /** FILETIME (100 ns ticks since 1601-01-01 UTC), as real-time consumers receive timestamps, to an Instant. */
    static Instant fileTimeToInstant(long fileTime) {
        long sinceUnixEpoch = fileTime - 116_444_736_000_000_000L;
        return Instant.ofEpochSecond(Math.floorDiv(sinceUnixEpoch, 10_000_000L),
                Math.floorMod(sinceUnixEpoch, 10_000_000L) * 100);
    }
}
