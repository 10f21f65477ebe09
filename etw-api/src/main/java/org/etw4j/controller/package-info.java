/**
 * Controlling ETW: trace sessions (real-time or to a file), enabling providers on them with level, keywords,
 * properties and filters, and statistics.
 *
 * <p>Entry point: {@link org.etw4j.controller.TraceSession#start} with a
 * {@link org.etw4j.controller.SessionConfig}, then {@code enable(provider, EnableParameters)}; reading the
 * session's events is etw-consumer's {@code EventStream}. {@link org.etw4j.controller.Sessions} lists running
 * sessions and cleans up stale ones.
 *
 * <p>Threading: sessions are thread-safe; configurations and parameters are immutable values built by builders
 * (a builder is not thread-safe). Close: {@link org.etw4j.controller.TraceSession#close()} stops a session this
 * process started (a shutdown hook stops it at JVM exit otherwise) and is idempotent; an attached session is not
 * stopped by {@code close()}. Failures throw {@link org.etw4j.EtwException} naming the ETW function and status.
 */
package org.etw4j.controller;
