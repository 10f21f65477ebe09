package org.etw4j.opentelemetry;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.traces.ConfigurableSpanExporterProvider;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * Autoconfiguration of {@link EtwSpanExporter}: {@code otel.traces.exporter=etw} (properties in
 * {@link EtwExporterConfig}). Registered in {@code META-INF/services}. Stateless.
 */
public final class EtwSpanExporterProvider implements ConfigurableSpanExporterProvider {
    @Override
    public SpanExporter createExporter(ConfigProperties config) {
        return EtwSpanExporter.create(EtwExporterConfig.target(config));
    }

    @Override
    public String getName() {
        return "etw";
    }
}
