package org.etw4j.logging.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.EventStream;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.StructValue;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.controller.TraceSession;
import org.etw4j.logging.BridgeStatistics;
import org.etw4j.logging.LoggingKeywords;
import org.etw4j.provider.ActivityScope;
import org.etw4j.provider.EtwProvider;

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
        session.enable(providerName, EnableParameters.builder().level(level).matchAnyKeyword(matchAnyKeyword)
                .waitForCallbacks(java.time.Duration.ofSeconds(10)).build()); // the test logs right after: wait for the enable callbacks
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

    /** The fixed fields of a FormattedMessage event, then {@code more}. */
    public static List<String> formattedMessageFields(String... more) {
        List<String> all = new ArrayList<>(List.of("Level", "FactoryID", "LoggerName", "EventId", "EventName",
                "FormattedMessage"));
        all.addAll(List.of(more));
        return all;
    }

    /** Checks the fields every bridge writes the same way, event by event. */
    public static void assertFormattedMessages(List<EventRecord> events, String provider, String logger, int factoryId,
                                               String[] texts, int[] dotnetLevels, int[] etwLevels, String[] eventNames,
                                               String thread) {
        assertEquals(texts.length, events.size(), events.toString());
        for (int i = 0; i < events.size(); i++) {
            EventRecord e = events.get(i);
            String at = "event " + i + " " + e;
            assertEquals("FormattedMessage", e.eventName(), at);
            assertEquals(provider, e.providerName(), at);
            assertEquals(0, e.eventId(), at);
            assertEquals(11, e.channel(), "TraceLogging channel: " + at);
            assertEquals(etwLevels[i], e.level(), at);
            assertEquals(dotnetLevels[i], e.getInt("Level"), at);
            assertEquals(factoryId, e.getInt("FactoryID"), at);
            assertEquals(logger, e.getString("LoggerName"), at);
            assertEquals(0, e.getInt("EventId"), at);
            assertEquals(eventNames[i], e.getString("EventName"), at);
            assertEquals(texts[i], e.getString("FormattedMessage"), at);
            assertEquals(thread, e.getString("ThreadName"), at);
        }
    }

    /** Checks the {@code Exception} struct: type, message, HResult 0 and the stack text. */
    public static void assertException(EventRecord e, Throwable thrown, String stackStart) {
        assertEquals(thrown.getClass().getName(), e.getString("Exception.TypeName"));
        assertEquals(thrown.getMessage(), e.getString("Exception.Message"));
        assertEquals(0, e.getInt("Exception.HResult"));
        String stack = e.getString("Exception.VerboseMessage");
        assertTrue(stack.startsWith(stackStart), stack);
        assertTrue(stack.contains("\n\tat "), stack);
    }

    /**
     * Logs "inside" (through {@code logInfo}) inside an activity of another provider, then "outside": the first
     * event carries the activity's id, the second none.
     */
    public static void assertActivityIdCarried(String provider, Consumer<String> logInfo) throws InterruptedException {
        List<EventRecord> events;
        Guid activity;
        try (LogCapture cap = start(provider, Level.VERBOSE, -1L);
             EtwProvider app = EtwProvider.register(provider + "-App")) {
            try (ActivityScope scope = app.startActivity(EventDescriptor.builder(1).level(Level.INFORMATIONAL).build())) {
                activity = scope.activityId();
                logInfo.accept("inside");
            }
            logInfo.accept("outside");
            events = cap.stop();
        }
        assertEquals(List.of("inside", "outside"), events.stream().map(e -> e.getString("FormattedMessage")).toList());
        assertEquals(activity, events.get(0).activityId());
        Guid after = events.get(1).activityId();
        assertTrue(after == null || after.isNull(), "no activity after the scope: " + after);
    }

    /**
     * A session enabled at WARNING: {@code belowWarning} logs records under WARNING (none may arrive), then
     * {@code warningThenError} logs "the only warning" and "the only error", which arrive at levels 3 and 2.
     */
    public static void assertWarningSessionGetsNoInfo(String provider, Runnable belowWarning, Runnable warningThenError)
            throws InterruptedException {
        List<EventRecord> events;
        try (LogCapture cap = start(provider, Level.WARNING, -1L)) {
            belowWarning.run();
            warningThenError.run();
            events = cap.stop();
        }
        assertEquals(List.of("the only warning", "the only error"),
                events.stream().map(e -> e.getString("FormattedMessage")).toList());
        assertEquals(List.of(3, 2), events.stream().map(EventRecord::level).toList());
    }

    /** Logs one record: thread number and record number go into the message as "thread {t} record {i}". */
    @FunctionalInterface
    public interface LogOne {
        void log(int thread, int index);
    }

    /**
     * Logs {@code perThread} records from each of {@code threads} threads into a session with few buffers and checks
     * that every record arrived or is counted: received + the session's lost = logged, the bridge's written =
     * received and its failed = the session's lost, and per thread in order.
     */
    public static void assertConcurrentLoggingAccounted(String provider, int threads, int perThread, LogOne logOne,
                                                        Supplier<BridgeStatistics> bridge) throws InterruptedException {
        List<EventRecord> events;
        LogCapture cap = start(provider, Level.INFORMATIONAL, LoggingKeywords.FORMATTED_MESSAGE, 4);
        try {
            runThreads(threads, t -> {
                for (int i = 0; i < perThread; i++) {
                    logOne.log(t, i);
                }
            });
            events = cap.stop();
        } finally {
            cap.close();
        }
        long logged = (long) threads * perThread;
        long lost = cap.statistics().eventsLost();
        BridgeStatistics stats = bridge.get();
        assertEquals(logged, events.size() + lost, "received + counted as lost by the session = logged");
        assertEquals(events.size(), stats.written(), "every event the bridge wrote arrived");
        assertEquals(lost, stats.failed(), "each lost event is a write ETW refused, counted by the bridge too");
        assertEquals(0, stats.errors());
        int[] next = new int[threads];
        for (EventRecord e : events) {
            String[] parts = e.getString("FormattedMessage").split(" ");
            int t = Integer.parseInt(parts[1]);
            int i = Integer.parseInt(parts[3]);
            assertTrue(i >= next[t], "in order per thread");
            next[t] = i + 1;
            assertEquals("log-writer-" + t, e.getString("ThreadName"));
        }
    }

    /** An argument whose {@code toString()} fails the test: logged when no session listens, it must not be formatted. */
    public static final Object NEVER_FORMATTED = new Object() {
        @Override
        public String toString() {
            throw new AssertionError("formatted although no session listens");
        }
    };

    /** An argument whose {@code toString()} throws "bad toString". */
    /** An argument whose {@code toString()} recurses until the stack overflows (issue 22, item 9). */
    public static final Object RECURSING_TO_STRING = new Object() {
        @Override
        public String toString() {
            return "x" + this.toString();
        }
    };

    public static final Object THROWING_TO_STRING = new Object() {
        @Override
        public String toString() {
            throw new UnsupportedOperationException("bad toString");
        }
    };

    @Override
    public void close() throws InterruptedException {
        stop();
        session.close();
        stream.close();
    }
}
