package org.etw4j.consumer.internal.decode;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Per-thread heap copies of event payloads for the decoders. Static; thread-safe (one array per thread).
 *
 * <p>Why: the .etl reader hands out read-only views of mapped memory, where every small read pays bounds and
 * liveness checks; one bulk copy to a heap array, read in place, is cheaper than reading the view field by
 * field (measured with {@code EtlScanBenchmark}). Reusing the array per thread keeps that copy from adding the
 * payload's size to every event's allocation. Nothing decoded may keep a reference to the array: decoded
 * strings, binaries and undecoded bytes are copies. A decoder must not start another decode on the same thread
 * while it reads a copy (the built-in ones never do).
 */
final class PayloadScratch {

    /** Payloads above this size get their own array, so an odd huge event does not pin memory per thread. */
    private static final int MAX_KEPT = 1 << 16;
    private static final ThreadLocal<byte[]> ARRAY = ThreadLocal.withInitial(() -> new byte[1024]);

    private PayloadScratch() {
    }

    /**
     * The bytes between {@code src}'s position and limit in this thread's scratch array, as a little-endian heap
     * buffer with position 0 and limit the length; {@code src}'s position is not changed. Valid until the next
     * call on this thread.
     */
    static ByteBuffer copy(ByteBuffer src) {
        int n = src.remaining();
        byte[] a;
        if (n > MAX_KEPT) {
            a = new byte[n];
        } else {
            a = ARRAY.get();
            if (a.length < n) {
                a = new byte[Math.min(MAX_KEPT, Math.max(n, 2 * a.length))];
                ARRAY.set(a);
            }
        }
        src.get(src.position(), a, 0, n);
        return ByteBuffer.wrap(a, 0, n).order(ByteOrder.LITTLE_ENDIAN); // position 0, limit n
    }
}
