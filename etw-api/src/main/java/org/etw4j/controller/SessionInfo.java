package org.etw4j.controller;

import java.nio.file.Path;
import org.etw4j.Guid;

/**
 * A running session as {@code QueryAllTracesW} lists it.
 *
 * <p>Immutable record; thread-safe.
 *
 * @param name      session name
 * @param sessionId session GUID
 * @param loggerId  the logger id (TRACEHANDLE)
 * @param realTime  whether it delivers real-time
 * @param logFile   its .etl file, or null
 */
public record SessionInfo(String name, Guid sessionId, long loggerId, boolean realTime, Path logFile) {
}
