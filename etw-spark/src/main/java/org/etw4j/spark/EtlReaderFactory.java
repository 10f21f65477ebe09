package org.etw4j.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** Makes the readers of one scan on the executors. Immutable; serializable; thread-safe. */
final class EtlReaderFactory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;
    private final EtlOptions options;
    private final EtlSchema schema;
    private final EtlPushdown pushdown;

    EtlReaderFactory(EtlOptions options, EtlSchema schema, EtlPushdown pushdown) {
        this.options = options;
        this.schema = schema;
        this.pushdown = pushdown;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        return new EtlPartitionReader((EtlInputPartition) partition, options, schema, pushdown);
    }
}
