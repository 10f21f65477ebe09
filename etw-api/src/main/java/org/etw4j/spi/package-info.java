/**
 * The backend SPI: the one interface every ETW implementation sits behind (the pure-Java simulator, the FFM
 * Windows backend of native-bindings, the JNA backend), and the record view consumers read.
 *
 * <p>Entry point for applications: {@link org.etw4j.spi.EtwBackends#getDefault()} (chosen with
 * {@code -Detw4j.backend=simulated|windows-ffm|jna}, else the best one that loads); backends are found as
 * {@link org.etw4j.spi.EtwBackendFactory} services. Applications meet {@link org.etw4j.spi.EtwBackend},
 * {@link org.etw4j.ThreadActivityIds} and {@link org.etw4j.RawEventRecord} through the provider and
 * consumer APIs; the other types are for backend implementers.
 *
 * <p>Threading: backends, registrations and sessions are thread-safe. Reuse: a {@code RawEventRecord} handed to a
 * {@link org.etw4j.spi.RecordSink} is valid only during the callback (its memory is ETW's);
 * {@link org.etw4j.RawEventRecord#copy()} (a {@link org.etw4j.RecordSnapshot}) keeps one. Close: every
 * native handle has one owner whose {@code close()} is idempotent; no exception escapes a callback from native
 * code.
 */
package org.etw4j.spi;
import org.etw4j.RawEventRecord;
import org.etw4j.RecordSnapshot;
import org.etw4j.ThreadActivityIds;
