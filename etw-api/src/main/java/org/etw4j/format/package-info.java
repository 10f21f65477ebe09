/**
 * ETW's byte formats, written once for every module that reads or writes them: {@code EVENT_HEADER},
 * {@code WMI_BUFFER_HEADER}, trace header kinds, the logfile header layout, primitive readers, filter header
 * chains. Exported only to etw4j's own modules (see etw-api's module descriptor); the values applications meet
 * ({@link org.etw4j.LogfileHeader}, {@link org.etw4j.TimestampConverter}, {@code PayloadBuffer}) live in
 * exported packages.
 *
 * <p>Entry point: none; the layout classes are offsets and flags (constants), the readers static methods, as the
 * Windows SDK headers and MS Learn define them (each class names its source).
 *
 * <p>Threading: stateless and thread-safe; {@link org.etw4j.format.EventHeaderView} is a view over a buffer the
 * caller owns, valid while that buffer is. Nothing here holds a native resource; nothing is closed.
 */
package org.etw4j.format;
