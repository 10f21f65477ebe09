package org.etw4j.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One task's share: the buffers {@code [firstBuffer, endBuffer)} of one file ({@code endBuffer} is
 * {@link Long#MAX_VALUE} for "to the end"). Immutable; serializable.
 *
 * @param path        the file, as a local path
 * @param firstBuffer index of the first buffer
 * @param endBuffer   index after the last buffer
 * @param splits      how many partitions the scan cut this file into (for how long its shared context is kept)
 */
record EtlInputPartition(String path, long firstBuffer, long endBuffer, int splits) implements InputPartition {

    /** The whole file as one partition. */
    static EtlInputPartition whole(String path) {
        return new EtlInputPartition(path, 0, Long.MAX_VALUE, 1);
    }

    /** Whether this partition starts the file (it reports the file-wide problems found when opening it). */
    boolean first() {
        return firstBuffer == 0;
    }

    /** Whether {@code bufferIndex} is this partition's; -1 (file-wide) belongs to the first. */
    boolean owns(long bufferIndex) {
        return bufferIndex < 0 ? first() : bufferIndex >= firstBuffer && bufferIndex < endBuffer;
    }
}
