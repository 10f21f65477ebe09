package org.etw4j.spark;

import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The .etl files one {@code load(...)} names, as a batch-readable table. Immutable; thread-safe.
 */
final class EtlTable implements SupportsRead {
    private final EtlOptions options;
    private final EtlSchema schema;

    EtlTable(EtlOptions options, EtlSchema schema) {
        this.options = options;
        this.schema = schema;
    }

    @Override
    public String name() {
        return "etl " + options.paths();
    }

    @Override
    public StructType schema() {
        return schema.sparkSchema();
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap ignored) {
        return new EtlScanBuilder(options, schema);
    }
}
