/**
 * etw4j OpenTelemetry exporter: span and log record exporters, a span processor for ETW activities, and their
 * autoconfiguration ({@code otel.traces.exporter=etw}, {@code otel.logs.exporter=etw}). The OpenTelemetry jars
 * are automatic modules (their Automatic-Module-Name).
 */
module org.etw4j.opentelemetry {
    requires transitive org.etw4j.api;
    requires transitive io.opentelemetry.api;
    requires transitive io.opentelemetry.context;
    requires transitive io.opentelemetry.sdk.common;
    requires transitive io.opentelemetry.sdk.trace;
    requires transitive io.opentelemetry.sdk.logs;
    requires transitive io.opentelemetry.sdk.autoconfigure.spi;

    exports org.etw4j.opentelemetry;

    provides io.opentelemetry.sdk.autoconfigure.spi.traces.ConfigurableSpanExporterProvider
            with org.etw4j.opentelemetry.internal.EtwSpanExporterProvider;
    provides io.opentelemetry.sdk.autoconfigure.spi.logs.ConfigurableLogRecordExporterProvider
            with org.etw4j.opentelemetry.internal.EtwLogRecordExporterProvider;
}
