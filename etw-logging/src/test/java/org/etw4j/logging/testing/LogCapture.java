package org.etw4j.logging.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.EventStream;
import org.etw4j.consumer.decode.EventField;
import org.etw4j.consumer.decode.StructValue;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.controller.TraceSession;

/**
 * The bridges' test rig: a real-time session on the default (simulated) backend enabling one provider at a level
 * and keywords, read back through etw-consumer's {@link EventStream}, as a user's consumer would.
 *
 * <p>Not thread-safe: one test drives it. {@link #stop()} stops the session, waits for the stream to deliver
 * every buffered event and returns copies of the events of the provider.
 */
public final class LogCapture implements AutoCloseable {
    private final TraceSession session;
    private final EventStream stream;
    private final List<EventRecord> events = Collections.synchronizedList(new ArrayList<>());
    private SessionStatistics finalStatistics;

    private LogCapture(String providerName, Level level, long matchAnyKeyword, int maxBuffers) {
        session = TraceSession.start(SessionConfig.realTime("etw4j-logtest-" + UUID.randomUUID())
                .bufferSizeKb(64).buffers(2, maxBuffers).flushTimer(Duration.ZERO).build());
        stream = EventStream.openSession(session.name());
        stream.onEvent(TraceSession.resolve(providerName), e -> events.add(e.copy()));
        stream.startAsync();
        session.enable(providerName, EnableParameters.builder().level(level).matchAnyKeyword(matchAnyKeyword).build());
    }

    /** Starts a session enabling {@code providerName} at {@code level} for {@code matchAnyKeyword} (-1: every keyword). */
    public static LogCapture start(String providerName, Level level, long matchAnyKeyword) {
        return new LogCapture(providerName, level, matchAnyKeyword, 256);
    }

    /** Same, with at most {@code maxBuffers} 64 KB buffers (few buffers make a fast writer lose events). */
    public static LogCapture start(String providerName, Level level, long matchAnyKeyword, int maxBuffers) {
        return new LogCapture(providerName, level, matchAnyKeyword, maxBuffers);
    }

    /** Stops the session, waits for the stream and returns the provider's events in delivery order. */
    public List<EventRecord> stop() throws InterruptedException {
        if (finalStatistics == null) {
            session.flush();
            session.stop();
            if (!stream.awaitTermination(Duration.ofSeconds(30))) {
                throw new AssertionError("the event stream did not end within 30 s");
            }
            finalStatistics = session.statistics();
        }
        return List.copyOf(events);
    }

    /** The session's counters after {@link #stop()}. */
    public SessionStatistics statistics() {
        if (finalStatistics == null) {
            throw new IllegalStateException("call stop() first");
        }
        return finalStatistics;
    }

    /** The top-level field names of an event, in wire order. */
    public static List<String> fieldNames(EventRecord e) {
        return e.getFields().stream().map(EventField::name).toList();
    }

    /** The {@code Arguments} array as alternating keys and values. */
    public static List<String> arguments(EventRecord e) {
        List<String> kv = new ArrayList<>();
        for (Object o : (List<?>) e.getValue("Arguments")) {
            StructValue s = (StructValue) o;
            kv.add((String) s.field("Key").value());
            kv.add((String) s.field("Value").value());
        }
        return kv;
    }

    /** Runs {@code body(thread)} on {@code threads} threads started together; rethrows the first failure. */
    public static void runThreads(int threads, IntConsumer body) throws InterruptedException {
        CountDownLatch gate = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread th = new Thread(() -> {
                try {
                    gate.await();
                    body.accept(id);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "log-writer-" + t);
            th.start();
            all.add(th);
        }
        gate.countDown();
        for (Thread th : all) {
            th.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("a logging thread failed", failure.get());
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        session.close();
        stream.close();
    }
}
