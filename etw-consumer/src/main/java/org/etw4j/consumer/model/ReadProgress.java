package org.etw4j.consumer.model;

/**
 * How far {@link TraceModel#read(java.util.List, ReadProgress)} is: called on the reading thread, every few thousand
 * records and once at the end of each pass, so an implementation must be cheap and must not block (store the values
 * in volatile fields and let another thread draw, as the CLI's progress line does). Exceptions it throws end the
 * read.
 */
@FunctionalInterface
public interface ReadProgress {

    /** Reports nothing. */
    ReadProgress NONE = (pass, passes, fraction) -> { };

    /**
     * @param pass     the pass now running, 1-based
     * @param passes   the number of passes (2: the model reads the files twice)
     * @param fraction how much of this pass is done, 0 to 1: per file, how far its records' times are through the
     *                 file's time span (records come in time order), weighted by file size
     */
    void update(int pass, int passes, double fraction);

    /** The fraction of the whole read that {@code (pass, passes, fraction)} means, 0 to 1. */
    static double overall(int pass, int passes, double fraction) {
        return passes <= 0 ? 0 : Math.max(0, Math.min(1, (pass - 1 + fraction) / passes));
    }
}
