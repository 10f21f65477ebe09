package org.etw4j.controller;

import java.util.ArrayList;
import java.util.List;
import org.etw4j.Backend;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackends;
import org.etw4j.spi.SessionIds;

/**
 * Lists running sessions and cleans up stale ones that etw4j processes which ended (crashed, killed) left behind.
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
     * Stops the stale sessions of {@code backend} whose name starts with {@code prefix}: those this library can
     * prove it started (the session GUID etw4j gives every session it starts names the
     * owner process) in a process that no longer runs. Another application's session, one of an etw4j process
     * still running (this one included) and one started before etw4j marked its sessions are left alone; stopping
     * them is {@link IfSessionExists#REPLACE}'s job, asked for by name. Returns the names stopped. Use a prefix
     * unique to your application (e.g. {@code "myapp-"}).
     */
    public static List<String> stopStale(Backend backend, String prefix) {
        EtwBackend spi = EtwBackends.spi(backend);
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("stopStale needs a non-empty name prefix (refusing to stop every session)");
        }
        List<String> stopped = new ArrayList<>();
        for (SessionInfo s : spi.querySessions()) {
            if (s.name().startsWith(prefix) && isStale(s)) {
                spi.stopSession(s.name());
                stopped.add(s.name());
            }
        }
        return stopped;
    }

    /** Whether {@code s} was started by etw4j (its GUID proves it) in a process that has ended. */
    public static boolean isStale(SessionInfo s) {
        return SessionIds.owner(s.name(), s.sessionId()).map(o -> !o.isAlive()).orElse(false);
    }
}
