package org.etw4j.consumer.etl;

/**
 * Receives the {@link EtlWarning}s of a lenient read.
 *
 * <p>Called on the thread that opens the file or advances a cursor, synchronously, once per problem; an
 * exception thrown by the listener propagates to that caller. Implementations need not be thread-safe
 * unless several cursors are used on several threads.
 */
@FunctionalInterface
public interface EtlWarningListener {
    /** Does nothing; warnings are still counted. */
    EtlWarningListener IGNORE = w -> { };

    /** One problem that was stepped over. */
    void onWarning(EtlWarning warning);
}
