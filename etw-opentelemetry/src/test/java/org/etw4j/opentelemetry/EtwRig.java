package org.etw4j.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.EventStream;
import org.etw4j.consumer.EventField;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.Backend;

/**
 * A real-time session on a simulated backend and a live stream that keeps a copy of every event of one provider.
 * Not thread-safe apart from the event list; {@link #stopAndCollect()} once.
 */
final class EtwRig implements AutoCloseable {
    final Backend backend;
    final TraceSession session;
    private final EventStream stream;
    private final List<EventRecord> events = Collections.synchronizedList(new ArrayList<>());

    EtwRig(Backend backend, String providerName, Level level) {
        this.backend = backend;
        this.session = TraceSession.start(SessionConfig.realTime("otel-" + UUID.randomUUID()).flushTimer(Duration.ZERO)
                .build(), backend);
        session.enable(providerName, EnableParameters.of(level).withCallbackWait(java.time.Duration.ofSeconds(10))); // tests write right after
        stream = EventStream.openSession(session.name(), backend);
        stream.onEvent(e -> {
            if (e.isTraceLogging()) {
                events.add(e.copy());
            }
        });
        stream.startAsync();
    }

    /** Stops the session and returns the provider's TraceLogging events in delivery order. */
    List<EventRecord> stopAndCollect() throws InterruptedException {
        session.stop();
        assertTrue(stream.awaitTermination(Duration.ofSeconds(10)), "stream ended");
        assertEquals(0, stream.statistics().handlerErrors());
        assertEquals(0, session.statistics().eventsLost());
        return new ArrayList<>(events);
    }

    /** The decoded fields in wire order, name to value. */
    static Map<String, Object> fields(EventRecord e) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (EventField f : e.getFields()) {
            assertTrue(!f.hasError(), () -> "field " + f);
            m.put(f.name(), f.value());
        }
        return m;
    }

    /** Exactly these fields with these values, in this order (Map.equals alone ignores the order). */
    static void assertFields(Map<String, Object> expected, EventRecord e) {
        Map<String, Object> actual = fields(e);
        assertEquals(expected, actual, e.eventName());
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(actual.keySet()), e.eventName() + ": field order");
    }

    @Override
    public void close() {
        stream.close();
        session.close();
    }
}
