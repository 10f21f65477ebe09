package org.etw4j.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;
import org.etw4j.consumer.etl.EtlFile;

/**
 * One planned read: the files, how they are split, the columns and the pushed filters. Immutable; thread-safe.
 *
 * <p>Planning (driver): a file no larger than {@code splitSize} is one partition without being opened; a larger one
 * is opened (its buffer headers walked, nothing decoded) and cut into runs of whole buffers of about
 * {@code splitSize} bytes. A file that cannot be opened is one partition, whose task then reports it per mode.
 */
final class EtlScan implements Scan, Batch {
    private final EtlOptions options;
    private final EtlSchema schema;
    private final EtlPushdown pushdown;

    EtlScan(EtlOptions options, EtlSchema schema, EtlPushdown pushdown) {
        this.options = options;
        this.schema = schema;
        this.pushdown = pushdown;
    }

    @Override
    public StructType readSchema() {
        return schema.sparkSchema();
    }

    @Override
    public String description() {
        return "EtlScan[files=" + options.paths() + ", splitSize=" + options.splitSize() + ", mode=" + options.mode()
                + ", decode=" + (options.decode() && schema.needsDecoding()) + ", pushed=" + pushdown + "]";
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        List<InputPartition> parts = new ArrayList<>();
        for (Path p : EtlFiles.expand(options.paths(), options.recursive())) {
            split(p, options.splitSize(), parts);
        }
        return parts.toArray(new InputPartition[0]);
    }

    static void split(Path p, long splitSize, List<InputPartition> parts) {
        String path = p.toString();
        long size;
        try {
            size = Files.size(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (size <= splitSize) {
            parts.add(EtlInputPartition.whole(path));
            return;
        }
        long buffers;
        try (EtlFile f = EtlFile.open(p)) {
            buffers = f.bufferCount();
        } catch (IOException | RuntimeException e) {
            parts.add(EtlInputPartition.whole(path));
            return;
        }
        long perSplit = Math.max(1, splitSize / Math.max(1, size / Math.max(1, buffers)));
        int splits = (int) Math.max(1, (buffers + perSplit - 1) / perSplit);
        for (long first = 0; first < buffers; first += perSplit) {
            long end = first + perSplit >= buffers ? Long.MAX_VALUE : first + perSplit;
            parts.add(new EtlInputPartition(path, first, end, splits));
        }
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new EtlReaderFactory(options, schema, pushdown);
    }
}
