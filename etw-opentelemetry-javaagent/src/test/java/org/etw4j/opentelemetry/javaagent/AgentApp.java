package org.etw4j.opentelemetry.javaagent;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The application OtelJavaAgentIT starts under the OpenTelemetry Java agent: it knows only the OpenTelemetry API
 * (the agent supplies the SDK and, through the extension, the ETW exporter) and makes one span; with the argument
 * {@code await} it then waits (60 s at most) until the observer has written the span's event to its file.
 */
public final class AgentApp {
    private AgentApp() {
    }

    public static void main(String[] args) throws InterruptedException, IOException {
        Tracer tracer = GlobalOpenTelemetry.getTracer("etw4j-agent-test");
        Span span = tracer.spanBuilder("agent-test-span").setAttribute("order.id", 42L).startSpan();
        span.end();
        if (args.length > 0 && args[0].equals("await")) {
            // the batch processor exports within otel.bsp.schedule.delay; the observer appends what arrives
            Path events = Path.of(System.getProperty("etw4j.test.events"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!(Files.exists(events) && Files.readString(events).contains("Span ")) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        }
        System.out.println("app done");
    }
}
