package org.etw4j.logging;

import java.util.Map;
import java.util.function.BiConsumer;

/**
 * How the bridge core reads one framework's log record: each bridge has one stateless implementation.
 *
 * <p>Implementations must be thread-safe (they are called from every logging thread) and keep no reference to
 * the record after returning: some frameworks reuse record objects. The core calls a method only when a session
 * wants what it returns, so the costly ones ({@link #formattedMessage}, {@link #arguments}) run only then.
 *
 * @param <R> the framework's record type
 */
public interface LogRecordAccess<R> {

    /** The logger (category) name; .NET's {@code LoggerName}. */
    String loggerName(R record);

    /**
     * A name classifying the record, written as .NET's {@code EventName} (markers for SLF4J and Log4j2), or
     * {@code ""}.
     */
    String eventName(R record);

    /** The message with its arguments formatted in, as the framework's own layouts would print it. */
    String formattedMessage(R record);

    /** The message template before formatting (the {@code {OriginalFormat}} argument), or null. */
    String messageFormat(R record);

    /**
     * Passes the record's arguments to {@code out} as key/value pairs in order: positional ones with keys
     * {@code "0"}, {@code "1"}, ... (see {@link #positional}), then named ones (SLF4J key/value pairs).
     */
    void arguments(R record, BiConsumer<String, Object> out);

    /** The throwable logged with the record, or null. */
    Throwable throwable(R record);

    /** The name of the thread that logged the record. */
    String threadName(R record);

    /** The MDC / ThreadContext entries of the record (empty when there are none); not modified by the caller. */
    Map<String, String> context(R record);

    /** Passes positional arguments with keys {@code "0"}, {@code "1"}, ... (none when {@code args} is null). */
    static void positional(Object[] args, int count, BiConsumer<String, Object> out) {
        if (args == null) {
            return;
        }
        int n = Math.min(count, args.length);
        for (int i = 0; i < n; i++) {
            out.accept(Integer.toString(i), args[i]);
        }
    }
}
