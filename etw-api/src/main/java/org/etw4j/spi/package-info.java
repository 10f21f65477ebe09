/**
 * The backend SPI: the one interface every ETW implementation sits behind (the pure-Java simulator, the FFM
 * Windows backend of native-bindings, the JNA backend), and how the default one is chosen. Exported only to
 * etw4j's own modules (see etw-api's module descriptor): applications see a backend as {@link org.etw4j.Backend}.
 *
 * <p>Entry point: {@link org.etw4j.spi.EtwBackends#getDefault()} (chosen with
 * {@code -Detw4j.backend=simulated|windows-ffm|jna}, else the best one that loads), and
 * {@link org.etw4j.spi.EtwBackends#spi(org.etw4j.Backend)} for a backend an application passed in; backends are
 * found as {@link org.etw4j.spi.EtwBackendFactory} services, .etl writers of file-mode sessions as
 * {@link org.etw4j.spi.LogFileSinkFactory} services.
 *
 * <p>Threading: backends, registrations and sessions are thread-safe. Reuse: a {@code RawEventRecord} handed to a
 * {@link org.etw4j.spi.RecordSink} is valid only during the callback (its memory is ETW's);
 * {@code RawEventRecord.copy()} keeps one. Close: every native handle has one owner whose {@code close()} is
 * idempotent; no exception escapes a callback from native code.
 */
package org.etw4j.spi;
