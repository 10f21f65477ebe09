package org.etw4j.consumer.etl;

/**
 * The memory one cursor spends on decompressed buffers: a shared scratch array for the compressed bytes
 * and an upper bound on the arrays its streams hold, so that no file (however many processors or however
 * large a claimed buffer) can make a reader run out of memory.
 *
 * <p>Not thread-safe; owned by one cursor and its streams (which decode one buffer at a time).
 */
final class InflateMemory {
    /** Most bytes of decompressed buffers one cursor may hold at once (all processors together). */
    static final long LIMIT = 256L << 20;
    private static final int GRANULE = 64 << 10;

    private final EtlFile file;
    private byte[] scratch = new byte[0];
    private long held;

    InflateMemory(EtlFile file) {
        this.file = file;
    }

    /** A scratch array of at least {@code size} bytes (contents undefined). */
    byte[] scratch(int size) {
        if (scratch.length < size) {
            scratch = new byte[size];
        }
        return scratch;
    }

    /**
     * An array of at least {@code size} bytes to replace {@code current} (returned as is when big enough).
     *
     * @throws EtlFormatException when the cursor's decompressed buffers would exceed {@link #LIMIT}
     */
    byte[] grow(byte[] current, int size, long bufferOffset, long bufferIndex) {
        int have = current == null ? 0 : current.length;
        if (have >= size) {
            return current;
        }
        int want = (int) Math.min(file.logicalBufferSize(), ((long) size + GRANULE - 1) / GRANULE * GRANULE);
        long after = held - have + want;
        if (after > LIMIT) {
            throw new EtlFormatException(file.name(), "decompressing this buffer would take the reader's decompressed"
                    + " buffers to " + (after >> 20) + " MiB, over its " + (LIMIT >> 20) + " MiB limit (one buffer of "
                    + file.logicalBufferSize() + " bytes per processor, " + file.processorIndexes().length
                    + " processors)", bufferOffset, bufferIndex);
        }
        held = after;
        return new byte[want];
    }
}
