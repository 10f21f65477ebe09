package org.etw4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.Guid;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.EventStream;
import org.etw4j.consumer.LostEvents;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.ReadSetupException;
import org.etw4j.consumer.StreamOptions;
import org.etw4j.consumer.output.EventFormat;
import org.etw4j.consumer.output.EventFormatter;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.controller.TraceSession;
import org.etw4j.spi.EtwBackend;
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
 * <p>A picocli command object: one instance per command line, not thread-safe. Events arrive through an
 * {@link EventStream} (ETW's delivery thread copies them into a bounded queue, blocking when it is full, and the
 * stream's handler thread decodes and prints them); the command's thread waits and stops the session. The
 * trace's synthetic header event is not printed. The etw4j-Demo provider's manifest is built in.
 */
@Command(name = "live", mixinStandardHelpOptions = true, defaultValueProvider = SessionOptions.Defaults.class,
        header = "Print provider events as they happen (real-time session).",
        description = "Starts a real-time session, enables the providers and prints their events until Ctrl-C, "
                + "--duration or --max-events. Off Windows use --demo-load to generate events.")
final class LiveCommand implements Callable<Integer> {
    /** EventTraceGuid: the provider of the trace-header event every real-time consumer gets first (MS Learn, PEVENT_RECORD_CALLBACK callback function). */
    private static final Guid EVENT_TRACE_GUID = SessionTally.EVENT_TRACE_GUID;

    @Spec
    CommandSpec spec;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text, jsonl or csv (default: ${DEFAULT-VALUE})")
    EventFormat format;

    @Option(names = "--max-events", paramLabel = "N", description = "stop after printing N events")
    Long maxEvents;

    @Option(names = "--manifest", paramLabel = "FILE.xml",
            description = "instrumentation manifest describing events; repeatable")
    List<Path> manifests = new ArrayList<>();

    @Mixin
    SessionOptions common;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        List<ProviderSpec> enable = common.providersToEnable(cl);
        if (maxEvents != null && maxEvents < 1) {
            throw new CommandLine.ParameterException(cl, "--max-events must be at least 1");
        }
        for (Path m : manifests) {
            if (!java.nio.file.Files.isRegularFile(m)) {
                throw new CliException("manifest not found: " + m);
            }
            try { // provider names resolve against the given manifests too (issue 21, item 2)
                java.util.Map<String, org.etw4j.Guid> named = new java.util.LinkedHashMap<>();
                for (ReadSettings.ManifestProvider pm : ReadSettings.builder().manifest(m).build().manifestProviders()) {
                    named.putIfAbsent(pm.name(), pm.guid());
                }
                common.addManifestProviders(named);
            } catch (ReadSetupException e) {
                throw new CliException(e.source() + ": " + EtwCommand.oneLine(e.getCause()), e);
            }
        }
        EtwBackend backend = common.controllingBackend();
        PrintWriter out = cl.getOut();
        PrintWriter err = cl.getErr();
        SessionConfig config = SessionConfig.realTime(common.session)
                .flushTimer(Duration.ofSeconds(1))
                .ifExists(common.ifExists())
                .build();

        // Everything, the final report included, happens before the StopSignal closes (see RecordCommand).
        try (StopSignal signal = new StopSignal()) {
            Printer printer = new Printer(new EventFormatter(format, out), maxEvents == null ? Long.MAX_VALUE : maxEvents, signal);
            SessionStatistics stats;
            try (TraceSession s = TraceSession.start(config, backend);
                 EventStream stream = EventStream.openSession(common.session, backend, StreamOptions.DEFAULT)) {
                DemoEvents.addManifest(stream);
                for (Path m : manifests) {
                    try {
                        stream.addManifest(m);
                    } catch (IOException e) {
                        throw new CliException("manifest " + m + ": " + EtwCommand.oneLine(e), e);
                    }
                }
                stream.onEvent(printer::onEvent).onLost(printer::onLost).onError(printer::onError)
                        .onClose(signal::stop); // the session ended by itself (e.g. stopped by another tool)
                stream.startAsync();
                stats = common.run(s, backend, enable, signal, err, "live session '" + common.session + "'", "", () -> {
                    if (!stream.awaitTermination(Duration.ofSeconds(30))) {
                        err.println("the event stream did not end within 30 s");
                    }
                }).statistics();
            }
            out.flush();
            err.printf("%d events printed; session: accepted %s, delivered %s, lost %d%n", printer.printed,
                    countOrNa(stats.acceptedEvents()), countOrNa(stats.deliveredEvents()), stats.eventsLost());
            for (String e : printer.problems) {
                err.println(e);
            }
            err.flush();
        }
        return EtwCommand.OK;
    }

    /**
     * The stream's handlers: prints each event and asks to stop once enough were printed.
     *
     * <p>Runs on the stream's one handler thread; its counters are read after the stream terminated.
     */
    private static final class Printer {
        private final EventFormatter output;
        private final long max;
        private final StopSignal signal;
        private final List<String> problems = new ArrayList<>();
        private long printed;

        Printer(EventFormatter output, long max, StopSignal signal) {
            this.output = output;
            this.max = max;
            this.signal = signal;
        }

        void onEvent(EventRecord r) {
            if (printed >= max || r.isProvider(EVENT_TRACE_GUID)) {
                return;
            }
            output.write(r);
            if (++printed >= max) {
                output.flush();
                signal.stop();
            }
        }

        void onLost(LostEvents lost) {
            problems.add("lost " + lost.events() + " events (" + lost.source() + ")");
        }

        void onError(Throwable error) {
            if (problems.size() < 10) {
                problems.add("error: " + EtwCommand.oneLine(error));
            }
        }
    }

    /** A simulator-only counter, or "n/a" where ETW does not report it (Windows). */
    static String countOrNa(java.util.OptionalLong count) {
        return count.isPresent() ? Long.toString(count.getAsLong()) : "n/a";
    }
}
