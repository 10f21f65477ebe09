package org.etw4j.consumer.internal;

import org.etw4j.RawEventRecord;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.consumer.internal.decode.TraceContext;

/**
 * The per-record step of a first pass: the trace context learns from the records that describe the trace, the
 * schemas a trace carries are harvested when asked, and a {@link TraceLearner} learns what it needs, each record
 * decoded at most once for all of them. {@link FilePass#learnContext} runs it over files; the trace model runs it
 * over records from elsewhere (tests' made-up records).
 *
 * <p>Not thread-safe: one thread hands it the records of one trace in time order.
 */
public final class ContextLearning {
    private final TraceContext context = new TraceContext();
    private final EventDecoder decoder;
    private final boolean harvestSchemas;
    private final TraceLearner learner;

    /**
     * A step that decodes with {@code decoder} and, with {@code harvestSchemas}, registers the schemas the trace
     * carries with it (EventSource manifests, TDH metadata events), for a read that starts in the middle of the trace.
     */
    public ContextLearning(EventDecoder decoder, boolean harvestSchemas, TraceLearner learner) {
        this.decoder = decoder;
        this.harvestSchemas = harvestSchemas;
        this.learner = learner;
        learner.begin(context);
    }

    /** A step with a decoder of its own (built-in schemas only), harvesting nothing: records not read from files. */
    public static ContextLearning withOwnDecoder(TraceLearner learner) {
        return new ContextLearning(new EventDecoder(), false, learner);
    }

    /** Learns from {@code r}, the next record of the trace (read during the call only). */
    public void accept(RawEventRecord r) {
        boolean describes = TraceContext.describesTrace(r);
        DecodedEvent e = describes || learner.decodes(r) ? decoder.decode(r) : null;
        if (describes) {
            context.observe(r, e);
        } else if (e == null && harvestSchemas && FilePass.carriesSchemas(r)) {
            decoder.decode(r); // harvests the schema into the registry
        }
        learner.learn(r, e);
    }

    /** What the step has learned so far. */
    public TraceContext context() {
        return context;
    }
}
