/**
 * The pure-Java .etl writer ({@link org.etw4j.consumer.writer.EtlWriter}) and its registration as the simulated
 * backend's log-file sink ({@link org.etw4j.consumer.writer.EtlLogFileSinkFactory}). Windows acceptance of the files
 * (tracerpt, PerfView, WPA) is not verified yet.
 */
package org.etw4j.consumer.writer;
