package org.etw4j.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import org.etw4j.EventDescriptor;
import org.etw4j.Level;
import org.etw4j.RawEventRecord;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.provider.EtwProvider;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.TraceConsumer;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;

import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One enabled event written with three fields (int, 16-character string, double): etw4j TraceLogging and
 * manifest-style writes into a simulated real-time session drained by a consumer thread, against JFR's
 * {@code commit()} of an enabled event with the same fields into a running recording. {@link #clockOnly} and
 * {@link #sessionLockOnly} are, for scale, the clock every simulated write reads once ({@code System.nanoTime()}) and the
 * uncontended session lock it takes once; JFR's own commit reads the CPU's
 * time-stamp counter where the JVM finds an invariant one.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class WriteBenchmark {

    @Name("etw4j.bench.Request")
    static final class RequestEvent extends Event {
        int status;
        String path;
        double millis;
    }

    static final TraceLoggingEvent REQUEST = TraceLoggingEvent.builder("Request").level(Level.INFORMATIONAL).keyword(0x1)
            .int32Field("status").stringField("path").doubleField("ms").build();
    static final EventDescriptor MANIFEST_REQUEST = EventDescriptor.builder(1).level(Level.INFORMATIONAL).keyword(0x1).build();
    static final String PATH = "/api/v1/orders/7"; // 16 characters

    private SimulatedBackend backend;
    private EtwProvider provider;
    private TraceSession session;
    private TraceConsumer consumer;
    private Thread consumerThread;
    private Recording recording;
    final LongAdder consumed = new LongAdder();
    final LongAdder lost = new LongAdder();
    private int status = 200;
    private double millis = 1.25;

    @Setup(org.openjdk.jmh.annotations.Level.Trial)
    public void setUp() {
        backend = new SimulatedBackend();
        provider = EtwProvider.builder("etw4j-bench-write").backend(backend).register();
        // Every buffer made at the start (minimum = maximum): with a minimum of 8, a consumer thread slowed by a loaded
        // machine let the session grow its pool during the measurement, 1 MB per buffer, which JMH's gc profiler
        // (it counts every thread's allocation) reported as 2-9 B per write though the write path allocates nothing.
        session = TraceSession.start(SessionConfig.realTime("etw4j-bench").bufferSizeKb(1024).buffers(64, 64).build(), backend);
        // the benchmark writes right after: wait until the provider has seen the enable (EnableTraceEx2's Timeout)
        session.enable(provider.id(), EnableParameters.of(Level.VERBOSE).withCallbackWait(java.time.Duration.ofSeconds(10)));
        consumer = backend.openRealTime(session.name(), new RecordSink() {
            @Override
            public void onRecord(RawEventRecord record) {
                consumed.increment();
            }

            @Override
            public void onLost(long events, long buffers) {
                lost.add(events);
            }
        });
        consumerThread = new Thread(consumer::process, "bench-consumer");
        consumerThread.setDaemon(true);
        consumerThread.start();
        recording = new Recording();
        // same work as etw4j: no stack trace (JFR records one per event by default), no threshold
        recording.enable(RequestEvent.class).withoutStackTrace().withoutThreshold();
        recording.setToDisk(false);
        recording.start();
    }

    @TearDown(org.openjdk.jmh.annotations.Level.Trial)
    public void tearDown() throws InterruptedException {
        recording.stop();
        recording.close();
        session.stop();
        consumerThread.join(10_000);
        var s = session.statistics();
        System.out.printf("%n[etw4j session] accepted=%d delivered=%d lost=%d consumed=%d%n",
                s.eventsAccepted(), s.eventsDelivered(), s.eventsLost(), consumed.sum());
        provider.close();
    }

    /** Events the session lost per operation (the consumer could not keep up); reported, never silent. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Failures {
        public long writeFailures;
    }

    @Benchmark
    public int etw4jTraceLogging(Failures f) {
        int st = provider.event(REQUEST).int32(status).string(PATH).float64(millis).write();
        if (st != 0) {
            f.writeFailures++;
        }
        return st;
    }

    @Benchmark
    public int etw4jManifest(Failures f) {
        int st = provider.event(MANIFEST_REQUEST).int32(status).string(PATH).float64(millis).write();
        if (st != 0) {
            f.writeFailures++;
        }
        return st;
    }

    private final java.util.concurrent.locks.ReentrantLock lockPeer = new java.util.concurrent.locks.ReentrantLock();

    /**
     * The simulated session's lock alone, uncontended (one lock and unlock per simulated write; the consumer and
     * logger threads take it only per buffer): what per-thread buffers could at most save a single writer.
     */
    @Benchmark
    public int sessionLockOnly() {
        lockPeer.lock();
        try {
            return status;
        } finally {
            lockPeer.unlock();
        }
    }

    /** The simulated session's clock source alone (one read per simulated write): its share of a write. */
    @Benchmark
    public long clockOnly() {
        return System.nanoTime();
    }

    @Benchmark
    public void jfrCommit() {
        RequestEvent e = new RequestEvent();
        e.status = status;
        e.path = PATH;
        e.millis = millis;
        e.commit();
    }
}
