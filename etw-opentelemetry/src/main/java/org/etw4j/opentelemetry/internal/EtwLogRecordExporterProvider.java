package org.etw4j.opentelemetry.internal;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.logs.ConfigurableLogRecordExporterProvider;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import org.etw4j.opentelemetry.EtwLogRecordExporter;

/**
 * Autoconfiguration of {@link EtwLogRecordExporter}: {@code otel.logs.exporter=etw} (properties in
 * {@link EtwExporterConfig}). Registered in {@code META-INF/services} and the module's {@code provides};
 * in an unexported package, as opentelemetry-java keeps its own exporter providers (the SDK finds them by
 * service loading, applications never name them). Stateless.
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
