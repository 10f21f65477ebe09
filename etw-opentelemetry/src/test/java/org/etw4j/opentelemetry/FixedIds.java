package org.etw4j.opentelemetry;

import io.opentelemetry.sdk.trace.IdGenerator;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** Span and trace ids handed out in the order given, so tests can name exact ids. Not thread-safe. */
final class FixedIds implements IdGenerator {
    private final Deque<String> spanIds;
    private final String traceId;

    FixedIds(String traceId, List<String> spanIds) {
        this.traceId = traceId;
        this.spanIds = new ArrayDeque<>(spanIds);
    }

    @Override
    public String generateSpanId() {
        return spanIds.removeFirst();
    }

    @Override
    public String generateTraceId() {
        return traceId;
    }
}
