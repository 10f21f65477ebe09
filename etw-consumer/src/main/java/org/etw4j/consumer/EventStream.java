package org.etw4j.consumer;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import org.etw4j.Backend;
import org.etw4j.Guid;
import org.etw4j.spi.EtwBackends;

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
 * them; queue drops as they accumulate). File streams read through {@link TraceFile} on the handler thread and hand
 * over its reused record (files wait; nothing is dropped), several files merged in time order; their headers'
 * EventsLost is reported once at the start.
 *
 * <p>The stream delivers every record its source delivers, the trace's own header record included (a live
 * session's synthetic EventTrace header event, a file's logfile-header record).
 *
 * <p>Implementations: one per source (files, a session with direct or queued hand-off) over one base that owns
 * the handlers, losses, errors and the lifecycle; applications use the factories here.
 */
public interface EventStream extends AutoCloseable {

    /** A live stream of the real-time session {@code sessionName} on the default backend, default options. */
    static EventStream openSession(String sessionName) {
        return openSession(sessionName, EtwBackends.getDefault(), StreamOptions.DEFAULT);
    }

    /** A live stream of the real-time session {@code sessionName} of {@code backend}, default options. */
    static EventStream openSession(String sessionName, Backend backend) {
        return openSession(sessionName, backend, StreamOptions.DEFAULT);
    }

    /**
     * A live stream of the real-time session {@code sessionName} of {@code backend}. The session's consumer is
     * opened now ({@code OpenTrace}), so events logged before {@link #start()} are kept by the session for this
     * stream, within its buffers.
     *
     * @throws org.etw4j.EtwException if there is no such real-time session
     */
    static EventStream openSession(String sessionName, Backend backend, StreamOptions options) {
        Objects.requireNonNull(sessionName, "sessionName");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(options, "options");
        return options.backpressure() == Backpressure.NONE
                ? new DirectSessionStream(sessionName, EtwBackends.spi(backend), options)
                : new QueuedSessionStream(sessionName, EtwBackends.spi(backend), options);
    }

    /**
     * A stream of the records of one or more .etl files, merged in time order, read as {@link TraceFile} reads them
     * with {@link ReadSettings#DEFAULT} (pure-Java reader; lenient: malformed buffers are skipped and counted by
     * the reader; two passes: events are attributed to processes as {@code etw dump} attributes them). The files are
     * opened now and closed when the stream closes.
     *
     * @throws IOException if a file cannot be opened or is not an .etl file ({@link ReadSetupException} names it)
     */
    static EventStream openFiles(Path... paths) throws IOException {
        return openFiles(ReadSettings.DEFAULT, paths);
    }

    /**
     * A stream of the events of one or more .etl files that {@code settings} select, read through
     * {@link TraceFile#open(ReadSettings, Path...)}.
     *
     * @throws IOException if a manifest or file cannot be read ({@link ReadSetupException} names it)
     */
    static EventStream openFiles(ReadSettings settings, Path... paths) throws IOException {
        if (paths.length == 0) {
            throw new IllegalArgumentException("no files");
        }
        return new FileEventStream(TraceFile.open(settings, paths), paths);
    }

    // ------------------------------------------------------------------------------------------ handlers

    /** Runs {@code action} for every record. */
    EventStream onEvent(Consumer<EventRecord> action);

    /** Runs {@code action} for the records of {@code provider}. */
    EventStream onEvent(Guid provider, Consumer<EventRecord> action);

    /** Runs {@code action} for the records of {@code provider} with event id {@code eventId} (0..65535). */
    EventStream onEvent(Guid provider, int eventId, Consumer<EventRecord> action);

    /**
     * Runs {@code action} for the records of {@code provider} named {@code eventName}: the TraceLogging event name,
     * or the decoded name (see {@link EventRecord#eventName()}). Matching a name decodes non-TraceLogging events of
     * that provider (once per record).
     */
    EventStream onEvent(Guid provider, String eventName, Consumer<EventRecord> action);

    /** Runs {@code action} (on the handler thread) whenever events are reported lost; see {@link LostEvents}. */
    EventStream onLost(Consumer<LostEvents> action);

    /**
     * Runs {@code action} with exceptions thrown by handlers and errors reported by the source. Without any, they
     * are logged (System.Logger {@code org.etw4j.consumer.EventStream}, WARNING; the first with its stack trace, then
     * at most one line a minute with the count, while {@link EventStreamStatistics} counts every one). A handler that
     * throws does not stop the stream.
     */
    EventStream onError(Consumer<Throwable> action);

    /** Runs {@code action} once when the stream closes (ends by itself or is closed). */
    EventStream onClose(Runnable action);

    /** Registers the providers of an instrumentation manifest file, to decode their events. */
    EventStream addManifest(Path manifest) throws IOException;

    /** Registers the providers of an instrumentation manifest given as XML bytes (e.g. a class-path resource's). */
    EventStream addManifest(byte[] manifestXml) throws IOException;

    // ------------------------------------------------------------------------------------------ running

    /**
     * Runs the stream on the calling thread until it ends (session stopped, files read, or {@link #close()}).
     *
     * @throws IllegalStateException if the stream was started or closed already
     */
    void start();

    /**
     * Runs the stream on a new daemon platform thread ({@code etw4j-stream-...}) and returns at once.
     *
     * @throws IllegalStateException if the stream was started or closed already
     */
    void startAsync();

    /** Waits until the stream has terminated (closed and its close actions run); true if it has. */
    boolean awaitTermination(Duration timeout) throws InterruptedException;

    /** Waits, without limit, until the stream has terminated. */
    void awaitTermination() throws InterruptedException;

    /** Whether {@link #close()} was called or the stream ended. */
    boolean isClosed();

    /** The options (file streams: direct hand-off). */
    StreamOptions options();

    /** Counters now; exact once the stream has terminated. */
    EventStreamStatistics statistics();

    /** Stops the stream; idempotent; does not wait (see {@link #awaitTermination}). */
    @Override
    void close();
}
