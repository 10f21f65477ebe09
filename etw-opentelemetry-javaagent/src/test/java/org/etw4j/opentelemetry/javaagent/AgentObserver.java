package org.etw4j.opentelemetry.javaagent;

import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizer;
import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizerProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.stream.Collectors;
import org.etw4j.Level;
import org.etw4j.consumer.EventStream;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackends;

/**
 * The observer OtelJavaAgentIT packs beside the extension's classes (same jar, so same class loader and the same
 * simulated ETW): at agent start-up, before any exporter exists, it starts a real-time session enabling the
 * provider named by {@code otel.exporter.etw.provider.name} and appends every event it receives to the file named
 * by {@code etw4j.test.events}, one line each: {@code EVENTNAME name=value ...}.
 *
 * <p>Test code only; the session lives until the JVM exits.
 */
public final class AgentObserver implements AutoConfigurationCustomizerProvider {
    @Override
    public void customize(AutoConfigurationCustomizer customizer) {
        Path out = Path.of(System.getProperty("etw4j.test.events"));
        String provider = System.getProperty("otel.exporter.etw.provider.name");
        EtwBackend backend = EtwBackends.getDefault();
        TraceSession session = TraceSession.start(SessionConfig.realTime("etw4j-agent-observer")
                .flushTimer(Duration.ZERO).build(), backend);
        session.enable(provider, EnableParameters.of(Level.VERBOSE));
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
    }
}
