package org.etw4j.controller;

/**
 * What starting a session does when a session with the same name is already running
 * ({@code ERROR_ALREADY_EXISTS} from StartTrace).
 *
 * <p>Enum constants: immutable, thread-safe.
 */
public enum IfSessionExists {
    /** Throw an {@link org.etw4j.EtwException} with ERROR_ALREADY_EXISTS (default). */
    FAIL,
    /** Control the running session instead; closing it does not stop it (this process did not start it). */
    ATTACH,
    /**
     * Stop the running session, whoever started it (another application's included), then start a new one. Only
     * ever applied when asked for by name: no etw4j default chooses it, and {@link Sessions#stopStale} does not
     * stop sessions it cannot prove etw4j started.
     */
    REPLACE
}
