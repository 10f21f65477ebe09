package org.etw4j.junit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.etw4j.Backend;
import org.etw4j.EtwException;
import org.etw4j.Guid;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.EventStream;
import org.etw4j.consumer.LostEvents;
import org.etw4j.consumer.StreamOptions;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.controller.TraceSession;
import org.opentest4j.AssertionFailedError;

/**
 * The events one private real-time session captured during a test, decoded to named fields, with deterministic
 * waits and fluent assertions ({@link #assertThat()}).
 *
 * <p>Threading and lifetime: thread-safe. Events arrive asynchronously, on the stream's delivery thread; every
 * reading method first {@linkplain #sync() synchronizes} (flushes the session and waits until every event the
 * session has delivered so far has been captured), so a test that wrote its events on its own thread, or joined
 * the threads that did, sees all of them without sleeping. Events written by threads still running are awaited
 * with {@link #awaitCount} / {@link #awaitEvent}. The extension creates one per test and closes it (stops the
 * session and its stream) when the test ends, pass or fail; {@link #close()} is idempotent.
 *
 * <p>The captured events are {@link EventRecord#copy() copies}, in delivery order, decoded on the delivery thread
 * (TraceLogging schemas, manifests and, on Windows, TDH), without the session's synthetic header event.
 */
public final class CapturedEvents implements AutoCloseable {
    /** How long waits last unless told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /**
     * EventTraceGuid (evntrace.h): the provider of the synthetic header event a real-time consumer receives first
     * (MS Learn, PEVENT_RECORD_CALLBACK callback function); not an event of the test's providers, so not captured.
     */
    static final Guid EVENT_TRACE_GUID = org.etw4j.controller.KernelEventGroup.EVENT_TRACE.guid();

    /** How often a wait flushes the session again. */
    private static final long FLUSH_EVERY_NANOS = Duration.ofMillis(50).toNanos();

    /**
     * When the backend does not count delivered events (real ETW reports no such counter: -1), {@link #sync()} takes
     * the stream as quiet when nothing new arrived this long after a flush. A heuristic, named as such.
     */
    static final Duration QUIET_PERIOD = Duration.ofMillis(250);

    private final CaptureSpec spec;
    private final TraceSession session;
    /** The real-time stream; null for a private-session capture. */
    private final EventStream stream;
    /** A private-session capture's file; null for a real-time capture. */
    private final PrivateSessionFile file;
    private final Object lock = new Object();
    /** Private sessions: events at or before this raw timestamp were forgotten by {@link #clear()}. */
    private long clearedThrough = Long.MIN_VALUE;
    private final List<EventRecord> events = new ArrayList<>();
    private final List<Throwable> errors = new ArrayList<>();
    private long seen;
    private long lost;
    private volatile boolean closed;

    private CapturedEvents(CaptureSpec spec, TraceSession session, EventStream stream, PrivateSessionFile file) {
        this.spec = spec;
        this.session = session;
        this.stream = stream;
        this.file = file;
    }

    /**
     * Starts the session {@code sessionName} on {@code backend}, opens and starts its stream, then enables the
     * providers (so no event is missed between enabling and consuming).
     */
    static CapturedEvents start(CaptureSpec spec, String sessionName, Backend backend) {
        if (!backend.supportsControl()) {
            throw new IllegalStateException("the etw4j backend '" + backend.name() + "' cannot start sessions; run the tests with "
                    + "-Detw4j.backend=simulated (or on Java 23+ on Windows for real ETW)");
        }
        TraceSession session;
        PrivateSessionFile file = spec.privateSession()
                ? new PrivateSessionFile(PrivateSessionFile.createFor(sessionName), spec.manifests()) : null;
        try {
            session = TraceSession.start(file == null ? SessionConfig.realTime(sessionName).build()
                    : SessionConfig.file(sessionName, file.path()).privateInProcess(true).build(), backend);
        } catch (EtwException e) {
            if (e.status() == 5) { // ERROR_ACCESS_DENIED: StartTrace needs administrators or Performance Log Users
                throw new IllegalStateException("starting the ETW session " + sessionName + " was refused (ERROR_ACCESS_DENIED): "
                        + "real ETW sessions need an elevated process or membership of Performance Log Users; "
                        + "run elevated, use privateSession = true (Windows 10 1703+), or test on the simulated ETW "
                        + "with -Detw4j.backend=simulated", e);
            }
            throw e;
        }
        if (file != null) {
            try {
                for (Guid id : spec.providerIds()) {
                    session.enable(id, enabledBeforeReturn(spec.parameters()));
                }
                return new CapturedEvents(spec, session, null, file);
            } catch (RuntimeException | Error e) {
                session.close();
                file.delete();
                throw e;
            }
        }
        CapturedEvents captured = null;
        try {
            EventStream stream = EventStream.openSession(sessionName, backend, StreamOptions.direct());
            captured = new CapturedEvents(spec, session, stream, null);
            CapturedEvents c = captured;
            for (String m : spec.manifests()) {
                Manifests.register(stream, m);
            }
            stream.onEvent(c::onRecord).onLost(c::onLost).onError(c::onError);
            stream.startAsync();
            for (Guid id : spec.providerIds()) {
                session.enable(id, enabledBeforeReturn(spec.parameters()));
            }
            return captured;
        } catch (RuntimeException | Error e) {
            if (captured != null) {
                captured.close();
            } else {
                session.close();
            }
            throw e;
        }
    }

    /** How long an enable waits for the providers' callbacks (a hung provider elsewhere costs a test this much). */
    static final Duration ENABLE_CALLBACK_WAIT = Duration.ofSeconds(10);

    /**
     * The test's parameters with EnableTraceEx2's wait, unless the test chose one: a test writes right after the
     * capture starts, so its providers must have seen the enable by then. On Windows, and on the simulated ETW,
     * enable callbacks run on a notification thread after EnableTraceEx2 returns unless it is asked to wait (MS
     * Learn, EnableTraceEx2, Timeout: a nonzero Timeout waits "for all provider callbacks to complete"); without
     * the wait the first events of a test would be dropped now and then (issue 21, item 8).
     */
    static EnableParameters enabledBeforeReturn(EnableParameters p) {
        return p.waitsForCallbacks() ? p : p.withCallbackWait(ENABLE_CALLBACK_WAIT);
    }

    // ------------------------------------------------------------------------------------ delivery thread

    private void onRecord(EventRecord r) {
        if (r.isProvider(EVENT_TRACE_GUID)) {
            return;
        }
        Throwable failure = null;
        try {
            // Decode now, while a live record can still ask TDH; the copy keeps the result.
            r.eventName();
            r.providerName();
            r.getFields();
        } catch (RuntimeException e) {
            failure = e;
        }
        EventRecord copy = r.copy();
        synchronized (lock) {
            events.add(copy);
            seen++;
            if (failure != null) {
                errors.add(failure);
            }
            lock.notifyAll();
        }
    }

    private void onLost(LostEvents l) {
        synchronized (lock) {
            lost += l.events();
            lock.notifyAll();
        }
    }

    private void onError(Throwable t) {
        synchronized (lock) {
            errors.add(t);
        }
    }

    // ------------------------------------------------------------------------------------ waiting

    /** {@link #sync(Duration)} with {@link #DEFAULT_TIMEOUT}. */
    public CapturedEvents sync() {
        return sync(DEFAULT_TIMEOUT);
    }

    /**
     * Flushes the session and waits until every event it has delivered is captured: on the simulated ETW exactly
     * (the session's delivered-events counter against the events captured); on real ETW, which does not count
     * delivered events, until nothing new arrived for {@link #QUIET_PERIOD} after a flush.
     *
     * @throws AssertionFailedError if that does not happen within {@code timeout}
     */
    public CapturedEvents sync(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long lastCount = -1;
        long quietSince = 0;
        while (true) {
            long before = seenCount();
            SessionStatistics st = flushAndQuery();
            long now = System.nanoTime();
            if (st == null) {
                return this; // the session has stopped: nothing more can arrive
            }
            if (st.eventsDelivered() >= 0 && st.eventsPending() >= 0) {
                if (st.eventsPending() == 0 && seenCount() >= st.eventsDelivered()) {
                    return this;
                }
            } else {
                if (before != lastCount) {
                    lastCount = before;
                    quietSince = now;
                } else if (now - quietSince >= QUIET_PERIOD.toNanos()) {
                    return this;
                }
            }
            if (now - deadline >= 0) {
                throw new AssertionFailedError("events of the session " + session.name() + " were still in flight after " + timeout
                        + " (session statistics " + st + ", captured " + seenCount() + ")\n" + listing());
            }
            waitForNews(Math.min(FLUSH_EVERY_NANOS, deadline - now));
        }
    }

    /** {@link #awaitCount(int, Duration)} with {@link #DEFAULT_TIMEOUT}. */
    public List<EventRecord> awaitCount(int count) {
        return awaitCount(count, DEFAULT_TIMEOUT);
    }

    /**
     * Waits until at least {@code count} events are captured (flushing the session meanwhile); returns them all.
     *
     * @throws AssertionFailedError listing what was captured if fewer arrived within {@code timeout}
     */
    public List<EventRecord> awaitCount(int count, Duration timeout) {
        await(e -> true, count, timeout, "events");
        return events();
    }

    /** {@link #awaitEvent(String, Duration)} with {@link #DEFAULT_TIMEOUT}. */
    public EventRecord awaitEvent(String eventName) {
        return awaitEvent(eventName, DEFAULT_TIMEOUT);
    }

    /**
     * Waits until an event named {@code eventName} is captured; returns the first one.
     *
     * @throws AssertionFailedError listing what was captured if none arrived within {@code timeout}
     */
    public EventRecord awaitEvent(String eventName, Duration timeout) {
        Objects.requireNonNull(eventName, "eventName");
        return await(e -> eventName.equals(e.eventName()), 1, timeout, "events named \"" + eventName + "\"").get(0);
    }

    /**
     * Waits until at least {@code count} captured events match {@code filter}; returns the matching ones, in
     * delivery order.
     *
     * @param description what the filter selects, for the failure message ("events named X")
     * @throws AssertionFailedError listing what was captured if fewer arrived within {@code timeout}
     */
    public List<EventRecord> await(Predicate<? super EventRecord> filter, int count, Duration timeout, String description) {
        Objects.requireNonNull(filter, "filter");
        long deadline = System.nanoTime() + timeout.toNanos();
        long lastFlush = 0;
        boolean flushed = false;
        while (true) {
            List<EventRecord> matching = snapshot().stream().filter(filter::test).toList();
            if (matching.size() >= count) {
                return matching;
            }
            long now = System.nanoTime();
            if (now - deadline >= 0) {
                throw new AssertionFailedError("expected at least " + count + " " + description + " within " + timeout
                        + ", got " + matching.size() + "\n" + listing());
            }
            if (!flushed || now - lastFlush >= FLUSH_EVERY_NANOS) {
                flushAndQuery();
                lastFlush = System.nanoTime();
                flushed = true;
                continue;
            }
            waitForNews(Math.min(FLUSH_EVERY_NANOS, deadline - now));
        }
    }

    private long seenCount() {
        synchronized (lock) {
            return seen;
        }
    }

    /** Flushes and reads the counters; null when the session is no longer running. */
    private SessionStatistics flushAndQuery() {
        if (!session.isRunning()) {
            return null;
        }
        try {
            session.flush();
            SessionStatistics st = session.statistics();
            if (file != null) {
                readFile(st, false);
            }
            return st;
        } catch (EtwException e) {
            if (!session.isRunning()) {
                return null;
            }
            throw e;
        }
    }

    /**
     * A private-session capture takes what its file holds now: every event (its header excepted) since the last
     * {@link #clear()}, in time order; the session's loss counter; after the session stopped, the reader's warnings as
     * errors (while it runs the file's header is provisional, which the reader warns about).
     */
    private void readFile(SessionStatistics st, boolean final_) {
        long[] warnings = new long[1];
        List<EventRecord> all = file.readAll(warnings);
        List<Throwable> failures = new ArrayList<>();
        List<EventRecord> kept = new ArrayList<>();
        for (EventRecord r : all) {
            if (r.isProvider(EVENT_TRACE_GUID)) {
                continue;
            }
            try {
                r.eventName();
                r.providerName();
                r.getFields();
            } catch (RuntimeException e) {
                failures.add(e);
            }
            if (r.timestampRaw() > clearedThrough) {
                kept.add(r);
            }
        }
        synchronized (lock) {
            seen = all.stream().filter(r -> !r.isProvider(EVENT_TRACE_GUID)).count();
            events.clear();
            events.addAll(kept);
            if (st != null) {
                lost = st.eventsLost();
            }
            if (final_) {
                errors.addAll(failures);
                if (warnings[0] > 0) {
                    errors.add(new IllegalStateException("the reader stepped over " + warnings[0]
                            + " malformed records or buffers of the private session's file " + file.path()));
                }
            }
            lock.notifyAll();
        }
    }

    private void waitForNews(long nanos) {
        if (nanos <= 0) {
            return;
        }
        synchronized (lock) {
            try {
                lock.wait(Math.max(1, nanos / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionFailedError("interrupted while waiting for the events of the session " + session.name());
            }
        }
    }

    // ------------------------------------------------------------------------------------ reading

    /** The captured events in delivery order, after a {@link #sync()}. */
    public List<EventRecord> events() {
        sync();
        return snapshot();
    }

    /** The captured events named {@code eventName}, after a {@link #sync()}. */
    public List<EventRecord> named(String eventName) {
        Objects.requireNonNull(eventName, "eventName");
        return events().stream().filter(e -> eventName.equals(e.eventName())).toList();
    }

    /** The captured events carrying activity id {@code activityId}, after a {@link #sync()}. */
    public List<EventRecord> inActivity(Guid activityId) {
        Objects.requireNonNull(activityId, "activityId");
        return events().stream().filter(e -> activityId.equals(e.activityId())).toList();
    }

    /** How many events were captured, after a {@link #sync()}. */
    public int size() {
        return events().size();
    }

    /** Fluent assertions over the captured events, after a {@link #sync()}. */
    public EventsAssert assertThat() {
        return new EventsAssert(this, events());
    }

    /** Forgets the events captured so far (after a {@link #sync()}), e.g. between two phases of a test. */
    public void clear() {
        sync();
        synchronized (lock) {
            if (file != null && !events.isEmpty()) {
                clearedThrough = events.get(events.size() - 1).timestampRaw();
            }
            events.clear();
        }
    }

    /** Events the session reported lost so far. */
    public long lostEvents() {
        synchronized (lock) {
            return lost;
        }
    }

    /** Errors the stream reported and decoding failures, in order. */
    public List<Throwable> errors() {
        synchronized (lock) {
            return List.copyOf(errors);
        }
    }

    /** The session (to enable more providers, capture state, read statistics); stopped by the extension. */
    public TraceSession session() {
        return session;
    }

    /** The session's name, unique to this capture. */
    public String sessionName() {
        return session.name();
    }

    /** The providers and enable parameters of this capture, as text. */
    public String describeSettings() {
        return spec.toString();
    }

    /** Whether {@link #close()} ran. */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Stops the session, then the stream; idempotent. Events captured stay readable. The session goes first: it
     * flushes, so the stream receives every event and ends by itself (issue 24, item 4: closing the stream first
     * leaves the session's last buffer undelivered); a session this capture does not own keeps running, and the
     * stream is then closed at once.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (file != null) {
            SessionStatistics st = null;
            try {
                session.close();
                st = session.statistics(); // the counters the stop reported
            } catch (RuntimeException e) {
                synchronized (lock) {
                    errors.add(e);
                }
            } finally {
                readFile(st, true);
                file.delete();
            }
            return;
        }
        try {
            session.close();
        } finally {
            if (!session.isOwned()) {
                stream.close();
            }
        }
        try {
            stream.awaitTermination(DEFAULT_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stream.close();
        }
    }

    List<EventRecord> snapshot() {
        synchronized (lock) {
            return List.copyOf(events);
        }
    }

    /** The bounded listing failure messages end with. */
    String listing() {
        return EventListing.of(snapshot(), lostEvents(), "session " + session.name() + ", " + spec);
    }

    @Override
    public String toString() {
        return "CapturedEvents[" + session.name() + ", " + snapshot().size() + " events" + (closed ? ", closed]" : "]");
    }
}
