package org.etw4j.samples.logging;

import java.io.PrintStream;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.etw4j.Level;
import org.etw4j.consumer.EventStream;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;

/**
 * What the logging samples listen with: a real-time session enabling the bridge's provider for every level and
 * keyword, and a live {@link EventStream} printing each event on one line. On Windows this is a real ETW session
 * (Administrator or Performance Log Users needed); elsewhere the simulated one.
 *
 * <p>Not thread-safe; one per sample run. {@link #close()} stops the session, waits for the last events and prints
 * the session's counters.
 */
final class SampleSession implements AutoCloseable {
    private final TraceSession session;
    private final EventStream stream;
    private final PrintStream out;
    private final AtomicLong printed = new AtomicLong();

    private SampleSession(String provider, PrintStream out) {
        this.out = out;
        session = TraceSession.start(SessionConfig.realTime("etw4j-logging-sample-" + UUID.randomUUID()).build());
        stream = EventStream.openSession(session.name());
        stream.onEvent(TraceSession.resolve(provider), e -> {
            printed.incrementAndGet();
            out.println(e);
        });
        stream.startAsync();
        // the sample logs right after: wait until the provider has seen the enable (EnableTraceEx2's Timeout)
        session.enable(provider, EnableParameters.builder().level(Level.VERBOSE).waitForCallbacks(Duration.ofSeconds(10)).build());
    }

    /** Starts listening to {@code provider}; events are printed to {@code out}. */
    static SampleSession listen(String provider, PrintStream out) {
        return new SampleSession(provider, out);
    }

    @Override
    public void close() throws InterruptedException {
        session.stop();
        stream.awaitTermination(Duration.ofSeconds(10));
        out.println(printed.get() + " events received; session " + session.statistics());
        session.close();
        stream.close();
    }
}
