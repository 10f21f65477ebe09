package org.etw4j.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.consumer.EventStream;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.StreamOptions;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.EnableProperty;
import org.etw4j.controller.EventFilter;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.controller.TraceSession;
import org.etw4j.provider.ActivityScope;
import org.etw4j.provider.ControlCode;
import org.etw4j.provider.EnableState;
import org.etw4j.provider.EtwProvider;
import org.etw4j.sim.SimulatedBackend;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code etw demo}: one provider, two real-time sessions with different filters, events from several threads,
 * and a check that each session received exactly what its filters let through.
 *
 * <p>A picocli command object: one instance per command line, not thread-safe. Runs on its own
 * {@link SimulatedBackend} (a private simulated machine), so it behaves the same on every OS and never touches
 * the real ETW of a Windows machine. Exit code 0 when every check passes, 1 otherwise.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        header = "Check two filtered sessions against one provider (simulated ETW).",
        description = "Registers provider etw4j-Demo, starts two real-time sessions with different filters "
                + "(A: level 4, keyword 0x1; B: level 5, all keywords, IGNORE_KEYWORD_0, event id 3 denied), writes "
                + "manifest-style and TraceLogging events from several threads inside activities, asks for "
                + "CAPTURE_STATE, reads both sessions with EventStreams and checks that each got exactly what its "
                + "filters let through. Runs on etw4j's simulated ETW (pure Java) on every OS; exit code 1 if a "
                + "check fails.")
final class DemoCommand implements Callable<Integer> {
    static final String SESSION_A = "etw4j-demo-A";
    static final String SESSION_B = "etw4j-demo-B";

    @Spec
    CommandSpec spec;

    @Option(names = "--events", paramLabel = "N", defaultValue = "250",
            description = "rounds per worker thread; each round writes the 6 per-round event kinds once "
                    + "(default: ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "4",
            description = "worker threads writing events (default: ${DEFAULT-VALUE})")
    int threads;

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || rounds > 1_000_000) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--events must be 1-1000000, got " + rounds);
        }
        if (threads < 1 || threads > 256) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--threads must be 1-256, got " + threads);
        }
        PrintWriter out = spec.commandLine().getOut();
        DemoRun run = new DemoRun(threads, rounds).execute();
        boolean ok = new DemoReport(run).print(out);
        out.flush();
        return ok ? EtwCommand.OK : EtwCommand.FAILED;
    }

    /** The session configuration and filters for A and B (see {@link DemoKind} for what they imply). */
    /** How long the demo's enables wait for the provider's callbacks (EnableTraceEx2's Timeout). */
    static final Duration ENABLE_CALLBACK_WAIT = Duration.ofSeconds(10);

    static EnableParameters parametersA() {
        return EnableParameters.of(Level.INFORMATIONAL, DemoEvents.KEYWORD_REQUESTS);
    }

    static EnableParameters parametersB() {
        return EnableParameters.builder()
                .level(Level.VERBOSE)
                .property(EnableProperty.IGNORE_KEYWORD_0)
                .filter(EventFilter.EventIds.deny(DemoEvents.CACHE_MISS.id()))
                .build();
    }

    /**
     * One execution of the demo scenario and what it observed.
     *
     * <p>Not thread-safe: built and run by one thread. Its worker threads are joined and its streams have
     * terminated (or are reported in {@link #problems}) before {@link #execute()} returns, so the results are
     * complete and safely published to that thread.
     */
    static final class DemoRun {
        final int workers;
        final int rounds;
        final Set<Guid> jobActivities = ConcurrentHashMap.newKeySet();
        final LongAdder writeFailures = new LongAdder();
        SessionTally tallyA;
        SessionTally tallyB;
        SessionStatistics statsA;
        SessionStatistics statsB;
        EnableState enableState;
        ReadSettings.ManifestProvider manifest;
        boolean captureAnswered;
        List<String> problems = new ArrayList<>();

        DemoRun(int workers, int rounds) {
            this.workers = workers;
            this.rounds = rounds;
        }

        DemoRun execute() throws Exception {
            SimulatedBackend backend = new SimulatedBackend();
            manifest = DemoEvents.loadManifest();
            tallyA = new SessionTally();
            tallyB = new SessionTally();
            CountDownLatch captured = new CountDownLatch(1);

            try (EtwProvider provider = EtwProvider.builder(DemoEvents.PROVIDER_NAME)
                    .backend(backend)
                    .onEnable((p, n) -> {
                        if (n.controlCode() == ControlCode.CAPTURE_STATE) {
                            // Runs on the provider's notification thread: log the state of every worker.
                            for (int w = 0; w < workers; w++) {
                                count(p.event(DemoEvents.PROVIDER_STATE).int32(w).string("worker-" + w + " idle").write());
                            }
                            captured.countDown();
                        }
                    })
                    .register();
                 TraceSession a = TraceSession.start(sessionConfig(SESSION_A), backend);
                 TraceSession b = TraceSession.start(sessionConfig(SESSION_B), backend)) {

                // Streams opened before the provider is enabled: they see every event (MS Learn, PEVENT_RECORD_CALLBACK callback function).
                EventStream streamA = consume(backend, SESSION_A, tallyA);
                EventStream streamB = consume(backend, SESSION_B, tallyB);

                // The workers write right after: wait until the provider has seen both enables. Windows, and the
                // simulated ETW, run enable callbacks on the provider's notification thread after EnableTraceEx2
                // returns unless it is given a Timeout (MS Learn, EnableTraceEx2: a nonzero Timeout waits "for all
                // provider callbacks to complete").
                a.enable(provider.id(), parametersA().withCallbackWait(ENABLE_CALLBACK_WAIT));
                b.enable(provider.id(), parametersB().withCallbackWait(ENABLE_CALLBACK_WAIT));
                enableState = provider.enableState();

                writeFromWorkers(provider);

                a.captureState(provider.id(), parametersA());
                captureAnswered = captured.await(30, TimeUnit.SECONDS);

                a.stop(); // flushes, then ends the streams (MS Learn, PEVENT_RECORD_CALLBACK callback function: ProcessTrace returns)
                b.stop();
                awaitEnd(streamA, SESSION_A);
                awaitEnd(streamB, SESSION_B);
                statsA = a.statistics();
                statsB = b.statistics();
            }
            for (Throwable t : backend.backgroundErrors()) {
                problems.add("backend: " + EtwCommand.oneLine(t));
            }
            return this;
        }

        private static SessionConfig sessionConfig(String name) {
            // Room for every event of a large run even if a consumer falls behind (64 KB x 1024 at most).
            return SessionConfig.realTime(name).bufferSizeKb(64).buffers(4, 1024)
                    .flushTimer(Duration.ofSeconds(1)).build();
        }

        /**
         * A live stream of {@code session} feeding {@code tally}, started on its own thread. Default options: ETW's
         * delivery thread copies records into a bounded queue and blocks when it is full, so nothing is dropped
         * between the session and the handler (a slow handler makes the session lose events instead, counted).
         */
        private static EventStream consume(SimulatedBackend backend, String session, SessionTally tally) throws Exception {
            EventStream s = EventStream.openSession(session, backend, StreamOptions.DEFAULT);
            DemoEvents.addManifest(s);
            s.onEvent(tally::onEvent).onLost(tally::onLost).onError(tally::onError);
            s.startAsync();
            return s;
        }

        private void awaitEnd(EventStream s, String session) throws InterruptedException {
            if (!s.awaitTermination(Duration.ofSeconds(60))) {
                problems.add("the stream of " + session + " did not end within 60 s");
                s.close();
            }
        }

        private void writeFromWorkers(EtwProvider provider) throws InterruptedException {
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> list = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int worker = w;
                Thread t = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    work(provider, worker);
                }, "etw-demo-worker-" + w);
                t.start();
                list.add(t);
            }
            go.countDown();
            for (Thread t : list) {
                t.join();
            }
        }

        /** One worker: an activity around its rounds, six events per round. */
        private void work(EtwProvider p, int w) {
            try (ActivityScope job = p.startActivity(DemoEvents.JOB)) {
                jobActivities.add(job.activityId());
                count(job.startStatus());
                for (int r = 0; r < rounds; r++) {
                    int requestId = w * 1_000_000 + r;
                    count(p.event(DemoEvents.REQUEST_RECEIVED).int32(requestId).string("/api/items/" + r).write());
                    count(p.event(DemoEvents.REQUEST_DETAIL).int32(requestId).string("parsed").write());
                    count(p.event(DemoEvents.CACHE_MISS).string("item-" + r).uint32(16L * r).write());
                    count(p.event(DemoEvents.SLOW_REQUEST).int32(requestId).float64(r * 0.5 + w).write());
                    count(p.event(DemoEvents.TICK).int32(w).string("worker-" + w).float64(r / 10.0).write());
                    count(p.event(DemoEvents.SAMPLE).int32(w).int32(r).float64((double) r / rounds).write());
                }
            }
        }

        private void count(int status) {
            if (status != 0) {
                writeFailures.increment();
            }
        }
    }
}
