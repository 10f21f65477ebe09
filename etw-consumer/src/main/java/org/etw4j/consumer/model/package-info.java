/**
 * The trace model: what a kernel trace says about its processes, threads, images, stacks and CPU samples, in the
 * manner of TraceEvent's TraceLog. Entry point {@link org.etw4j.consumer.model.TraceModel#read}.
 */
package org.etw4j.consumer.model;
