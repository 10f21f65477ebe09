package org.etw4j.consumer;

import java.nio.ByteBuffer;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.consumer.internal.decode.EventView;
import org.etw4j.consumer.internal.decode.TraceContext;
import org.etw4j.tracelogging.TraceLoggingSchema;

/**
 * What a stream's records decode with: the decoder facade of {@code org.etw4j.consumer.internal.decode} (manifests
 * registered on the stream, in-band EventSource manifests, built-in kernel MOF layouts, TraceLogging), whose one
 * TraceLogging schema cache also serves the cheap name lookups that routing needs.
 *
 * <p>Thread-safe (both parts are); shared by a stream's records and their copies.
 */
final class RecordDecoding {
    final EventDecoder decoder;
    /**
     * What the stream's kernel events said so far (processes, threads, volume mapping, file names); fed by the
     * delivery thread in stream order, read by handler threads: guarded by its own monitor.
     */
    private volatile TraceContext context = new TraceContext();
    /** Whether {@link #present} shows events through the context (file names, processes). */
    private volatile boolean presents = true;

    /** With a new decoder (no manifests yet). */
    RecordDecoding() {
        this(new EventDecoder());
    }

    /** With {@code decoder} (a {@link LearnedContext}'s copy of the schemas a first pass harvested). */
    RecordDecoding(EventDecoder decoder) {
        this.decoder = decoder;
    }

    /**
     * Lets the stream's context learn from {@code r} (a process, thread, image, file-name or volume-mapping event);
     * cheap for the others. Called once per record, in stream order, on the delivery thread.
     */
    void observe(RawEventRecord r) {
        TraceContext context = this.context;
        if (context == null) {
            return;
        }
        if (TraceContext.describesTrace(r)) {
            DecodedEvent e = decoder.decode(r);
            synchronized (context) {
                context.observe(r, e);
            }
        }
    }

    /**
     * {@code e} (the decoded form of {@code r}) shown through the context as {@link #present(RawEventRecord,
     * EventView)} shows a view: drive-letter paths, file names of file keys, the process; {@code e} itself without a
     * context.
     */
    DecodedEvent present(RawEventRecord r, DecodedEvent e) {
        TraceContext context = this.context;
        if (context == null || !presents) {
            return e;
        }
        synchronized (context) {
            return context.present(r, e);
        }
    }

    /**
     * Shows {@code view} (the decoded form of {@code r}) through the context: drive-letter paths, file names of file
     * keys, the process (as {@code etw dump} shows events); nothing without a context.
     */
    void present(RawEventRecord r, EventView view) {
        TraceContext context = this.context;
        if (context == null || !presents) {
            return;
        }
        synchronized (context) {
            context.present(r, view);
        }
    }

    /** The context events are presented through, or null when they are not ({@link #present} does nothing). */
    TraceContext presentingContext() {
        return presents ? context : null;
    }

    /** Takes {@code learned}, a first pass's context over the whole trace, instead of learning in stream order. */
    void learned(TraceContext learned) {
        this.context = learned;
    }

    /** Without a context ({@code on} false), events are not attributed to processes at all. */
    void presentWith(boolean on) {
        this.presents = on;
        if (!on) {
            this.context = null;
        }
    }

    /** The parsed TraceLogging schema of a metadata item, or null when it is malformed. */
    TraceLoggingSchema schema(ByteBuffer metadataItem) {
        return decoder.traceLoggingSchema(metadataItem);
    }
}
