package org.etw4j.spark;

import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code etl} data source: {@code spark.read.format("etl").load("traces/*.etl")} reads .etl files with
 * etw-consumer's pure-Java reader, one row per record (see {@link EtlColumn} for the schema, {@link EtlOptions}
 * for the options). Registered for its short name through {@code META-INF/services}
 * ({@code org.apache.spark.sql.sources.DataSourceRegister}); the class name works too.
 *
 * <p>Spark makes one instance per use; stateless; thread-safe. The schema is fixed by the options (no file is read
 * to infer it); a user-given schema must be that schema.
 */
public final class EtlDataSource implements TableProvider, DataSourceRegister {

    /** The short name for {@code format(...)}. */
    public static final String SHORT_NAME = "etl";

    @Override
    public String shortName() {
        return SHORT_NAME;
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return EtlSchema.of(EtlOptions.parse(options.asCaseSensitiveMap())).sparkSchema();
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        EtlOptions options = EtlOptions.parse(properties);
        EtlSchema full = EtlSchema.of(options);
        if (schema != null && !schema.equals(full.sparkSchema())) {
            throw new IllegalArgumentException("the etl source has a fixed schema: " + full.sparkSchema().simpleString()
                    + "; given: " + schema.simpleString());
        }
        return new EtlTable(options, full);
    }

    @Override
    public boolean supportsExternalMetadata() {
        return true;
    }
}
