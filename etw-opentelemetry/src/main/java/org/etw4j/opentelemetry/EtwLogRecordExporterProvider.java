package org.etw4j.opentelemetry;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.logs.ConfigurableLogRecordExporterProvider;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;

/**
 * Autoconfiguration of {@link EtwLogRecordExporter}: {@code otel.logs.exporter=etw} (properties in
 * {@link EtwExporterConfig}). Registered in {@code META-INF/services}. Stateless.
 */
public final class EtwLogRecordExporterProvider implements ConfigurableLogRecordExporterProvider {
    @Override
    public LogRecordExporter createExporter(ConfigProperties config) {
        return EtwLogRecordExporter.create(EtwExporterConfig.target(config));
    }

    @Override
    public String getName() {
        return "etw";
    }
}
