package org.etw4j.opentelemetry;

import io.opentelemetry.api.common.Value;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import java.util.Collection;
import org.etw4j.Level;
import org.etw4j.Opcode;
import org.etw4j.provider.EtwProvider;

/**
 * A {@link LogRecordExporter} that writes each log record as the TraceLogging event "Log" of opentelemetry-cpp's
 * ETW schema ({@code etw_logger.h}, {@code Logger::EmitLogRecord}): Name, TraceId and SpanId (when the record has a
 * valid span context), Timestamp (ISO 8601 UTC, nanoseconds), severityText, severityNumber, body, then the
 * attributes. The ETW level follows the severity ({@link #levelOf(Severity)}), so sessions filter logs by level;
 * a record inside a span carries that span's activity id, so WPA shows it within the span's activity.
 * Thread-safe; {@link #shutdown()} is idempotent and releases the {@link EtwTarget}.
 */
public final class EtwLogRecordExporter implements LogRecordExporter {
    private final EtwTarget target;
    private final TargetLease lease;

    private EtwLogRecordExporter(EtwTarget target) {
        this.target = target;
        this.lease = new TargetLease(target);
    }

    /** An exporter over {@code target}. */
    public static EtwLogRecordExporter create(EtwTarget target) {
        return new EtwLogRecordExporter(target);
    }

    /** An exporter over an existing provider, which the caller keeps owning. */
    public static EtwLogRecordExporter create(EtwProvider provider) {
        return new EtwLogRecordExporter(EtwTarget.of(provider));
    }

    /**
     * The ETW level of a severity: TRACE* and DEBUG* VERBOSE (5), INFO* INFORMATIONAL (4), WARN* WARNING (3),
     * ERROR* ERROR (2), FATAL* CRITICAL (1); an undefined severity INFORMATIONAL (not LOG_ALWAYS, which no level
     * filter could remove). Ranges from the OpenTelemetry log data model's SeverityNumber (1-4 TRACE ... 21-24
     * FATAL); opentelemetry-cpp's exporter does not map them (it writes its default level).
     */
    public static Level levelOf(Severity severity) {
        int n = severity.getSeverityNumber();
        if (n == 0) {
            return Level.INFORMATIONAL;
        } else if (n <= 8) {
            return Level.VERBOSE;
        } else if (n <= 12) {
            return Level.INFORMATIONAL;
        } else if (n <= 16) {
            return Level.WARNING;
        } else if (n <= 20) {
            return Level.ERROR;
        }
        return Level.CRITICAL;
    }

    /** The severity text written when the record has none: the SDK name, "INVALID" for 0 (cpp's SeverityNumToText). */
    static String severityText(LogRecordData log) {
        String text = log.getSeverityText();
        if (text != null) {
            return text;
        }
        Severity s = log.getSeverity();
        return s == Severity.UNDEFINED_SEVERITY_NUMBER ? "INVALID" : s.name();
    }

    @Override
    public CompletableResultCode export(Collection<LogRecordData> logs) {
        if (lease.isShutdown()) {
            return CompletableResultCode.ofFailure();
        }
        int status = 0;
        for (LogRecordData log : logs) {
            status = SpanEvents.firstFailure(status, write(log));
        }
        return status == 0 ? CompletableResultCode.ofSuccess() : CompletableResultCode.ofFailure();
    }

    private int write(LogRecordData log) {
        DynamicEvent e = new DynamicEvent(OtelEtwSchema.EVENT_LOG, levelOf(log.getSeverity()).value(),
                Opcode.INFO.value(), target.keyword());
        String name = log.getEventName() != null ? log.getEventName() : log.getInstrumentationScopeInfo().getName();
        e.utf8(OtelEtwSchema.NAME, name);
        SpanContext span = log.getSpanContext();
        if (span.isValid()) {
            e.utf8(OtelEtwSchema.TRACE_ID, span.getTraceId()).utf8(OtelEtwSchema.SPAN_ID, span.getSpanId());
        }
        long nanos = log.getTimestampEpochNanos() != 0 ? log.getTimestampEpochNanos() : log.getObservedTimestampEpochNanos();
        Value<?> body = log.getBodyValue();
        e.utf8(OtelEtwSchema.TIMESTAMP, EtwIds.isoNanos(nanos))
                .utf8(OtelEtwSchema.LOG_SEVERITY_TEXT, severityText(log))
                .uint32(OtelEtwSchema.LOG_SEVERITY_NUMBER, log.getSeverity().getSeverityNumber())
                .utf8(OtelEtwSchema.LOG_BODY, body == null ? "" : body.asString())
                .attributes(log.getAttributes());
        return e.write(target, EtwIds.activityId(span), null);
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return lease.shutdown();
    }

    @Override
    public String toString() {
        return "EtwLogRecordExporter{provider=" + target.provider().name() + "}";
    }
}
