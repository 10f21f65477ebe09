package org.etw4j.consumer.internal;

import org.etw4j.consumer.TraceFile;

/**
 * What {@link TraceFile} keeps out of its public API, for the consumer's own readers outside its package (the trace
 * model): a {@link TraceLearner} that learns its tables in the reader's first pass, so that the model reads a trace
 * through the one reader, twice, as TraceEvent's TraceLog does. The JDK's "shared secrets" pattern, as
 * {@link EventRecordAccess}; set once by {@code TraceFile}'s class initializer.
 *
 * <p>Thread-safe; stateless apart from the bridge.
 */
public final class TraceFileAccess {
    /** The bridge TraceFile implements. */
    public interface Bridge {
        void learnWith(TraceFile in, TraceLearner learner);
    }

    private static final Bridged<Bridge> BRIDGE = new Bridged<>("TraceFile");

    private TraceFileAccess() {
    }

    /**
     * Installs the bridge; called once, by {@code TraceFile}.
     *
     * @throws IllegalStateException when a bridge is installed already
     */
    public static void install(Bridge b) {
        BRIDGE.install(b);
    }

    /**
     * Has {@code learner} learn from {@code in}'s first pass (made by the first {@code hasMoreEvents()}).
     *
     * @throws IllegalStateException when {@code in} makes no first pass of its own (its settings ask for no
     *                               {@code TWO_PASSES} context, or give a learned context) or has started reading
     */
    public static void learnWith(TraceFile in, TraceLearner learner) {
        BRIDGE.get().learnWith(in, learner);
    }
}
