package org.etw4j.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.EnableProperty;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.provider.EnableState;
import org.etw4j.provider.EtwProvider;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 7: provider groups in the simulator. MS Learn, "Provider Traits": a provider joins a group through
 * its group trait (EventSetInformation, EventProviderSetTraits); ENABLE_TRACE_PARAMETERS'
 * EVENT_ENABLE_PROPERTY_PROVIDER_GROUP makes EnableTraceEx2's ProviderId a group, enabling every member with the
 * group's level and keywords.
 */
class ProviderGroupTest {
    private final SimulatedBackend sim = new SimulatedBackend();
    private final Guid group = Guid.of(UUID.randomUUID());

    private EtwProvider member(String name) {
        return EtwProvider.builder(name).group(group).backend(sim).register();
    }

    private EnableParameters groupEnable(Level level, long keywords) {
        return EnableParameters.builder().level(level).matchAnyKeyword(keywords).property(EnableProperty.PROVIDER_GROUP).build();
    }

    @Test
    void enablingAGroupEnablesEveryMemberWithItsLevelAndKeywords() {
        // Failed before: the simulator ignored the group trait and PROVIDER_GROUP, so members stayed disabled.
        try (EtwProvider a = member("etw4j-group-a");
             EtwProvider b = member("etw4j-group-b");
             EtwProvider outsider = EtwProvider.builder("etw4j-group-outsider").backend(sim).register();
             TraceSession s = TraceSession.start(SessionConfig.realTime("group-session").build(), sim)) {
            s.enable(group, groupEnable(Level.WARNING, 0x6).withCallbackWait(java.time.Duration.ofSeconds(10)));
            assertEquals(new EnableState(true, 3, 0x6, 0), a.enableState());
            assertEquals(new EnableState(true, 3, 0x6, 0), b.enableState());
            assertFalse(outsider.isEnabled());
            assertEquals(0, a.write(org.etw4j.EventDescriptor.of(1, Level.ERROR, 0x2), new org.etw4j.provider.EventData()));
            s.disable(group, java.time.Duration.ofSeconds(10));
            assertFalse(a.isEnabled());
            assertFalse(b.isEnabled());
        }
    }

    @Test
    void aMemberRegisteredLaterJoinsAndLeavesWhenTheSessionStops() throws InterruptedException {
        try (TraceSession s = TraceSession.start(SessionConfig.realTime("group-session-2").build(), sim)) {
            s.enable(group, groupEnable(Level.INFORMATIONAL, 0x1));
            try (EtwProvider late = member("etw4j-group-late")) {
                // it joins when its traits name the group (EventSetInformation, after EventRegister): the ENABLE
                // comes on the notification thread; Windows documents no call that waits for it
                assertTrue(sim.awaitEnableCallbacks(java.time.Duration.ofSeconds(10)));
                assertEquals(new EnableState(true, 4, 0x1, 0), late.enableState(), "joined at registration");
                s.stop(); // ControlTrace STOP does not wait: the DISABLE reaches the member on its notification thread
                assertTrue(sim.awaitEnableCallbacks(java.time.Duration.ofSeconds(10)));
                assertFalse(late.isEnabled(), "the session that enabled the group stopped");
            }
        }
    }

    @Test
    void withoutProviderGroupTheGuidIsJustAProvider() {
        try (EtwProvider a = member("etw4j-group-plain");
             TraceSession s = TraceSession.start(SessionConfig.realTime("group-session-3").build(), sim)) {
            s.enable(group, EnableParameters.of(Level.VERBOSE).withCallbackWait(java.time.Duration.ofSeconds(10)));
            assertFalse(a.isEnabled(), "no PROVIDER_GROUP: the group's members are not enabled");
            assertTrue(s.isRunning());
        }
    }
}
