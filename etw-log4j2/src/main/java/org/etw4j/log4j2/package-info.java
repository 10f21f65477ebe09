/**
 * The Log4j2 bridge: the {@code <Etw>} appender plugin, {@link org.etw4j.log4j2.EtwAppender}, writes each log
 * event as a TraceLogging event of an ETW provider.
 *
 * <p>Entry point: {@code <Etw name="..." providerName="..."/>} in the Log4j2 configuration. Threading: thread-safe
 * and lock-free; one volatile read when no session listens. It never throws into the application (whatever
 * {@code ignoreExceptions} says); failures are counted and reported to the appender's error handler. Close: the
 * provider is registered when the configuration builds the appender and unregistered when it stops.
 */
package org.etw4j.log4j2;
