package org.etw4j.spi;

/**
 * An opened trace ({@code OpenTrace}) whose events {@link #process()} delivers ({@code ProcessTrace}).
 *
 * <p>{@link #process()} runs on the caller's thread (a dedicated platform thread in practice) and returns when
 * the session stops or after {@link #close()}. {@code close()} is idempotent and safe from any thread, the
 * consumer's own callbacks included.
 *
 * <p>Close while {@code process()} runs is {@code CloseTrace} returning ERROR_CTX_CLOSE_PENDING (MS Learn,
 * CloseTrace function: "The ProcessTrace function will stop after it has processed all real-time events in its
 * buffers (it will not receive any new events)"): the records of buffers already delivered to this consumer still
 * reach the sink, then {@code process()} returns; events the session still holds in buffers it had not delivered
 * are never delivered, and backends that can count them say so through {@link RecordSink#onUndelivered}. To
 * receive every event, stop the session first (see {@link SessionControl#stop()}) and let {@code process()} end
 * by itself.
 */
public interface TraceConsumer extends AutoCloseable {

    /** Delivers events to the sink until the trace ends or the consumer is closed. */
    void process();

    /** {@code CloseTrace}; idempotent; does not wait for {@link #process()} to return. */
    @Override
    void close();
}
