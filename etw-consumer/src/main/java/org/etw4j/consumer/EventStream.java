package org.etw4j.consumer;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.etw4j.Guid;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackends;
import org.etw4j.spi.RawEventRecord;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.TraceConsumer;

/**
 * A stream of ETW events, live from a real-time session or read from .etl files, dispatched to handlers (the
 * model of JDK Flight Recorder's {@code jdk.jfr.consumer.EventStream}).
 *
 * <pre>{@code
 * try (EventStream s = EventStream.openSession("my-session")) {
 *     s.onEvent(providerId, "RequestDone", e -> System.out.println(e.getLong("durationMs")));
 *     s.onLost(l -> System.err.println("lost " + l));
 *     s.startAsync();
 *     ...
 * }
 * }</pre>
 *
 * <p>Threading and close contract: thread-safe; handlers may be added before or while it runs (they apply from
 * the next record). All handlers of one stream run on one thread, one record at a time, in delivery order:
 * {@link #start()} runs them on the caller's thread and returns when the stream ends (the session stopped, the
 * files are read, or {@link #close()} was called); {@link #startAsync()} runs them on a new <b>daemon</b> platform
 * thread (a forgotten stream never keeps the JVM alive; use {@link #awaitTermination} to wait for it). A stream
 * runs once. {@link #close()} is idempotent, may be called from any thread (a handler included) and does not wait:
 * the stream stops after the running handler returns, releases the session consumer or the files, runs the
 * {@link #onClose} actions once and then {@link #awaitTermination} returns true. When a stream ends by itself it
 * is closed the same way.
 *
 * <p>Live hand-off ({@link StreamOptions}): ETW delivers records on its own thread (the one in
 * {@code ProcessTrace}). With {@link Backpressure#NONE} handlers run right there and receive the backend's view;
 * otherwise the delivery thread copies each record into a bounded queue and a handler thread takes them, with the
 * declared policy when the queue is full ({@link Backpressure#BLOCK}: wait, so ETW loses events in the session;
 * {@link Backpressure#DROP_NEWEST}: drop and count). Losses are never silent: {@link #statistics()} counts them
 * and {@link #onLost} reports them, on the handler thread, before the next record (session losses as ETW reports
 * them; queue drops as they accumulate). File streams read on the handler thread and hand over the reader's views
 * (files wait; nothing is dropped), several files merged in time order; their headers' EventsLost is reported
 * once at the start.
 *
 * <p>The stream delivers every record its source delivers, the trace's own header record included (a live
 * session's synthetic EventTrace header event, a file's logfile-header record).
 */
public final class EventStream implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(EventStream.class.getName());
    private static final Object END = new Object();
    private static final long POLL_MILLIS = 50;

    private enum State { NEW, RUNNING, DONE }

    /** A failure the delivery thread passes to the handler thread. */
    private record Failure(Throwable error) {
    }

    private final String description;
    private final RecordDecoding decoding;
    private final StreamOptions options;
    private final TraceConsumer consumer;
    private final TraceFile files;
    private final BlockingQueue<Object> queue;
    private final EventRecord view;

    private final Object lock = new Object();
    private volatile Handler[] handlers = new Handler[0];
    private final List<Consumer<LostEvents>> lostHandlers = new CopyOnWriteArrayList<>();
    private final List<Consumer<Throwable>> errorHandlers = new CopyOnWriteArrayList<>();
    private final List<Runnable> closeHandlers = new CopyOnWriteArrayList<>();
    private State state = State.NEW;
    private boolean closeCalled;
    private volatile boolean closing;
    private final AtomicBoolean finished = new AtomicBoolean();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile Thread deliveryThread;

    // Each counter has one writing thread (the delivery thread or the handler thread), so volatile suffices.
    private volatile long received;
    private volatile long dispatched;
    private volatile long dropped;
    private volatile long lostBySession;
    private final AtomicLong discarded = new AtomicLong();
    private final AtomicLong handlerErrors = new AtomicLong();
    // Losses and errors seen on the delivery thread, reported on the handler thread.
    private final AtomicLong pendingDropped = new AtomicLong();
    private final AtomicLong pendingSessionLost = new AtomicLong();
    private final AtomicLong pendingSessionBuffersLost = new AtomicLong();
    private final ConcurrentLinkedQueue<Throwable> pendingErrors = new ConcurrentLinkedQueue<>();

    private EventStream(String description, StreamOptions options, EtwBackend backend, String sessionName, TraceFile files) {
        this.description = description;
        this.options = options;
        this.files = files;
        this.decoding = files != null ? files.decoding() : new RecordDecoding();
        this.view = new EventRecord(decoding);
        this.queue = files == null && options.backpressure() != Backpressure.NONE
                ? new ArrayBlockingQueue<>(options.queueCapacity()) : null;
        // Opening the consumer now makes the session keep events for us until start() (seed 003).
        this.consumer = files == null ? backend.openRealTime(sessionName, new DeliverySink()) : null;
    }

    /** A live stream of the real-time session {@code sessionName} on the default backend, default options. */
    public static EventStream openSession(String sessionName) {
        return openSession(sessionName, EtwBackends.getDefault(), StreamOptions.DEFAULT);
    }

    /** A live stream of the real-time session {@code sessionName} of {@code backend}, default options. */
    public static EventStream openSession(String sessionName, EtwBackend backend) {
        return openSession(sessionName, backend, StreamOptions.DEFAULT);
    }

    /**
     * A live stream of the real-time session {@code sessionName} of {@code backend}. The session's consumer is
     * opened now ({@code OpenTrace}), so events logged before {@link #start()} are kept by the session for this
     * stream, within its buffers.
     *
     * @throws org.etw4j.EtwException if there is no such real-time session
     */
    public static EventStream openSession(String sessionName, EtwBackend backend, StreamOptions options) {
        Objects.requireNonNull(sessionName, "sessionName");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(options, "options");
        return new EventStream("session " + sessionName, options, backend, sessionName, null);
    }

    /**
     * A stream of the records of one or more .etl files, merged in time order, read as {@link TraceFile} reads them
     * with {@link ReadSettings#DEFAULT} (pure-Java reader; lenient: malformed buffers are skipped and counted by
     * the reader; two passes: events are attributed to processes as {@code etw dump} attributes them). The files are
     * opened now and closed when the stream closes.
     *
     * @throws IOException if a file cannot be opened or is not an .etl file ({@link ReadSetupException} names it)
     */
    public static EventStream openFiles(Path... paths) throws IOException {
        return openFiles(ReadSettings.DEFAULT, paths);
    }

    /**
     * A stream of the events of one or more .etl files that {@code settings} select, read through
     * {@link TraceFile#open(ReadSettings, Path...)}.
     *
     * @throws IOException if a manifest or file cannot be read ({@link ReadSetupException} names it)
     */
    public static EventStream openFiles(ReadSettings settings, Path... paths) throws IOException {
        if (paths.length == 0) {
            throw new IllegalArgumentException("no files");
        }
        return new EventStream("files " + Arrays.toString(paths), StreamOptions.direct(), null, null,
                TraceFile.open(settings, paths));
    }

    // ------------------------------------------------------------------------------------------ handlers

    /** Runs {@code action} for every record. */
    public EventStream onEvent(Consumer<EventRecord> action) {
        return add(new Handler(null, -1, null, action));
    }

    /** Runs {@code action} for the records of {@code provider}. */
    public EventStream onEvent(Guid provider, Consumer<EventRecord> action) {
        return add(new Handler(Objects.requireNonNull(provider, "provider"), -1, null, action));
    }

    /** Runs {@code action} for the records of {@code provider} with event id {@code eventId}. */
    public EventStream onEvent(Guid provider, int eventId, Consumer<EventRecord> action) {
        if (eventId < 0 || eventId > 0xFFFF) {
            throw new IllegalArgumentException("event id must be 0..65535, got " + eventId);
        }
        return add(new Handler(Objects.requireNonNull(provider, "provider"), eventId, null, action));
    }

    /**
     * Runs {@code action} for the records of {@code provider} named {@code eventName}: the TraceLogging event name,
     * or the decoded name (see {@link EventRecord#eventName()}). Matching a name decodes non-TraceLogging events of
     * that provider (once per record).
     */
    public EventStream onEvent(Guid provider, String eventName, Consumer<EventRecord> action) {
        return add(new Handler(Objects.requireNonNull(provider, "provider"), -1, Objects.requireNonNull(eventName, "eventName"), action));
    }

    /** Runs {@code action} (on the handler thread) whenever events are reported lost; see {@link LostEvents}. */
    public EventStream onLost(Consumer<LostEvents> action) {
        lostHandlers.add(Objects.requireNonNull(action, "action"));
        return this;
    }

    /**
     * Runs {@code action} with exceptions thrown by handlers and errors reported by the source. Without any, they
     * are logged (System.Logger {@code org.etw4j.consumer.EventStream}, WARNING). A handler that throws does not
     * stop the stream.
     */
    public EventStream onError(Consumer<Throwable> action) {
        errorHandlers.add(Objects.requireNonNull(action, "action"));
        return this;
    }

    /** Runs {@code action} once when the stream closes (ends by itself or is closed). */
    public EventStream onClose(Runnable action) {
        closeHandlers.add(Objects.requireNonNull(action, "action"));
        return this;
    }

    /** Registers the providers of an instrumentation manifest file, to decode their events. */
    public EventStream addManifest(Path manifest) throws IOException {
        decoding.decoder.manifests().register(manifest);
        return this;
    }

    /** Registers the providers of an instrumentation manifest given as XML bytes (e.g. a class-path resource's). */
    public EventStream addManifest(byte[] manifestXml) throws IOException {
        ReadSettings.registerXml(decoding.decoder.manifests(), manifestXml);
        return this;
    }

    private EventStream add(Handler h) {
        Objects.requireNonNull(h.action, "action");
        synchronized (lock) {
            Handler[] now = handlers;
            Handler[] more = Arrays.copyOf(now, now.length + 1);
            more[now.length] = h;
            handlers = more;
        }
        return this;
    }

    // ------------------------------------------------------------------------------------------ running

    /**
     * Runs the stream on the calling thread until it ends (session stopped, files read, or {@link #close()}).
     *
     * @throws IllegalStateException if the stream was started or closed already
     */
    public void start() {
        begin();
        try {
            run();
        } finally {
            finish();
        }
    }

    /**
     * Runs the stream on a new daemon platform thread ({@code etw4j-stream-...}) and returns at once.
     *
     * @throws IllegalStateException if the stream was started or closed already
     */
    public void startAsync() {
        begin();
        Thread t = new Thread(() -> {
            try {
                run();
            } finally {
                finish();
            }
        }, "etw4j-stream-" + description);
        t.setDaemon(true);
        t.start();
    }

    /** Waits until the stream has terminated (closed and its close actions run); true if it has. */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Waits, without limit, until the stream has terminated. */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /** Whether {@link #close()} was called or the stream ended. */
    public boolean isClosed() {
        return closing;
    }

    /** The options (file streams: direct hand-off). */
    public StreamOptions options() {
        return options;
    }

    /** Counters now; exact once the stream has terminated. */
    public EventStreamStatistics statistics() {
        return new EventStreamStatistics(received, dispatched, dropped, discarded.get(), lostBySession, handlerErrors.get());
    }

    /** Stops the stream; idempotent; does not wait (see {@link #awaitTermination}). */
    @Override
    public void close() {
        boolean neverStarted;
        synchronized (lock) {
            if (closeCalled) {
                return;
            }
            closeCalled = true;
            closing = true;
            neverStarted = state == State.NEW;
            if (neverStarted) {
                state = State.DONE;
            }
        }
        if (consumer != null) {
            consumer.close(); // makes ProcessTrace return; safe from any thread
        }
        if (neverStarted) {
            finish();
        }
    }

    private void begin() {
        synchronized (lock) {
            if (state != State.NEW || closing) {
                throw new IllegalStateException("the stream over " + description + " was " + (closing ? "closed" : "started") + " already");
            }
            state = State.RUNNING;
        }
    }

    private void run() {
        try {
            if (files != null) {
                runFiles();
            } else if (queue == null) {
                consumer.process();
            } else {
                runQueued();
            }
        } catch (Throwable t) {
            fireError(t);
        }
    }

    private void runFiles() {
        long[] losses = files.headerLosses();
        if (losses[0] > 0 || losses[1] > 0) {
            lostBySession = losses[0];
            fireLost(new LostEvents(LostEvents.Source.SESSION, losses[0], losses[1]));
        }
        while (!closing && files.hasMoreEvents()) {
            received++;
            EventRecord e = files.readEvent();
            dispatched++;
            dispatch(e);
        }
    }

    private void runQueued() throws InterruptedException {
        Thread delivery = new Thread(() -> {
            try {
                consumer.process();
            } catch (Throwable t) {
                enqueueControl(new Failure(t));
            } finally {
                enqueueControl(END);
            }
        }, "etw4j-stream-delivery-" + description);
        delivery.setDaemon(true);
        deliveryThread = delivery;
        delivery.start();
        while (!closing) {
            Object o = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
            reportPending();
            if (o == null) {
                continue;
            }
            if (o == END) {
                break;
            }
            if (o instanceof Failure f) {
                fireError(f.error());
                continue;
            }
            dispatched++;
            dispatch((EventRecord) o);
        }
        if (closing) {
            consumer.close();
            delivery.join(TimeUnit.SECONDS.toMillis(10));
            long left = 0;
            for (Object o; (o = queue.poll()) != null; ) {
                if (o instanceof EventRecord) {
                    left++;
                } else if (o instanceof Failure f) {
                    fireError(f.error());
                }
            }
            discarded.addAndGet(left);
        }
        reportPending();
    }

    /** Queues END or a failure for the handler thread, unless the stream is being closed. */
    private void enqueueControl(Object o) {
        try {
            while (!queue.offer(o, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                if (closing) {
                    if (o instanceof Failure f) {
                        LOG.log(System.Logger.Level.WARNING, "event stream over " + description + " closed with an error", f.error());
                    }
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void finish() {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        closing = true;
        if (consumer != null) {
            consumer.close();
        }
        Thread d = deliveryThread;
        if (d != null && d != Thread.currentThread()) {
            try {
                d.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (files != null) {
            files.close();
        }
        synchronized (lock) {
            state = State.DONE;
            closeCalled = true;
        }
        for (Runnable r : closeHandlers) {
            try {
                r.run();
            } catch (Throwable t) {
                fireError(t);
            }
        }
        terminated.countDown();
    }

    // ------------------------------------------------------------------------------------------ dispatch

    private void dispatch(EventRecord r) {
        for (Handler h : handlers) {
            try {
                if (h.matches(r)) {
                    h.action.accept(r);
                }
            } catch (Throwable t) {
                handlerErrors.incrementAndGet();
                fireError(t);
            }
        }
    }

    private void reportPending() {
        if (pendingDropped.get() != 0) {
            long d = pendingDropped.getAndSet(0);
            fireLost(new LostEvents(LostEvents.Source.STREAM_QUEUE, d, 0));
        }
        if (pendingSessionLost.get() != 0 || pendingSessionBuffersLost.get() != 0) {
            long e = pendingSessionLost.getAndSet(0);
            long b = pendingSessionBuffersLost.getAndSet(0);
            fireLost(new LostEvents(LostEvents.Source.SESSION, e, b));
        }
        for (Throwable t; (t = pendingErrors.poll()) != null; ) {
            fireError(t);
        }
    }

    private void fireLost(LostEvents lost) {
        for (Consumer<LostEvents> h : lostHandlers) {
            try {
                h.accept(lost);
            } catch (Throwable t) {
                handlerErrors.incrementAndGet();
                fireError(t);
            }
        }
    }

    private void fireError(Throwable error) {
        if (errorHandlers.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, "event stream over " + description + ": " + error, error);
            return;
        }
        for (Consumer<Throwable> h : errorHandlers) {
            try {
                h.accept(error);
            } catch (Throwable t) {
                LOG.log(System.Logger.Level.WARNING, "onError handler of the event stream over " + description + " failed", t);
            }
        }
    }

    @Override
    public String toString() {
        return "EventStream[" + description + ", " + options.backpressure() + (closing ? ", closed]" : "]");
    }

    // ------------------------------------------------------------------------------------------ internals

    /** One registered action with its routing key (provider, id, name; null/-1 = any). */
    private static final class Handler {
        final boolean anyProvider;
        final long msb;
        final long lsb;
        final int eventId;
        final String name;
        final Consumer<EventRecord> action;

        Handler(Guid provider, int eventId, String name, Consumer<EventRecord> action) {
            this.anyProvider = provider == null;
            this.msb = provider == null ? 0 : provider.mostSignificantBits();
            this.lsb = provider == null ? 0 : provider.leastSignificantBits();
            this.eventId = eventId;
            this.name = name;
            this.action = action;
        }

        boolean matches(EventRecord r) {
            if (!anyProvider && (r.providerIdMsb() != msb || r.providerIdLsb() != lsb)) {
                return false;
            }
            if (eventId >= 0 && r.eventId() != eventId) {
                return false;
            }
            return name == null || name.equals(r.eventName());
        }
    }

    /**
     * What the backend delivers to, on its delivery thread: handlers directly ({@link Backpressure#NONE}) or
     * copies into the queue.
     */
    private final class DeliverySink implements RecordSink {
        @Override
        public void onRecord(RawEventRecord record) {
            received++;
            if (closing) {
                discarded.incrementAndGet();
                return;
            }
            decoding.observe(record); // the stream's processes and volumes, in delivery order
            if (queue == null) {
                view.resetLive(record);
                dispatched++;
                dispatch(view);
                return;
            }
            // The copy is decoded on the handler thread, after the callback: platform (TDH) schemas must be
            // looked up now, while the record can still ask.
            decoding.decoder.prefetchPlatformSchema(record);
            if (options.backpressure() == Backpressure.DROP_NEWEST) {
                // Only this thread adds records, so space seen here is still there for the offer below.
                if (queue.remainingCapacity() == 0 || !queue.offer(EventRecord.copyOf(record, decoding))) {
                    dropped++;
                    pendingDropped.incrementAndGet();
                }
                return;
            }
            EventRecord copy = EventRecord.copyOf(record, decoding);
            try {
                while (!queue.offer(copy, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    if (closing) {
                        discarded.incrementAndGet();
                        return;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                discarded.incrementAndGet();
            }
        }

        @Override
        public void onLost(long events, long buffers) {
            lostBySession += events;
            if (queue == null) {
                fireLost(new LostEvents(LostEvents.Source.SESSION, events, buffers));
            } else {
                pendingSessionLost.addAndGet(events);
                pendingSessionBuffersLost.addAndGet(buffers);
            }
        }

        @Override
        public void onError(Throwable error) {
            if (queue == null) {
                fireError(error);
            } else {
                pendingErrors.add(error);
            }
        }
    }
}
