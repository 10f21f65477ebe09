package org.etw4j.consumer;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The actions registered on one stream (events, losses, errors, close) and how they run: every matching event
 * handler per record, each failure counted and reported, never thrown; without error handlers errors are logged
 * (System.Logger {@code org.etw4j.consumer.EventStream}, WARNING).
 *
 * <p>Thread-safe: actions may be added from any thread while the handler thread runs them (they apply from the
 * next record).
 */
final class StreamHandlers {
    private static final System.Logger LOG = System.getLogger(EventStream.class.getName());

    private final String description;
    private final Object lock = new Object();
    private volatile EventHandler[] events = new EventHandler[0];
    private final List<Consumer<LostEvents>> lost = new CopyOnWriteArrayList<>();
    private final List<Consumer<Throwable>> errors = new CopyOnWriteArrayList<>();
    private final List<Runnable> closes = new CopyOnWriteArrayList<>();
    private final AtomicLong failures = new AtomicLong();
    /** Errors logged without an onError handler: counted, logged rate-limited (issue 22, item 10). */
    private final RateLimitedLog errorLog = new RateLimitedLog(LOG);

    StreamHandlers(String description) {
        this.description = description;
    }

    void addEvent(EventHandler h) {
        synchronized (lock) {
            EventHandler[] now = events;
            EventHandler[] more = Arrays.copyOf(now, now.length + 1);
            more[now.length] = h;
            events = more;
        }
    }

    void addLost(Consumer<LostEvents> action) {
        lost.add(action);
    }

    void addError(Consumer<Throwable> action) {
        errors.add(action);
    }

    void addClose(Runnable action) {
        closes.add(action);
    }

    /** Exceptions handlers threw (event and loss handlers, close actions' are reported but not counted here). */
    long failures() {
        return failures.get();
    }

    void dispatch(EventRecord r) {
        for (EventHandler h : events) {
            try {
                if (h.matches(r)) {
                    h.action().accept(r);
                }
            } catch (Throwable t) {
                failures.incrementAndGet();
                fireError(t);
            }
        }
    }

    void fireLost(LostEvents report) {
        for (Consumer<LostEvents> h : lost) {
            try {
                h.accept(report);
            } catch (Throwable t) {
                failures.incrementAndGet();
                fireError(t);
            }
        }
    }

    void fireError(Throwable error) {
        if (errors.isEmpty()) {
            errorLog.warn("event stream over " + description, error);
            return;
        }
        for (Consumer<Throwable> h : errors) {
            try {
                h.accept(error);
            } catch (Throwable t) {
                errorLog.warn("onError handler of the event stream over " + description + " failed", t);
            }
        }
    }

    void runCloseActions() {
        for (Runnable r : closes) {
            try {
                r.run();
            } catch (Throwable t) {
                fireError(t);
            }
        }
    }
}
