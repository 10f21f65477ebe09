/**
 * JFR to ETW: the JVM's own Flight Recorder events re-emitted as TraceLogging events of a provider (default
 * {@code Java-Runtime}) while an ETW session enables it; no JFR recording runs while nobody listens.
 *
 * <p>Entry points: {@link org.etw4j.jfr.JfrToEtw#start} with a {@link org.etw4j.jfr.JfrToEtwConfig} (a library),
 * or {@link org.etw4j.jfr.JfrAgent} ({@code -javaagent}). Threading: {@code JfrToEtw} is thread-safe; enable
 * notifications restart its JFR stream on the provider's notification thread. Writes never throw; failures are
 * counted. Close: {@code JfrToEtw.close()} stops the stream and unregisters the provider; idempotent.
 * Configurations are immutable values.
 */
package org.etw4j.jfr;
