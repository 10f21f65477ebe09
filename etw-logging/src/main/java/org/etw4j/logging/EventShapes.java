package org.etw4j.logging;

import java.util.List;
import java.util.Set;
import org.etw4j.tracelogging.EventShapeCache;
import org.etw4j.tracelogging.TraceLoggingEvent;

/**
 * The TraceLogging definitions of the bridges' events, one per shape: level, the parts carried (keywords) and the
 * names of the context fields. Definitions are built on first use and kept in etw-api's run-time shape cache
 * ({@link EventShapeCache}, up to {@link #MAX_CACHED} shapes; past that it starts over instead of growing without
 * bound).
 *
 * <p>Thread-safe. Field order follows .NET's {@code FormattedMessage}/{@code Message} events (dotnet/runtime
 * src/libraries/Microsoft.Extensions.Logging.EventSource/src/LoggingEventSource.cs: {@code Level, FactoryID,
 * LoggerName, EventId, EventName}, then {@code FormattedMessage}, or {@code Exception} (struct ExceptionInfo:
 * TypeName, Message, HResult, VerboseMessage, ExceptionInfo.cs) and {@code Arguments} (key/value pairs)), then ours:
 * {@code ThreadName} and the context entries. .NET's trailing {@code ActivityTraceId, ActivitySpanId,
 * ActivityTraceFlags} (System.Diagnostics.Activity) have no JVM equivalent and are left out; the ETW activity id in
 * the event header carries the thread's current {@code ActivityScope}.
 */
final class EventShapes {
    /** Most shapes kept; MDC key sets are usually few. */
    static final int MAX_CACHED = 4096;
    /** Context entries written per event: 128 fields at most per TraceLogging event, less the fixed ones. */
    static final int MAX_CONTEXT_FIELDS = 100;
    /** Names of the fields every shape may have; a context key equal to one of them gets {@link #CONTEXT_PREFIX}. */
    static final Set<String> FIXED_NAMES = Set.of("Level", "FactoryID", "LoggerName", "EventId", "EventName",
            "FormattedMessage", "Exception", "Arguments", "ThreadName");
    /** Prefix of context field names that would otherwise clash with a fixed field or be empty. */
    static final String CONTEXT_PREFIX = "MDC_";

    private final EventShapeCache<String, TraceLoggingEvent> cache = new EventShapeCache<>(MAX_CACHED);

    /** The definition for records of {@code level} carrying {@code parts} and context fields {@code contextNames}. */
    TraceLoggingEvent get(LogLevel level, long parts, List<String> contextNames) {
        return cache.get(key(level, parts, contextNames), k -> build(level, parts, contextNames));
    }

    /** Shapes kept so far. */
    int size() {
        return cache.size();
    }

    /** The field name of context key {@code key}: the key itself unless it is empty or names a fixed field. */
    static String contextFieldName(String key) {
        String k = key == null ? "" : key.replace('\0', '_');
        return k.isEmpty() || FIXED_NAMES.contains(k) || k.startsWith(CONTEXT_PREFIX) ? CONTEXT_PREFIX + k : k;
    }

    private static String key(LogLevel level, long parts, List<String> contextNames) {
        StringBuilder sb = new StringBuilder(32);
        sb.append((char) ('0' + level.ordinal())).append((char) ('@' + parts));
        for (String n : contextNames) {
            sb.append('\0').append(n);
        }
        return sb.toString();
    }

    static TraceLoggingEvent build(LogLevel level, long parts, List<String> contextNames) {
        boolean formatted = (parts & LoggingKeywords.FORMATTED_MESSAGE) != 0;
        // .NET names the event after its content: FormattedMessage (text) or Message (exception and arguments).
        TraceLoggingEvent.Builder b = TraceLoggingEvent.builder(formatted ? "FormattedMessage" : "Message")
                .level(level.etwLevel()).keyword(parts)
                .int32Field("Level").int32Field("FactoryID").stringField("LoggerName")
                .int32Field("EventId").stringField("EventName");
        if (formatted) {
            b.stringField("FormattedMessage");
        }
        if ((parts & LoggingKeywords.EXCEPTION) != 0) {
            b.struct("Exception", 4).stringField("TypeName").stringField("Message").int32Field("HResult")
                    .stringField("VerboseMessage");
        }
        if ((parts & LoggingKeywords.MESSAGE) != 0) {
            b.structArray("Arguments", 2).stringField("Key").stringField("Value");
        }
        b.stringField("ThreadName");
        for (String n : contextNames) {
            b.stringField(n);
        }
        return b.build();
    }
}
