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
 * {@code await} it then stays alive until the observer has written the span's event to its file (the batch processor
 * exports within {@code otel.bsp.schedule.delay}, the observer flushes its session after each export), 120 s at most,
 * and says which way the wait ended. It does not rely on the JVM's exit: the agent's SDK shutdown hook and the
 * session's stop hook run concurrently, so an event written at exit may reach a stopped session.
 */
public final class AgentApp {
    private AgentApp() {
    }

    public static void main(String[] args) throws InterruptedException, IOException {
        Tracer tracer = GlobalOpenTelemetry.getTracer("etw4j-agent-test");
        Span span = tracer.spanBuilder("agent-test-span").setAttribute("order.id", 42L).startSpan();
        span.end();
        if (args.length > 0 && args[0].equals("await")) {
            Path events = Path.of(System.getProperty("etw4j.test.events"));
            long start = System.nanoTime();
            long deadline = start + TimeUnit.SECONDS.toNanos(120);
            boolean seen;
            while (!(seen = Files.exists(events) && Files.readString(events).contains("Span "))
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            System.out.println(seen ? "span event seen after " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
                    + " ms" : "no span event within 120 s");
        }
        System.out.println("app done");
    }
}
