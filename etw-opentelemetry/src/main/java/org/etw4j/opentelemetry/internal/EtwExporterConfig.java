package org.etw4j.opentelemetry.internal;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import org.etw4j.Level;
import org.etw4j.opentelemetry.EtwTarget;
import org.etw4j.opentelemetry.OtelEtwSchema;

/**
 * Reads the {@code otel.exporter.etw.*} properties into an {@link EtwTarget}: autoconfiguration glue, in this
 * unexported package with the providers that use it. Stateless.
 *
 * <ul>
 *   <li>{@code otel.exporter.etw.provider.name}: the TraceLogging provider name (default
 *       {@value OtelEtwSchema#DEFAULT_PROVIDER_NAME})</li>
 *   <li>{@code otel.exporter.etw.keyword}: the keyword of every event, decimal or 0x-hex (default 0)</li>
 *   <li>{@code otel.exporter.etw.span.level}: the level of span events, a {@link Level} name or 0-255 (default
 *       INFORMATIONAL)</li>
 * </ul>
 */
public final class EtwExporterConfig {
    public static final String PROVIDER_NAME = "otel.exporter.etw.provider.name";
    public static final String KEYWORD = "otel.exporter.etw.keyword";
    public static final String SPAN_LEVEL = "otel.exporter.etw.span.level";

    private EtwExporterConfig() {
    }

    /** The target the properties of {@code config} describe. */
    public static EtwTarget target(ConfigProperties config) {
        EtwTarget.Builder b = EtwTarget.builder()
                .providerName(config.getString(PROVIDER_NAME, OtelEtwSchema.DEFAULT_PROVIDER_NAME));
        String keyword = config.getString(KEYWORD);
        if (keyword != null) {
            try {
                b.keyword(keyword.startsWith("0x") || keyword.startsWith("0X")
                        ? Long.parseUnsignedLong(keyword.substring(2), 16) : Long.parseUnsignedLong(keyword));
            } catch (NumberFormatException e) {
                throw new ConfigurationException("Invalid " + KEYWORD + ": " + keyword + " (decimal or 0x-hex)", e);
            }
        }
        String level = config.getString(SPAN_LEVEL);
        if (level != null) {
            b.spanLevel(parseLevel(level));
        }
        return b.build();
    }

    private static Level parseLevel(String text) {
        try {
            return Level.valueOf(text.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException notAName) {
            try {
                return Level.named(Integer.parseInt(text.trim()));
            } catch (RuntimeException e) {
                throw new ConfigurationException("Invalid " + SPAN_LEVEL + ": " + text
                        + " (LOG_ALWAYS, CRITICAL, ERROR, WARNING, INFORMATIONAL, VERBOSE or 0-5)", e);
            }
        }
    }
}
