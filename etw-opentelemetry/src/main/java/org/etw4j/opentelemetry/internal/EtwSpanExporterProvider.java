package org.etw4j.opentelemetry.internal;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.traces.ConfigurableSpanExporterProvider;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.etw4j.opentelemetry.EtwSpanExporter;

/**
 * Autoconfiguration of {@link EtwSpanExporter}: {@code otel.traces.exporter=etw} (properties in
 * {@link EtwExporterConfig}). Registered in {@code META-INF/services} and the module's {@code provides};
 * in an unexported package, as opentelemetry-java keeps its own exporter providers (the SDK finds them by
 * service loading, applications never name them). Stateless.
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
