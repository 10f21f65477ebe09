package org.etw4j.consumer.etl;

/**
 * What the header of one buffer in the file says, as {@link EtlFile#describeBuffer} read and checked it.
 *
 * <p>Mutable scratch object, reused buffer after buffer by one scanner or stream; not thread-safe.
 */
final class BufferInfo {
    long offset;
    long index;
    /** Distance to the next buffer: the logical buffer size, or the stored size in compressed-mode files. */
    long step;
    /** Bytes of this buffer present in the file (less than {@code step} when the file is cut). */
    int available;
    /**
     * End of valid data, header included, in the (decompressed) buffer: the larger of SavedOffset (0x04) and
     * Offset (0x30) that lies inside the buffer ({@link EtlFile#describeBuffer} says why both are read).
     */
    int dataEnd;
    int flags;
    int type;
    int processor;
    boolean compressed;
    boolean truncated;
    /** Whether the records can be read; false when {@code problem} says why not. */
    boolean usable;
    /** The chain to the next buffer is broken: nothing after this buffer can be located. */
    boolean chainBroken;
    EtlWarning.Kind problemKind;
    String problem;

    void reset(long offset, long index) {
        this.offset = offset;
        this.index = index;
        step = 0;
        available = 0;
        dataEnd = 0;
        flags = 0;
        type = 0;
        processor = 0;
        compressed = false;
        truncated = false;
        usable = false;
        chainBroken = false;
        problemKind = null;
        problem = null;
    }

    void fail(EtlWarning.Kind kind, String why) {
        usable = false;
        problemKind = kind;
        problem = why;
    }
}
