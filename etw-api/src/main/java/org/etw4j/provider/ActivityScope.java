package org.etw4j.provider;

import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Opcode;
import org.etw4j.ThreadActivityIds;
import org.etw4j.tracelogging.TraceLoggingEvent;

/**
 * An activity between a START and a STOP event (MS Learn, EVENT_DESCRIPTOR structure, member "Opcode"): a new activity id, the
 * start event with the parent as related id, events in between carrying the id, the stop event.
 *
 * <p>Not thread-safe; belongs to the thread that started it, which must also close it (the thread's activity id
 * is per thread). {@link #close()} is idempotent.
 */
public final class ActivityScope implements AutoCloseable {
    private final EtwProvider provider;
    private final EventDescriptor start;
    private final TraceLoggingEvent traceLogging;
    private final Guid activityId;
    private final Guid parent;
    private final int startStatus;
    private boolean closed;

    private ActivityScope(EtwProvider provider, EventDescriptor start, TraceLoggingEvent tl) {
        this.provider = provider;
        this.start = start;
        this.traceLogging = tl;
        ThreadActivityIds ids = provider.activityIds();
        this.activityId = ids.create();
        this.parent = ids.set(activityId);
        this.startStatus = writeWithOpcode(Opcode.START);
    }

    static ActivityScope start(EtwProvider provider, EventDescriptor start, TraceLoggingEvent tl) {
        return new ActivityScope(provider, start, tl);
    }

    /** The activity id of this scope. */
    public Guid activityId() {
        return activityId;
    }

    /** The activity id the thread had before (the related id of the start event). */
    public Guid parentActivityId() {
        return parent;
    }

    /** The status of the start event's write. */
    public int startStatus() {
        return startStatus;
    }

    /** Writes the stop event and restores the thread's previous activity id. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        writeWithOpcode(Opcode.STOP);
        provider.activityIds().set(parent);
    }

    private int writeWithOpcode(Opcode op) {
        EventDescriptor d = start.withOpcode(op.value());
        Guid related = op == Opcode.START && !parent.isNull() ? parent : null;
        if (traceLogging != null) {
            return provider.event(traceLogging).activityId(activityId).relatedActivityId(related).writeWith(d);
        }
        return provider.write(d, activityId, related, null);
    }
}
