package org.etw4j.consumer.model;

/**
 * One thread as the trace's kernel Thread events describe it (Start 1, Stop 2, rundown DCStart 3 / DCStop 4).
 * Immutable value; thread-safe.
 *
 * @param threadId  the thread id
 * @param processId the id of the process it belongs to
 * @param start     FILETIME of its Start event, {@link Long#MIN_VALUE} when it began before the trace (rundown)
 * @param stop      FILETIME of its Stop event, {@link Long#MAX_VALUE} when the trace saw no end
 */
public record TraceThread(int threadId, int processId, long start, long stop) {

    /** Whether the thread existed at {@code time} (FILETIME). */
    public boolean aliveAt(long time) {
        return start <= time && time < stop;
    }
}
