package org.etw4j.spark;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the readers of this JVM did, summed over all scans: files opened, buffers read (accepted by the buffer
 * filter, so loaded and, when compressed, decompressed), records seen, events decoded, context passes run.
 *
 * <p>Thread-safe (adders). In local mode the executors share the driver's JVM, so a test reads the counts of its
 * own query after {@link #reset()}; on a cluster each executor has its own. Diagnostics, not an API contract.
 */
public final class EtlScanCounters {
    static final LongAdder FILES = new LongAdder();
    static final LongAdder BUFFERS = new LongAdder();
    static final LongAdder RECORDS = new LongAdder();
    static final LongAdder DECODED = new LongAdder();
    static final LongAdder CONTEXT_PASSES = new LongAdder();

    private EtlScanCounters() {
    }

    /** Sets every count to zero. */
    public static void reset() {
        FILES.reset();
        BUFFERS.reset();
        RECORDS.reset();
        DECODED.reset();
        CONTEXT_PASSES.reset();
    }

    public static long filesOpened() {
        return FILES.sum();
    }

    public static long buffersRead() {
        return BUFFERS.sum();
    }

    public static long recordsSeen() {
        return RECORDS.sum();
    }

    public static long eventsDecoded() {
        return DECODED.sum();
    }

    public static long contextPasses() {
        return CONTEXT_PASSES.sum();
    }
}
