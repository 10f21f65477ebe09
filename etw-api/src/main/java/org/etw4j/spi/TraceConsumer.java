package org.etw4j.spi;

/**
 * An opened trace ({@code OpenTrace}) whose events {@link #process()} delivers ({@code ProcessTrace}).
 *
 * <p>{@link #process()} runs on the caller's thread (a dedicated platform thread in practice) and returns when
 * the session stops or {@link #close()} is called from another thread. {@code close()} is idempotent and safe
 * from any thread.
 */
public interface TraceConsumer extends AutoCloseable {

    /** Delivers events to the sink until the trace ends or the consumer is closed. */
    void process();

    /** {@code CloseTrace}; idempotent. */
    @Override
    void close();
}
