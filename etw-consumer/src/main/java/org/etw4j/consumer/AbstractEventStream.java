package org.etw4j.consumer;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;

/**
 * What every {@link EventStream} shares, whatever its source (the model of JFR's
 * {@code jdk.jfr.internal.consumer.AbstractEventStream}): the handlers and their dispatch, loss and error reports,
 * the counters and what each step of the lifecycle ({@link StreamLifecycle}: start once, close from any thread, close
 * actions once, termination) does. A source writes only its loop ({@link #run()}) and says how to stop and release it.
 *
 * <p>Thread-safe as {@link EventStream} says; the counters each have one writing thread (the delivery or the handler
 * thread), so volatile suffices.
 */
abstract class AbstractEventStream implements EventStream {
    static final System.Logger LOG = System.getLogger(EventStream.class.getName());

    final String description;
    final StreamOptions options;
    final RecordDecoding decoding;

    private final StreamHandlers handlers;
    private final StreamLifecycle lifecycle = new StreamLifecycle();
    volatile boolean closing;

    volatile long received;
    volatile long dispatched;
    volatile long dropped;
    volatile long lostBySession;
    final AtomicLong discarded = new AtomicLong();
    volatile long undeliveredAtClose;
    /** Events the backend counted in the session's buffers when the stream's consumer closed (delivery thread). */
    volatile long undeliveredBySource;

    AbstractEventStream(String description, StreamOptions options, RecordDecoding decoding) {
        this.description = description;
        this.options = options;
        this.decoding = decoding;
        this.handlers = new StreamHandlers(description);
    }

    /** The source's loop, on the handler thread: returns when the source ended or {@link #closing} is set. */
    abstract void run() throws Exception;

    /** Makes {@link #run()} return soon; any thread, idempotent. */
    void stopSource() {
    }

    /** Frees the source once {@link #run()} returned (or never ran); on the thread that finishes the stream. */
    void release() {
    }

    @Override
    public EventStream onEvent(Consumer<EventRecord> action) {
        return add(new EventHandler(null, -1, null, action));
    }

    @Override
    public EventStream onEvent(Guid provider, Consumer<EventRecord> action) {
        return add(new EventHandler(Objects.requireNonNull(provider, "provider"), -1, null, action));
    }

    @Override
    public EventStream onEvent(Guid provider, int eventId, Consumer<EventRecord> action) {
        if (eventId < 0 || eventId > 0xFFFF) {
            throw new IllegalArgumentException("event id must be 0..65535, got " + eventId);
        }
        return add(new EventHandler(Objects.requireNonNull(provider, "provider"), eventId, null, action));
    }

    @Override
    public EventStream onEvent(Guid provider, String eventName, Consumer<EventRecord> action) {
        return add(new EventHandler(Objects.requireNonNull(provider, "provider"), -1,
                Objects.requireNonNull(eventName, "eventName"), action));
    }

    @Override
    public EventStream onLost(Consumer<LostEvents> action) {
        handlers.addLost(Objects.requireNonNull(action, "action"));
        return this;
    }

    @Override
    public EventStream onError(Consumer<Throwable> action) {
        handlers.addError(Objects.requireNonNull(action, "action"));
        return this;
    }

    @Override
    public EventStream onClose(Runnable action) {
        handlers.addClose(Objects.requireNonNull(action, "action"));
        return this;
    }

    @Override
    public EventStream addManifest(Path manifest) throws IOException {
        decoding.decoder.manifests().register(manifest);
        return this;
    }

    @Override
    public EventStream addManifest(byte[] manifestXml) throws IOException {
        ReadSettings.registerXml(decoding.decoder.manifests(), manifestXml);
        return this;
    }

    private EventStream add(EventHandler h) {
        handlers.addEvent(h);
        return this;
    }

    @Override
    public void start() {
        lifecycle.begin(description);
        runToTheEnd();
    }

    @Override
    public void startAsync() {
        lifecycle.begin(description);
        Thread t = new Thread(this::runToTheEnd, "etw4j-stream-" + description);
        t.setDaemon(true);
        t.start();
    }

    /** Runs the source's loop, reports what it throws, and closes the stream. */
    private void runToTheEnd() {
        try {
            run();
        } catch (Throwable t) {
            fireError(t);
        } finally {
            finish();
        }
    }

    @Override
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return lifecycle.awaitTermination(timeout);
    }

    @Override
    public void awaitTermination() throws InterruptedException {
        lifecycle.awaitTermination();
    }

    @Override
    public boolean isClosed() {
        return closing;
    }

    @Override
    public StreamOptions options() {
        return options;
    }

    @Override
    public EventStreamStatistics statistics() {
        return new EventStreamStatistics(received, dispatched, dropped, discarded.get(), lostBySession, handlers.failures(),
                undeliveredAtClose);
    }

    @Override
    public void close() {
        StreamLifecycle.CloseRequest request = lifecycle.requestClose();
        if (request == StreamLifecycle.CloseRequest.REPEATED) {
            return;
        }
        closing = true;
        stopSource();
        if (request == StreamLifecycle.CloseRequest.BEFORE_START) {
            finish();
        }
    }


    private void finish() {
        if (!lifecycle.claimFinish()) {
            return;
        }
        closing = true;
        stopSource();
        release();
        lifecycle.markDone();
        reportUndelivered();
        handlers.runCloseActions();
        lifecycle.terminate();
    }

    /**
     * Issue 24, item 4: a stream closed while its session still held events (the natural try-with-resources order,
     * stream inside session) never receives them. They are counted (records that arrived after close, and what the
     * backend counted in the session's buffers), reported to onLost and logged once, naming the order that
     * delivers them.
     */
    private void reportUndelivered() {
        long events = discarded.get() + undeliveredBySource;
        if (events == 0) {
            return;
        }
        undeliveredAtClose = events;
        fireLost(new LostEvents(LostEvents.Source.UNDELIVERED_AT_CLOSE, events, 0));
        LOG.log(System.Logger.Level.WARNING, "the event stream over " + description + " was closed with " + events
                + " event(s) still pending in the session: they are not delivered. Stop the session first"
                + " (TraceSession.close() flushes; the stream then ends by itself with every event) or flush it"
                + " before closing the stream");
    }

    /** Counts a record the source delivered; false (and counted as discarded) when the stream is closing. */
    final boolean admit(RawEventRecord record) {
        received++;
        if (closing) {
            discarded.incrementAndGet();
            return false;
        }
        decoding.observe(record); // the stream's processes and volumes, in delivery order
        return true;
    }

    final void dispatch(EventRecord r) {
        dispatched++;
        handlers.dispatch(r);
    }

    final void fireLost(LostEvents lost) {
        handlers.fireLost(lost);
    }

    final void fireError(Throwable error) {
        handlers.fireError(error);
    }

    @Override
    public String toString() {
        return "EventStream[" + description + ", " + options.backpressure() + (closing ? ", closed]" : "]");
    }
}
