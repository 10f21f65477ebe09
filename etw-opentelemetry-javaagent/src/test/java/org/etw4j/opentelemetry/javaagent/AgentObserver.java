package org.etw4j.opentelemetry.javaagent;

import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizer;
import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizerProvider;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Collection;
import java.util.stream.Collectors;
import org.etw4j.Backend;
import org.etw4j.Level;
import org.etw4j.consumer.EventStream;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;

/**
 * The observer OtelJavaAgentIT packs beside the extension's classes (same jar, so same class loader and the same
 * simulated ETW): at agent start-up, before any exporter exists, it starts a real-time session enabling the
 * provider named by {@code otel.exporter.etw.provider.name} and appends every event it receives to the file named
 * by {@code etw4j.test.events}, one line each: {@code EVENTNAME name=value ...}.
 *
 * <p>The hand-off is made deterministic rather than timed: every span exporter the SDK configures (the ETW one) is
 * wrapped so that once it has written a batch, the session is flushed ({@link TraceSession#flush()}: the partially
 * filled buffer goes to the consumer now, as ControlTrace FLUSH does). Without it the span's event waited in the
 * session's buffer: a real-time session with a zero flush timer delivers a buffer only when it is full or flushed
 * (MS Learn, EVENT_TRACE_PROPERTIES FlushTimer), and only the first consumer's attach flushed what was written
 * before it; so the test passed when the export came before the stream attached and failed when the machine was
 * loaded enough to reverse that order (only the session header arrived). The session also has a 1 s flush timer
 * (ETW's smallest), the way a real consumer would run it.
 *
 * <p>Test code only; the session lives until the JVM exits.
 */
public final class AgentObserver implements AutoConfigurationCustomizerProvider {
    @Override
    public void customize(AutoConfigurationCustomizer customizer) {
        Path out = Path.of(System.getProperty("etw4j.test.events"));
        String provider = System.getProperty("otel.exporter.etw.provider.name");
        Backend backend = Backend.getDefault();
        TraceSession session = TraceSession.start(SessionConfig.realTime("etw4j-agent-observer")
                .flushTimer(Duration.ofSeconds(1)).build(), backend);
        session.enable(provider, EnableParameters.of(Level.VERBOSE).withCallbackWait(java.time.Duration.ofSeconds(10)));
        EventStream stream = EventStream.openSession(session.name(), backend);
        stream.onEvent(e -> {
            String line = e.eventName() + " " + e.getFields().stream()
                    .map(f -> f.name() + "=" + f.value()).collect(Collectors.joining(" ")) + "\n";
            try {
                Files.writeString(out, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            } catch (IOException x) {
                throw new UncheckedIOException(x);
            }
        });
        stream.startAsync();
        customizer.addSpanExporterCustomizer((exporter, config) -> new FlushingExporter(exporter, session));
    }

    /** A span exporter that flushes the observer's session after its delegate has written a batch. */
    private record FlushingExporter(SpanExporter delegate, TraceSession session) implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            CompletableResultCode result = delegate.export(spans);
            result.whenComplete(session::flush);
            return result;
        }

        @Override
        public CompletableResultCode flush() {
            return delegate.flush();
        }

        @Override
        public CompletableResultCode shutdown() {
            return delegate.shutdown();
        }
    }
}
