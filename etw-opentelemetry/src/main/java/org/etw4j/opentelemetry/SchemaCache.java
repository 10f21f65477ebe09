package org.etw4j.opentelemetry;

import java.util.concurrent.ConcurrentHashMap;
import org.etw4j.tracelogging.TraceLoggingEvent;

/**
 * TraceLogging event metadata by field list, so spans of the same shape share one {@link TraceLoggingEvent}.
 * Thread-safe. Bounded: past {@link #MAX_ENTRIES} distinct shapes it starts over (a shape is then rebuilt on its
 * next use), so attribute sets that vary without end cannot grow memory without end.
 */
final class SchemaCache {
    static final int MAX_ENTRIES = 1024;
    private final ConcurrentHashMap<String, TraceLoggingEvent> bySignature = new ConcurrentHashMap<>();

    TraceLoggingEvent schemaFor(DynamicEvent event) {
        String key = event.signature();
        TraceLoggingEvent cached = bySignature.get(key);
        if (cached != null) {
            return cached;
        }
        if (bySignature.size() >= MAX_ENTRIES) {
            bySignature.clear();
        }
        TraceLoggingEvent built = event.buildSchema();
        bySignature.putIfAbsent(key, built);
        return built;
    }

    int size() {
        return bySignature.size();
    }
}
