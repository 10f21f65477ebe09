/**
 * Implementation of the consumer's read pipeline shared by its public entry points and by sibling etw4j modules
 * (the one file pass, {@link org.etw4j.consumer.internal.FilePass}). Not application API: not exported (Spark and
 * the benchmarks reach it on the class path); it changes without notice.
 */
package org.etw4j.consumer.internal;
