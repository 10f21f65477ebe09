/**
 * The java.util.logging bridge: {@link org.etw4j.jul.EtwHandler} writes each log record as a TraceLogging event of
 * an ETW provider.
 *
 * <p>Entry point: {@code handlers = org.etw4j.jul.EtwHandler} with its {@code providerName} in
 * {@code logging.properties}, or the handler's constructors in code. Threading: thread-safe and lock-free; one
 * volatile read when no session listens. It never throws; failures are counted and reported through the
 * handler's {@code ErrorManager}. Close: {@code close()} unregisters the provider; idempotent.
 */
package org.etw4j.jul;
