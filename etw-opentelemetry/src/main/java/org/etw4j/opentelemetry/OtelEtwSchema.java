package org.etw4j.opentelemetry;

/**
 * The event and field names of opentelemetry-cpp's ETW exporter, which this module writes so that agents reading
 * that schema read ours unchanged. Constants only; no state.
 *
 * <p>Source: open-telemetry/opentelemetry-cpp {@code exporters/etw/include/opentelemetry/exporters/etw/etw_fields.h}
 * at commit 1209bcc19a8d5828acc7cc0bd163da46631bba9c (the {@code ETW_FIELD_*} and {@code ETW_VALUE_*} macros), and
 * how {@code etw_tracer.h} at 0089b24ac75a8a23207a27015fa886b405872a61 ({@code Tracer::StartSpan}, {@code EndSpan},
 * {@code AddEvent}, {@code Span::UpdateStatus}) and {@code etw_logger.h} ({@code Logger::EmitLogRecord}) fill them.
 * The names were read there; the code that writes them is ours.
 */
public final class OtelEtwSchema {
    private OtelEtwSchema() {
    }

    /** ETW event name of the complete span record ({@code ETW_VALUE_SPAN}). */
    public static final String EVENT_SPAN = "Span";
    /** ETW event name of a log record ({@code ETW_VALUE_LOG}). */
    public static final String EVENT_LOG = "Log";

    /** Trace id, 32 lowercase hex digits ({@code ETW_FIELD_TRACE_ID}). */
    public static final String TRACE_ID = "TraceId";
    /** Span id, 16 lowercase hex digits ({@code ETW_FIELD_SPAN_ID}). */
    public static final String SPAN_ID = "SpanId";
    /** Parent span id, 16 lowercase hex digits, only when the parent is valid ({@code ETW_FIELD_SPAN_PARENTID}). */
    public static final String PARENT_ID = "ParentId";
    /** Span kind as opentelemetry-cpp's {@code SpanKind} number ({@code ETW_FIELD_SPAN_KIND}). */
    public static final String KIND = "Kind";
    /** Linked span ids, lowercase hex, comma-separated in order ({@code ETW_FIELD_SPAN_LINKS}). */
    public static final String LINKS = "Links";
    /** The span's or log record's name in the payload ({@code ETW_FIELD_PAYLOAD_NAME}). */
    public static final String NAME = "Name";
    /** Span start, ISO 8601 UTC with milliseconds ({@code ETW_FIELD_STARTTIME}). */
    public static final String START_TIME = "StartTime";
    /** Span duration in whole milliseconds, int64 ({@code ETW_FIELD_DURATION}). */
    public static final String DURATION = "Duration";
    /** Status code number: 0 unset, 1 ok, 2 error ({@code ETW_FIELD_STATUSCODE}). */
    public static final String STATUS_CODE = "StatusCode";
    /** Status description ({@code ETW_FIELD_STATUSMESSAGE}). */
    public static final String STATUS_MESSAGE = "StatusMessage";
    /** "True" unless the status is error, then "False" (a string, as {@code Span::UpdateStatus} writes it). */
    public static final String SUCCESS = "Success";
    /** Log record (and, in etw4j only, span event) time, ISO 8601 UTC ({@code ETW_FIELD_TIMESTAMP}). */
    public static final String TIMESTAMP = "Timestamp";
    /** Log body as text ({@code ETW_FIELD_LOG_BODY}). */
    public static final String LOG_BODY = "body";
    /** Severity text ({@code ETW_FIELD_LOG_SEVERITY_TEXT}). */
    public static final String LOG_SEVERITY_TEXT = "severityText";
    /** Severity number 0-24, uint32 ({@code ETW_FIELD_LOG_SEVERITY_NUM}). */
    public static final String LOG_SEVERITY_NUMBER = "severityNumber";

    /** The default provider name, the one opentelemetry-cpp's ETW examples and etw_fields.h's sample show. */
    public static final String DEFAULT_PROVIDER_NAME = "OpenTelemetry-ETW-TLD";

    /** Whether {@code name} is one of the standard fields above (attributes of that name are left out). */
    static boolean isReserved(String name) {
        switch (name) {
            case TRACE_ID, SPAN_ID, PARENT_ID, KIND, LINKS, NAME, START_TIME, DURATION, STATUS_CODE, STATUS_MESSAGE,
                    SUCCESS, TIMESTAMP, LOG_BODY, LOG_SEVERITY_TEXT, LOG_SEVERITY_NUMBER:
                return true;
            default:
                return false;
        }
    }
}
