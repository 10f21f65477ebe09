package org.etw4j.provider;

import java.util.Map;

/**
 * A provider's write counters at one moment.
 *
 * <p>Immutable record; thread-safe.
 *
 * @param writes           write calls that reached the backend (the provider was enabled for the event)
 * @param skipped          write calls skipped because no session wanted the event
 * @param failures         writes that returned a status other than ERROR_SUCCESS
 * @param failuresByStatus failures per Win32 status code
 * @param listenerErrors   exceptions thrown by enable or error listeners (caught)
 */
public record ProviderStatistics(long writes, long skipped, long failures, Map<Integer, Long> failuresByStatus,
                                 long listenerErrors) {
    public ProviderStatistics {
        failuresByStatus = Map.copyOf(failuresByStatus);
    }

    /** Failures with {@code status}. */
    public long failures(int status) {
        return failuresByStatus.getOrDefault(status, 0L);
    }
}
