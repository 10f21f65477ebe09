/**
 * The Logback bridge: {@link org.etw4j.logback.EtwAppender} writes each logging event as a TraceLogging event of an
 * ETW provider.
 *
 * <p>Entry point: the appender, declared in {@code logback.xml} with its {@code providerName}. Threading: an
 * unsynchronized appender, thread-safe and lock-free on the logging path; one volatile read when no session
 * listens. It never throws into the application; failures are counted and reported to Logback's status manager.
 * Close: {@code start()} registers the provider and {@code stop()} unregisters it, as Logback's life cycle
 * calls them.
 */
package org.etw4j.logback;
