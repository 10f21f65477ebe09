package org.etw4j.bench;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.etw4j.Level;
import org.etw4j.consumer.EventStream;
import org.etw4j.consumer.LostEvents;
import org.etw4j.consumer.StreamOptions;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.controller.TraceSession;
import org.etw4j.provider.EtwProvider;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The live pipeline: writer threads -> one simulated real-time session (default buffers) -> an
 * {@link EventStream} handler. Throughput is events written per second by all writers; the auxiliary counters
 * say how many the handler got and how many the session lost. With {@code handlerNanos > 0} the handler is
 * slowed and losses must show up in the counters (never silently).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Threads(2)
@Fork(value = 2, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class LivePipelineBenchmark {
    static final TraceLoggingEvent EVENT = TraceLoggingEvent.builder("Tick").level(Level.INFORMATIONAL).keyword(0x1)
            .int32Field("n").stringField("path").doubleField("ms").build();

    /** Time the handler spends per event (busy wait), 0 for a handler that only counts. */
    @Param({"0", "2000"})
    public long handlerNanos;

    private EtwProvider provider;
    private TraceSession session;
    private EventStream stream;
    final LongAdder handled = new LongAdder();
    final LongAdder lostReported = new LongAdder();

    @Setup
    public void setUp() {
        SimulatedBackend backend = new SimulatedBackend();
        provider = EtwProvider.builder("etw4j-bench-live").backend(backend).register();
        session = TraceSession.start(SessionConfig.realTime("etw4j-bench-live").build(), backend);
        // the benchmark writes right after: wait until the provider has seen the enable (EnableTraceEx2's Timeout)
        session.enable(provider.id(), EnableParameters.of(Level.VERBOSE).withCallbackWait(java.time.Duration.ofSeconds(10)));
        stream = EventStream.openSession(session.name(), backend, StreamOptions.DEFAULT);
        stream.onEvent(e -> {
            if (handlerNanos > 0) {
                long end = System.nanoTime() + handlerNanos;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
            }
            handled.increment();
        });
        stream.onLost((LostEvents l) -> lostReported.add(l.events()));
        stream.startAsync();
    }

    @TearDown
    public void tearDown() throws InterruptedException {
        session.stop();
        stream.awaitTermination(Duration.ofSeconds(30));
        stream.close();
        SessionStatistics s = session.statistics();
        System.out.printf("%n[live pipeline handlerNanos=%d] accepted=%d delivered=%d lost=%d handled=%d lostReported=%d%n",
                handlerNanos, s.eventsAccepted(), s.eventsDelivered(), s.eventsLost(), handled.sum(), lostReported.sum());
        provider.close();
    }

    /** Per-thread write results. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Outcome {
        public long written;
        public long lost;
    }

    @Benchmark
    public void write(Outcome o) {
        if (provider.event(EVENT).int32(42).string("/api/v1/orders/7").float64(0.5).write() == 0) {
            o.written++;
        } else {
            o.lost++;
        }
    }
}
