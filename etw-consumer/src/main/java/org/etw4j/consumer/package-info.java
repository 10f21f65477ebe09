/**
 * Event streams in the manner of JDK Flight Recorder's {@code jdk.jfr.consumer}: {@link org.etw4j.consumer.EventStream}
 * (live real-time sessions or .etl files) delivering {@link org.etw4j.consumer.EventRecord}s (header facts, extended
 * data, raw payload, decoded fields), with a declared back-pressure policy and loss accounting.
 */
package org.etw4j.consumer;
