package org.etw4j.controller;

import java.util.ArrayList;
import java.util.List;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackends;

/**
 * Lists running sessions and cleans up stale ones left behind by crashed processes.
 *
 * <p>Stateless; thread-safe.
 */
public final class Sessions {
    private Sessions() {
    }

    /** The sessions running now on the default backend. */
    public static List<SessionInfo> list() {
        return EtwBackends.getDefault().querySessions();
    }

    /**
     * Stops every session of {@code backend} whose name starts with {@code prefix}; returns the names stopped.
     * Use a prefix unique to your application (e.g. {@code "myapp-"}).
     */
    public static List<String> stopStale(EtwBackend backend, String prefix) {
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("stopStale needs a non-empty name prefix (refusing to stop every session)");
        }
        List<String> stopped = new ArrayList<>();
        for (SessionInfo s : backend.querySessions()) {
            if (s.name().startsWith(prefix)) {
                backend.stopSession(s.name());
                stopped.add(s.name());
            }
        }
        return stopped;
    }
}
