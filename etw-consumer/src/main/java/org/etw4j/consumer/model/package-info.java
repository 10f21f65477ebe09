/**
 * The trace model: what a kernel trace says about its processes, threads, images, stacks and CPU samples, in the
 * manner of TraceEvent's TraceLog, and the pictures made from it.
 *
 * <p>Entry points: {@link org.etw4j.consumer.model.TraceModel#read(java.nio.file.Path)} reads one or more files (two
 * passes, through the consumer's one file pass) into a model; {@link org.etw4j.consumer.model.CpuProfile} counts its
 * CPU samples per stack; {@link org.etw4j.consumer.model.Timeline#write} draws a trace as a Trace Event Format
 * timeline; {@link org.etw4j.consumer.model.ReadProgress} hears how far a read is.
 *
 * <p>Threading: reading runs on the calling thread (progress is reported on it); a model, its processes, threads,
 * images, methods, stacks and profiles are immutable once read and thread-safe for reading.
 *
 * <p>Reuse: nothing is reused between reads; every read builds its own model. Memory is per process, thread, image,
 * method and distinct stack, never per event (see {@code TraceModel}).
 *
 * <p>Close: nothing to close; a read opened from paths closes its files before returning, and one given
 * {@link org.etw4j.consumer.etl.EtlFile}s leaves them to the caller.
 */
package org.etw4j.consumer.model;
