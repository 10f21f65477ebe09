package org.etw4j.consumer.internal;

import org.etw4j.RawEventRecord;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.TraceContext;

/**
 * A client's part in a reader's first pass over a trace: what it learns besides the trace context (the trace
 * model's images, threads, stack keys and CLR methods), from the same records in the same pass, decoded by the
 * pass's decoder. A trace is then read twice, as TraceEvent's TraceLog reads it, however many tables its first pass
 * fills; the client does not walk or decode records itself ({@link ContextLearning} does).
 *
 * <p>Called on the reading thread, in time order; {@link #learn}'s record and event are valid during the call only.
 */
public interface TraceLearner {
    /** Learns nothing besides the context. */
    TraceLearner NONE = new TraceLearner() {
    };

    /**
     * Before the first record: the context the pass learns into (complete once the pass has ended), which the
     * reader then presents its events through.
     */
    default void begin(TraceContext context) {
    }

    /** Whether {@link #learn} needs {@code r} decoded: cheap, header only (most records are not). */
    default boolean decodes(RawEventRecord r) {
        return false;
    }

    /**
     * One record of the pass, after the context has learned from it; {@code decoded} is its decoded form when
     * {@link #decodes} asked for it or the context needed it, else null.
     */
    default void learn(RawEventRecord r, DecodedEvent decoded) {
    }

    /** How far the pass is, 0 to 1: every 4096 records, and 1 at its end. */
    default void progress(double fraction) {
    }
}
