package org.etw4j.consumer;

/**
 * One process instance of a trace and when it ran: what the trace model lists per process (a reused process id
 * gives one instance each time). Immutable value; thread-safe.
 *
 * @param process what the trace says about it
 * @param start   FILETIME of its Start event, {@link Long#MIN_VALUE} when it began before the trace
 * @param stop    FILETIME of its Stop (or Defunct) event, {@link Long#MAX_VALUE} when the trace saw no end
 */
public record ProcessLifetime(ProcessInfo process, long start, long stop) {
}
