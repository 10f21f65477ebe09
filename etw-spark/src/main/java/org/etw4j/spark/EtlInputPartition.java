package org.etw4j.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One task's share: the buffers {@code [firstBuffer, endBuffer)} of one file ({@code endBuffer} is
 * {@link Long#MAX_VALUE} for "to the end"). Immutable; serializable.
 *
 * @param path        the file, as a local path
 * @param firstBuffer index of the first buffer
 * @param endBuffer   index after the last buffer
 */
record EtlInputPartition(String path, long firstBuffer, long endBuffer) implements InputPartition {

    /** Whether this partition starts the file (it reports the file-wide problems found when opening it). */
    boolean first() {
        return firstBuffer == 0;
    }

    /** Whether {@code bufferIndex} is this partition's; -1 (file-wide) belongs to the first. */
    boolean owns(long bufferIndex) {
        return bufferIndex < 0 ? first() : bufferIndex >= firstBuffer && bufferIndex < endBuffer;
    }
}
