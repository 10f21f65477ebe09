package org.etw4j.spark;

import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * Takes the query's filters and needed columns. Not thread-safe (Spark uses one per planning). The pushed filters
 * are applied by the reader and all of them are also handed back to Spark to evaluate after the scan
 * ({@link #pushFilters} returns its input), so the reader may only ever return too many rows, never too few.
 */
final class EtlScanBuilder implements ScanBuilder, SupportsPushDownFilters, SupportsPushDownRequiredColumns {
    private final EtlOptions options;
    private EtlSchema schema;
    private EtlPushdown pushdown = EtlPushdown.none();

    EtlScanBuilder(EtlOptions options, EtlSchema schema) {
        this.options = options;
        this.schema = schema;
    }

    @Override
    public Filter[] pushFilters(Filter[] filters) {
        pushdown = EtlPushdown.of(filters);
        return filters;
    }

    @Override
    public Filter[] pushedFilters() {
        return pushdown.used();
    }

    @Override
    public void pruneColumns(StructType required) {
        schema = schema.prune(required);
    }

    @Override
    public Scan build() {
        return new EtlScan(options, schema, pushdown);
    }
}
