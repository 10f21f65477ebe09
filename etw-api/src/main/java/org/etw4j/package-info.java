/**
 * etw4j's values and the few types every layer shares: {@link org.etw4j.Guid}, {@link org.etw4j.EventDescriptor},
 * {@link org.etw4j.Level}, {@link org.etw4j.Opcode}, {@link org.etw4j.Keywords}, {@link org.etw4j.ActivityId},
 * the typed error {@link org.etw4j.EtwException} with its {@link org.etw4j.Win32Error} codes; the
 * {@link org.etw4j.Backend} providers and sessions run on and its {@link org.etw4j.ThreadActivityIds}; one event
 * as ETW delivers it ({@link org.etw4j.RawEventRecord}, kept as a {@link org.etw4j.RecordSnapshot}); a trace's
 * {@link org.etw4j.LogfileHeader} and clock ({@link org.etw4j.TimestampConverter}).
 *
 * <p>Entry point: {@link org.etw4j.Backend#getDefault()} when an application passes a backend along; otherwise
 * none of its own: these are the values the provider, TraceLogging, controller and consumer APIs take and return.
 *
 * <p>Threading and reuse: the values (records and enums) are immutable, thread-safe, freely shared and kept; a
 * {@code Backend} is thread-safe and lives as long as the JVM. The exception is {@code RawEventRecord}, a view:
 * valid only during the callback or read step that hands it out (its memory is reused), not thread-safe;
 * {@link org.etw4j.RawEventRecord#copy()} keeps one. Nothing here holds a native resource, so nothing is closed.
 */
package org.etw4j;
