package org.etw4j.opentelemetry;

import io.opentelemetry.api.trace.SpanContext;
import org.etw4j.Guid;

/**
 * Span context to ETW activity id, and timestamps to the text opentelemetry-cpp writes. Stateless, thread-safe.
 *
 * <p><b>Activity id derivation</b> (opentelemetry-cpp {@code etw_tracer.h} at
 * 0089b24ac75a8a23207a27015fa886b405872a61, {@code CopySpanIdToActivityId}): the GUID's 16 bytes in memory
 * (Windows layout) are the 8 span id bytes in their wire order followed by 8 zero bytes. So span id
 * {@code 6b36f25675546f49} becomes activity {@code 56f2366b-5475-496f-0000-000000000000}, the pair that
 * {@code etw_fields.h} at 1209bcc19a8d5828acc7cc0bd163da46631bba9c shows in its sample "Span" event. The trace id
 * is not part of it (span ids are random 64-bit values; the trace id travels in the TraceId field).
 */
final class EtwIds {
    private EtwIds() {
    }

    /** The activity id of a span, or null when the context is invalid (then the thread's id applies). */
    static Guid activityId(SpanContext context) {
        if (context == null || !context.isValid()) {
            return null;
        }
        byte[] windowsBytes = new byte[Guid.BYTES];
        System.arraycopy(context.getSpanIdBytes(), 0, windowsBytes, 0, 8);
        return Guid.readFrom(windowsBytes, 0);
    }

    /** {@code yyyy-MM-ddTHH:mm:ss.SSSZ} in UTC, milliseconds truncated (cpp's {@code formatUtcTimestampMsAsISO8601}). */
    static String isoMillis(long epochNanos) {
        long millis = Math.floorDiv(epochNanos, 1_000_000L);
        return MILLIS.format(java.time.Instant.ofEpochMilli(millis));
    }

    /** {@code yyyy-MM-ddTHH:mm:ss.nnnnnnnnnZ} in UTC, nine fraction digits (log records). */
    static String isoNanos(long epochNanos) {
        return NANOS.format(java.time.Instant.ofEpochSecond(0, epochNanos));
    }

    private static final java.time.format.DateTimeFormatter MILLIS =
            java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(java.time.ZoneOffset.UTC);
    private static final java.time.format.DateTimeFormatter NANOS =
            java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'").withZone(java.time.ZoneOffset.UTC);
}
