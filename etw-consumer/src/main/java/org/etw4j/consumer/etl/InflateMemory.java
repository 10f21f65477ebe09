package org.etw4j.consumer.etl;

/**
 * What one cursor may spend on decompressed buffers: memory (the arrays its streams hold) and work (the bytes it
 * inflates), so that no file, however many processors, however large a claimed buffer and however well it
 * compresses, can make a reader run out of memory or spin for minutes on a few kilobytes.
 *
 * <p>Not thread-safe; owned by one cursor and its streams (which decode one buffer at a time). The three bounds,
 * each reported as an {@link EtlWarning.Kind#INFLATION_LIMIT} warning by the stream that meets it, never thrown:
 * <ul>
 * <li><b>memory</b>: the arrays of decompressed buffers held at once (all processors together) stay within
 *     {@link #memoryLimitFor a quarter of the heap}, at most {@value #MAX_MEMORY_MIB} MiB; an allocation the JVM
 *     refuses anyway is reported the same way;</li>
 * <li><b>ratio</b>: one buffer is decoded to at most {@value #MAX_RATIO} times its stored compressed bytes.
 *     Event records carry distinct timestamps, sizes and ids and do not compress that far: the corpus' 360
 *     compressed buffers reach 13.6:1 at most (4.7:1 over perfview__net.4.5.2.x64.etl);</li>
 * <li><b>work</b>: a cursor inflates at most {@value #BUDGET_RATIO} times the file's size plus two logical
 *     buffers ({@link #budgetFor}), so a pass over a file costs time in proportion to its size.</li>
 * </ul>
 */
final class InflateMemory {
    /** Most MiB of decompressed buffers one cursor may hold at once, however large the heap. */
    static final int MAX_MEMORY_MIB = 256;
    /** Most bytes one buffer is decoded to, per stored compressed byte. */
    static final int MAX_RATIO = 1024;
    /** Bytes a cursor may inflate per byte of the file (plus two logical buffers). */
    static final int BUDGET_RATIO = 64;
    private static final int GRANULE = 64 << 10;

    private final EtlFile file;
    private final long memoryLimit;
    private final long budget;
    private byte[] scratch = new byte[0];
    private long held;
    private long spent;

    InflateMemory(EtlFile file) {
        this(file, memoryLimitFor(Runtime.getRuntime().maxMemory()), budgetFor(file.size(), file.logicalBufferSize()));
    }

    InflateMemory(EtlFile file, long memoryLimit, long budget) {
        this.file = file;
        this.memoryLimit = memoryLimit;
        this.budget = budget;
    }

    /** The memory bound for a heap of {@code maxHeap} bytes: a quarter of it, at most {@value #MAX_MEMORY_MIB} MiB. */
    static long memoryLimitFor(long maxHeap) {
        return Math.min((long) MAX_MEMORY_MIB << 20, maxHeap / 4);
    }

    /** The work bound for a file of {@code fileSize} bytes. */
    static long budgetFor(long fileSize, int logicalBufferSize) {
        long perFile = fileSize > Long.MAX_VALUE / BUDGET_RATIO ? Long.MAX_VALUE / 2 : fileSize * BUDGET_RATIO;
        return perFile + 2L * logicalBufferSize;
    }

    /** Bytes this cursor may still inflate. */
    long budgetLeft() {
        return Math.max(0, budget - spent);
    }

    /** Bytes of inflation work counted so far (tests and fuzzing check it against {@link #budget()}). */
    long spent() {
        return spent;
    }

    /** The work bound of this cursor. */
    long budget() {
        return budget;
    }

    /** Counts {@code bytes} of inflation work against the budget. */
    void spend(long bytes) {
        spent += bytes;
    }

    /** Why a buffer is cut or skipped when the work budget is spent (for the warning). */
    String budgetSpent() {
        return "the cursor's inflation budget of " + budget + " bytes (" + BUDGET_RATIO + " times the file's "
                + file.size() + " bytes plus two " + file.logicalBufferSize() + "-byte buffers) is spent";
    }

    /** A scratch array of at least {@code size} bytes (contents undefined). */
    byte[] scratch(int size) {
        if (scratch.length < size) {
            scratch = new byte[size];
        }
        return scratch;
    }

    /**
     * An array of at least {@code size} bytes to replace {@code current} (returned as is when big enough), or null
     * when it would take the cursor's decompressed buffers over the memory bound or the JVM cannot allocate it
     * ({@link #refusal} says why).
     */
    byte[] grow(byte[] current, int size) {
        int have = current == null ? 0 : current.length;
        if (have >= size) {
            return current;
        }
        int want = (int) Math.max(size, Math.min(file.logicalBufferSize(), ((long) size + GRANULE - 1) / GRANULE * GRANULE));
        long after = held - have + want;
        if (after > memoryLimit) {
            return null;
        }
        byte[] grown;
        try {
            grown = new byte[want];
        } catch (OutOfMemoryError e) {
            // One large array the heap cannot hold right now: nothing else was half-done, so this is recoverable.
            return null;
        }
        held = after;
        return grown;
    }

    /** Why {@link #grow} refused {@code size} bytes while the stream held {@code current}. */
    String refusal(byte[] current, int size) {
        long after = held - (current == null ? 0 : current.length) + size;
        return after > memoryLimit
                ? "decompressing this buffer would take the cursor's decompressed buffers to " + (after >> 20)
                        + " MiB, over its " + (memoryLimit >> 20) + " MiB bound (a quarter of the heap, at most "
                        + MAX_MEMORY_MIB + " MiB; " + file.processorIndexes().length + " processors)"
                : "the JVM could not allocate " + size + " bytes to decompress this buffer";
    }
}
