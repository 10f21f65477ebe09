package org.etw4j.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;
import org.etw4j.Guid;
import org.etw4j.controller.SessionInfo;
import org.etw4j.controller.Sessions;
import org.junit.jupiter.api.Test;

/** Issue 21, item 9: session GUIDs that prove which etw4j process started a session. */
class SessionIdsTest {
    @Test
    void aSessionIdNamesThisProcessAndOnlyForItsName() {
        Guid id = SessionIds.newSessionId("myapp-trace");
        SessionIds.Owner owner = SessionIds.owner("myapp-trace", id).orElseThrow();
        assertEquals(ProcessHandle.current().pid(), owner.pid());
        assertTrue(owner.isAlive());
        assertEquals(Optional.empty(), SessionIds.owner("myapp-trace2", id), "the name is part of the proof");
        assertEquals(Optional.empty(), SessionIds.owner("myapp-trace", Guid.of(UUID.randomUUID())), "another application's");
        assertNotEquals(id, SessionIds.newSessionId("myapp-trace"), "a sequence tells sessions of one name apart");
    }

    @Test
    void onlyASessionOfAnEndedEtw4jProcessIsStale() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
                .redirectErrorStream(true).start();
        child.getInputStream().readAllBytes();
        child.waitFor();
        int low20 = child.info().startInstant().map(i -> (int) (i.toEpochMilli() & 0xF_FFFF)).orElse(0);
        Guid ofEndedProcess = SessionIds.forOwner("myapp-x", new SessionIds.Owner(child.pid(), low20), 0);
        assertFalse(SessionIds.owner("myapp-x", ofEndedProcess).orElseThrow().isAlive());
        assertTrue(Sessions.isStale(new SessionInfo("myapp-x", ofEndedProcess, 1, true, null)));
        assertFalse(Sessions.isStale(new SessionInfo("myapp-x", SessionIds.newSessionId("myapp-x"), 1, true, null)),
                "this process runs");
        assertFalse(Sessions.isStale(new SessionInfo("myapp-x", Guid.of(UUID.randomUUID()), 1, true, null)),
                "not provably etw4j's: another application's session is never stale");
        int myStart = SessionIds.owner("myapp-x", SessionIds.newSessionId("myapp-x")).orElseThrow().startMillisLow20();
        Guid reusedPid = SessionIds.forOwner("myapp-x",
                new SessionIds.Owner(ProcessHandle.current().pid(), (myStart + 1) & 0xF_FFFF), 0);
        assertTrue(Sessions.isStale(new SessionInfo("myapp-x", reusedPid, 1, true, null)),
                "a live process with the pid but another start time is not the owner");
    }
}
