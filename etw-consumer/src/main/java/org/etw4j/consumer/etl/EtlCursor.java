package org.etw4j.consumer.etl;

import java.util.function.Consumer;

/**
 * A forward-only pass over the records of one or more .etl files, delivered through one reused
 * {@link EtlRecordView} (the JDK Flight Recorder {@code RecordingFile} model with a flyweight).
 *
 * <p>Not thread-safe: one thread advances a cursor. The view returned by {@link #record()} describes the
 * current record only until the next {@link #advance()}; {@link EtlRecordView#copy()} keeps one. A cursor
 * holds no resources of its own; closing its file(s) ends it (further use throws
 * {@link IllegalStateException}). Advancing never allocates per record.
 */
public interface EtlCursor {

    /**
     * Moves to the next record.
     *
     * @return false when there are no more records
     * @throws EtlFormatException in strict mode, at the first malformed buffer or record
     */
    boolean advance();

    /**
     * The current record (always the same view object for a single-file cursor).
     *
     * @throws IllegalStateException before the first and after the last {@link #advance()}
     */
    EtlRecordView record();

    /** Records delivered so far whose timestamp is earlier than the one delivered before them. */
    long outOfOrderCount();

    /**
     * The record accounting so far: records seen in the buffers, returned, and skipped with a warning
     * ({@link EtlRecordCounts}; after the last {@link #advance()} {@code seen == returned + warned}).
     * Counting allocates nothing; this call allocates the returned value.
     */
    EtlRecordCounts recordCounts();

    /** Advances through all remaining records, handing each to {@code action}. */
    default void forEachRemaining(Consumer<? super EtlRecordView> action) {
        while (advance()) {
            action.accept(record());
        }
    }
}
