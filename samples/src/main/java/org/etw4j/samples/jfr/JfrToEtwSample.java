package org.etw4j.samples.jfr;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.etw4j.Backend;
import org.etw4j.Level;
import org.etw4j.consumer.EventStream;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.jfr.Category;
import org.etw4j.jfr.JfrToEtw;
import org.etw4j.jfr.JfrToEtwConfig;

/**
 * The JVM's own JFR events as ETW events, in one process: {@link JfrToEtw} (the library form of the etw-jfr agent)
 * streams JFR only once a session enables its {@code Java-Runtime} provider; a real-time session enables the GC
 * and thread keywords, the sample collects garbage and starts threads, and a live stream prints the events that
 * arrive (JFR hands events over in chunks, about once a second). Runs on the default backend (real ETW on
 * Windows, the simulated one elsewhere). Not thread-safe; run once per call.
 */
public final class JfrToEtwSample {

    private JfrToEtwSample() {
    }

    public static void main(String[] args) throws InterruptedException {
        run(Backend.getDefault(), System.out, Duration.ofSeconds(20));
    }

    /**
     * Runs the sample until a garbage collection and the start and end of a worker thread have arrived, or the
     * timeout; returns the names of the events received, in order.
     */
    static List<String> run(Backend backend, PrintStream out, Duration timeout) throws InterruptedException {
        List<String> received = new ArrayList<>();
        AtomicInteger wanted = new AtomicInteger();
        try (JfrToEtw bridge = JfrToEtw.start(JfrToEtwConfig.defaults(), backend);
             TraceSession session = TraceSession.start(SessionConfig.realTime("etw4j-jfr-sample")
                     .flushTimer(Duration.ZERO).build(), backend);
             EventStream stream = EventStream.openSession(session.name(), backend)) {
            stream.onEvent(bridge.provider().id(), e -> {
                synchronized (received) {
                    received.add(e.eventName());
                }
                if (e.eventName().equals("jdk.GarbageCollection") || e.eventName().startsWith("jdk.Thread")) {
                    wanted.incrementAndGet();
                }
                out.printf("%-24s startTime=%s durationNs=%s%n", e.eventName(), e.getInstant("startTime"),
                        e.hasField("durationNs") ? e.getLong("durationNs") : "-");
            });
            stream.startAsync();
            session.enable(JfrToEtwConfig.DEFAULT_PROVIDER,
                    EnableParameters.of(Level.INFORMATIONAL, Category.GC.keyword() | Category.THREADS.keyword()));

            long deadline = System.nanoTime() + timeout.toNanos();
            while (wanted.get() < 3 && System.nanoTime() < deadline) {
                if (bridge.isStreaming()) {
                    System.gc();
                    Thread worker = new Thread(() -> { }, "jfr-sample-worker");
                    worker.start();
                    worker.join();
                }
                Thread.sleep(200);
            }
        }
        synchronized (received) {
            return List.copyOf(received);
        }
    }
}
