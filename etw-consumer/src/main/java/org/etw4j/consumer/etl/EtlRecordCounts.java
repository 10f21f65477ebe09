package org.etw4j.consumer.etl;

/**
 * The record accounting of a cursor: every record the reader finds in a buffer is either returned or counted as
 * a warning (with its offset, {@link EtlWarning}); none is dropped silently.
 * Immutable value; thread-safe.
 *
 * <p>Invariant: {@code seen == returned + warned + pending()}, where {@link #pending()} are records already read
 * from their buffer and held by the time-ordered merge (at most one per processor stream of each merged file,
 * {@link EtlFile#merge}); once a cursor has reached its end, pending is 0 and
 * {@code seen == returned + warned}. What a warning skips without a record boundary to count (a bad buffer, the
 * rest of a buffer after a record whose size cannot be trusted, undecodable compressed data, non-padding bytes
 * after the data) is not a record seen: it is one warning with the offset of the skipped bytes.
 *
 * @param seen     record headers the buffer walk reached (a marker that is not end-of-buffer or padding)
 * @param returned records the cursor returned from {@link EtlCursor#advance()}
 * @param warned   records skipped with a {@link EtlWarning.Kind#BAD_RECORD} or
 *                 {@link EtlWarning.Kind#UNSUPPORTED_RECORD} warning (in lenient mode)
 */
public record EtlRecordCounts(long seen, long returned, long warned) {

    /** Records read from their buffers but not returned yet (held by the time-ordered merge). */
    public long pending() {
        return seen - returned - warned;
    }

    /** Sums counts of several cursors. */
    public EtlRecordCounts plus(EtlRecordCounts o) {
        return new EtlRecordCounts(seen + o.seen, returned + o.returned, warned + o.warned);
    }
}
