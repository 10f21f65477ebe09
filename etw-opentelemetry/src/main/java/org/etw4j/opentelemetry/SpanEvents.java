package org.etw4j.opentelemetry;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.Opcode;

/**
 * Writes a span as the ETW events of opentelemetry-cpp's ETW exporter ({@code etw_tracer.h} at
 * 0089b24ac75a8a23207a27015fa886b405872a61): an activity START event named after the span at its start, an
 * activity STOP event of the same name at its end, one event per span event (named after it), and the "Span"
 * event with the whole record. Every one of them carries the span's activity id ({@link EtwIds}); START and
 * "Span" carry the parent span's as related activity id. Stateless apart from the target; thread-safe.
 */
final class SpanEvents {
    private final EtwTarget target;

    SpanEvents(EtwTarget target) {
        this.target = target;
    }

    /** The activity START event: TraceId, SpanId, ParentId (when valid), Kind, Links (when any), the attributes so far. */
    int writeStart(SpanData span) {
        DynamicEvent e = new DynamicEvent(span.getName(), target.spanLevel(), Opcode.START.value(), target.keyword());
        ids(e, span);
        e.uint32(OtelEtwSchema.KIND, kindNumber(span.getKind()));
        links(e, span.getLinks());
        e.attributes(span.getAttributes());
        return e.write(target, EtwIds.activityId(span.getSpanContext()),
                EtwIds.activityId(span.getParentSpanContext()));
    }

    /** The activity STOP event: TraceId and SpanId. */
    int writeStop(SpanData span) {
        DynamicEvent e = new DynamicEvent(span.getName(), target.spanLevel(), Opcode.STOP.value(), target.keyword());
        e.utf8(OtelEtwSchema.TRACE_ID, span.getTraceId()).utf8(OtelEtwSchema.SPAN_ID, span.getSpanId());
        return e.write(target, EtwIds.activityId(span.getSpanContext()), null);
    }

    /** The span's events, then the "Span" event (the exporter's output); the first failing Win32 status, else 0. */
    int writeEnded(SpanData span) {
        return firstFailure(writeSpanEvents(span), writeSpan(span));
    }

    /**
     * One event per span event, named after it: TraceId, SpanId, Timestamp (etw4j's addition: the event's own time,
     * since the ETW timestamp is the time of the write), the attributes. Returns the first failing status, else 0.
     */
    int writeSpanEvents(SpanData span) {
        int status = 0;
        Guid activity = EtwIds.activityId(span.getSpanContext());
        for (EventData event : span.getEvents()) {
            DynamicEvent e = new DynamicEvent(event.getName(), target.spanLevel(), Opcode.INFO.value(), target.keyword());
            e.utf8(OtelEtwSchema.TRACE_ID, span.getTraceId()).utf8(OtelEtwSchema.SPAN_ID, span.getSpanId())
                    .utf8(OtelEtwSchema.TIMESTAMP, EtwIds.isoNanos(event.getEpochNanos()))
                    .attributes(event.getAttributes());
            status = firstFailure(status, e.write(target, activity, null));
        }
        return status;
    }

    /** The "Span" event: the whole record, with the span's activity id and the parent's as related id. */
    int writeSpan(SpanData span) {
        Guid activity = EtwIds.activityId(span.getSpanContext());
        DynamicEvent e = new DynamicEvent(OtelEtwSchema.EVENT_SPAN, target.spanLevel(), Opcode.INFO.value(), target.keyword());
        e.utf8(OtelEtwSchema.NAME, span.getName());
        ids(e, span);
        e.uint32(OtelEtwSchema.KIND, kindNumber(span.getKind()));
        links(e, span.getLinks());
        long startMs = Math.floorDiv(span.getStartEpochNanos(), 1_000_000L);
        long endMs = Math.floorDiv(span.getEndEpochNanos(), 1_000_000L);
        e.utf8(OtelEtwSchema.START_TIME, EtwIds.isoMillis(span.getStartEpochNanos()))
                .int64(OtelEtwSchema.DURATION, endMs - startMs);
        StatusCode code = span.getStatus().getStatusCode();
        e.utf8(OtelEtwSchema.SUCCESS, code == StatusCode.ERROR ? "False" : "True")
                .uint32(OtelEtwSchema.STATUS_CODE, statusNumber(code))
                .utf8(OtelEtwSchema.STATUS_MESSAGE, span.getStatus().getDescription());
        e.attributes(span.getAttributes());
        return e.write(target, activity, EtwIds.activityId(span.getParentSpanContext()));
    }

    private static void ids(DynamicEvent e, SpanData span) {
        e.utf8(OtelEtwSchema.TRACE_ID, span.getTraceId()).utf8(OtelEtwSchema.SPAN_ID, span.getSpanId());
        SpanContext parent = span.getParentSpanContext();
        if (parent.isValid()) {
            e.utf8(OtelEtwSchema.PARENT_ID, parent.getSpanId());
        }
    }

    /** All linked span ids; opentelemetry-cpp's DecorateLinks at 0089b24 skips the first one (noted in the README). */
    private static void links(DynamicEvent e, List<LinkData> links) {
        if (links.isEmpty()) {
            return;
        }
        StringBuilder sb = new StringBuilder(links.size() * 17);
        for (LinkData link : links) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(link.getSpanContext().getSpanId());
        }
        e.utf8(OtelEtwSchema.LINKS, sb.toString());
    }

    /** opentelemetry-cpp's {@code trace::SpanKind}: kInternal 0, kServer 1, kClient 2, kProducer 3, kConsumer 4. */
    static int kindNumber(SpanKind kind) {
        return switch (kind) {
            case INTERNAL -> 0;
            case SERVER -> 1;
            case CLIENT -> 2;
            case PRODUCER -> 3;
            case CONSUMER -> 4;
        };
    }

    /** opentelemetry-cpp's {@code trace::StatusCode}: kUnset 0, kOk 1, kError 2. */
    static int statusNumber(StatusCode code) {
        return switch (code) {
            case UNSET -> 0;
            case OK -> 1;
            case ERROR -> 2;
        };
    }

    static int firstFailure(int soFar, int status) {
        return soFar != 0 ? soFar : status;
    }
}
