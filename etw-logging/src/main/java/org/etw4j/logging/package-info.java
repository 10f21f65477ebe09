/**
 * The core the logging bridges share: log records as TraceLogging events of one provider, in the shape of .NET's
 * Microsoft-Extensions-Logging events.
 *
 * <p>Entry point: {@link org.etw4j.logging.LoggingBridge#open}, which each framework's appender or handler
 * (etw-logback, etw-log4j2, etw-jul) calls with a {@link org.etw4j.logging.LogRecordAccess} for its record type.
 * Applications configure those appenders, not this package.
 *
 * <p>Threading: a bridge is thread-safe and called from every logging thread; {@code isEnabled} is one volatile
 * read. It never throws and never blocks: failures are counted ({@link org.etw4j.logging.BridgeStatistics}) and
 * reported through the {@link org.etw4j.logging.FailureReporter} at the 1st, 10th, 100th, ... occurrence.
 * Reuse: records are read during the call only. Close: {@code LoggingBridge.close()} unregisters the provider;
 * idempotent.
 */
package org.etw4j.logging;
