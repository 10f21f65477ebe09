/**
 * OpenTelemetry to ETW: spans and log records written as TraceLogging events in opentelemetry-cpp's ETW schema
 * ({@link org.etw4j.opentelemetry.OtelEtwSchema}), with ETW activity ids.
 *
 * <p>Entry points: {@link org.etw4j.opentelemetry.EtwSpanExporter}, {@link org.etw4j.opentelemetry.EtwSpanProcessor}
 * (activity START/STOP on the span's own thread) and {@link org.etw4j.opentelemetry.EtwLogRecordExporter}, over
 * one shared {@link org.etw4j.opentelemetry.EtwTarget}; or autoconfiguration ({@code otel.traces.exporter=etw},
 * {@code otel.logs.exporter=etw}), whose providers are internal.
 *
 * <p>Threading: all of them are thread-safe (the SDK may export from several threads). Writes never throw: a
 * failed write fails the export result and is counted. Close: a target built from a provider name owns it and
 * unregisters it when its last exporter or processor shuts down (or on {@code close()}); shutdowns are idempotent.
 */
package org.etw4j.opentelemetry;
