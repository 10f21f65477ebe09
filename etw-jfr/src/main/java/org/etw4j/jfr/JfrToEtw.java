package org.etw4j.jfr;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import jdk.jfr.EventSettings;
import jdk.jfr.consumer.RecordingStream;
import org.etw4j.Backend;
import org.etw4j.provider.EnableNotification;
import org.etw4j.provider.EtwProvider;

/**
 * The JFR-to-ETW bridge: registers a TraceLogging provider (default {@code Java-Runtime}) and, while some ETW
 * session enables it, streams this JVM's own JFR events ({@link RecordingStream}) and re-emits the configured ones
 * as TraceLogging events.
 *
 * <p>Only when someone listens: with no session enabling the provider there is no JFR recording at all. Each
 * enable notification (the provider's {@link org.etw4j.provider.EnableListener}, on its notification thread)
 * recomputes the JFR events wanted, the enabled settings whose {@link Category} keyword and level the sessions
 * ask for, and when that set changes closes the running stream and starts one with the new set (none when the set
 * is empty). Events JFR recorded in the moment between two streams are not re-emitted.
 *
 * <p>Thread-safe. {@link #close()} is idempotent: it stops the stream and unregisters the provider. Writes never
 * throw; failures are counted ({@link #writeFailures()}).
 */
public final class JfrToEtw implements AutoCloseable {

    private final JfrToEtwConfig config;
    private final EventMapper mapper;
    private volatile EtwProvider provider; // set once, after register() returns
    private final LongAdder written = new LongAdder();
    private final LongAdder writeFailures = new LongAdder();
    private final LongAdder streamErrors = new LongAdder();
    private final Object lock = new Object();
    private RecordingStream stream;
    private Set<String> streaming = Set.of();
    private boolean closed;

    private JfrToEtw(JfrToEtwConfig config, Backend backend) {
        this.config = Objects.requireNonNull(config, "config");
        this.mapper = new EventMapper(config);
        EtwProvider.Builder b = EtwProvider.builder(config.providerName()).onEnable(this::onEnable);
        if (backend != null) {
            b.backend(backend);
        }
        this.provider = b.register();
        reconcile(); // a session may have enabled the provider before it registered
    }

    /** Starts the bridge on the default backend (real ETW on Windows, else the simulated one). */
    public static JfrToEtw start(JfrToEtwConfig config) {
        return new JfrToEtw(config, null);
    }

    /** Starts the bridge on the given backend. */
    public static JfrToEtw start(JfrToEtwConfig config, Backend backend) {
        return new JfrToEtw(config, Objects.requireNonNull(backend, "backend"));
    }

    public JfrToEtwConfig config() {
        return config;
    }

    /** The provider the events are written with. */
    public EtwProvider provider() {
        return provider;
    }

    /** The JFR events currently streamed; empty when no session listens (no JFR recording runs then). */
    public Set<String> streamedEvents() {
        synchronized (lock) {
            return streaming;
        }
    }

    /** Whether a JFR stream runs now. */
    public boolean isStreaming() {
        return !streamedEvents().isEmpty();
    }

    /** ETW events written successfully. */
    public long eventsWritten() {
        return written.sum();
    }

    /** Writes that returned a Win32 error or JFR events that could not be mapped. */
    public long writeFailures() {
        return writeFailures.sum();
    }

    /** Errors the JFR stream reported. */
    public long streamErrors() {
        return streamErrors.sum();
    }

    private void onEnable(EtwProvider p, EnableNotification n) {
        reconcile();
    }

    /** Brings the JFR stream in line with what the sessions enable now. */
    void reconcile() {
        synchronized (lock) {
            if (closed || provider == null) {
                return; // a notification during register(): the constructor reconciles right after it
            }
            Set<String> wanted = new LinkedHashSet<>();
            for (JfrEventSetting s : config.events().values()) {
                if (s.enabled() && provider.isEnabled(s.category().level().value(), s.category().keyword())) {
                    wanted.add(s.name());
                }
            }
            if (wanted.equals(streaming)) {
                return;
            }
            stopStream();
            if (!wanted.isEmpty()) {
                stream = open(wanted);
                streaming = Collections.unmodifiableSet(wanted);
            }
        }
    }

    private RecordingStream open(Set<String> names) {
        RecordingStream rs = new RecordingStream();
        for (String name : names) {
            JfrEventSetting s = config.event(name);
            EventSettings es = rs.enable(name);
            if (s.threshold() != null) {
                es.withThreshold(s.threshold());
            }
            if (s.period() != null) {
                es.withPeriod(s.period());
            }
            if (s.throttle() != null) {
                es.with("throttle", s.throttle());
            }
            if (s.stackTrace()) {
                es.withStackTrace();
            } else {
                es.withoutStackTrace();
            }
            rs.onEvent(name, e -> {
                try {
                    if (mapper.write(provider, e) == 0) {
                        written.increment();
                    } else {
                        writeFailures.increment();
                    }
                } catch (RuntimeException mappingError) {
                    writeFailures.increment(); // never into JFR's dispatch thread
                }
            });
        }
        rs.onError(t -> streamErrors.increment());
        rs.startAsync();
        return rs;
    }

    private void stopStream() {
        if (stream != null) {
            stream.close();
            stream = null;
        }
        streaming = Set.of();
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            stopStream();
        }
        provider.close();
    }

    @Override
    public String toString() {
        return "JfrToEtw[" + config.providerName() + ", streaming=" + streamedEvents() + ", written=" + eventsWritten()
                + ", failures=" + writeFailures() + "]";
    }
}
