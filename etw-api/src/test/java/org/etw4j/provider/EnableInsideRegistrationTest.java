package org.etw4j.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionInfo;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.ProviderRegistration;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.SessionControl;
import org.etw4j.ThreadActivityIds;
import org.etw4j.spi.TraceConsumer;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 5: when a session already enables a provider, Windows calls its enable callback from inside
 * EventRegister (what issue 21's review reports; seed 000 only says ETW calls the callback on every configuration
 * change), before {@link EtwProvider} has its registration or has set its TraceLogging traits. Listeners must see
 * the provider only once both are done.
 */
class EnableInsideRegistrationTest {
    /**
     * A backend whose registerProvider behaves as Windows' EventRegister does when a session already enables the
     * provider: it calls the enable callback before returning, and then (to make the race deterministic) lingers
     * until the provider's listener has run or a second has passed. Everything else goes to a simulated backend.
     */
    private static class CallsBackInsideRegister implements EtwBackend {
        final SimulatedBackend sim = new SimulatedBackend();
        final List<String> calls = new CopyOnWriteArrayList<>();
        final CountDownLatch listenerRan = new CountDownLatch(1);

        @Override
        public ProviderRegistration registerProvider(Guid providerId, EnableCallback callback) {
            ProviderRegistration inner = sim.registerProvider(providerId, callback);
            callback.onNotification(1, Guid.NULL, Level.VERBOSE.value(), -1L, 0L, List.of());
            try {
                listenerRan.await(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new ProviderRegistration() {
                @Override
                public Guid providerId() {
                    return inner.providerId();
                }

                @Override
                public int setInformation(int informationClass, byte[] data) {
                    calls.add("EventSetInformation " + informationClass);
                    return inner.setInformation(informationClass, data);
                }

                @Override
                public int write(EventDescriptor d, Guid activityId, Guid related, EventData data) {
                    calls.add("EventWrite " + d.id());
                    return inner.write(d, activityId, related, data);
                }

                @Override
                public void close() {
                    inner.close();
                }
            };
        }

        @Override
        public String name() {
            return "calls-back-inside-register";
        }

        @Override
        public boolean isNative() {
            return false;
        }

        @Override
        public SessionControl startSession(SessionConfig config) {
            return sim.startSession(config);
        }

        @Override
        public SessionControl attachSession(String name) {
            return sim.attachSession(name);
        }

        @Override
        public List<SessionInfo> querySessions() {
            return sim.querySessions();
        }

        @Override
        public void stopSession(String name) {
            sim.stopSession(name);
        }

        @Override
        public TraceConsumer openRealTime(String sessionName, RecordSink sink) {
            return sim.openRealTime(sessionName, sink);
        }

        @Override
        public ThreadActivityIds activityIds() {
            return sim.activityIds();
        }
    }

    @Test
    void aListenerThatWritesOnEnableSeesARegisteredProviderWithItsTraits() throws Exception {
        // Failed before: the listener ran while registerProvider had not returned; its write() threw a
        // NullPointerException (no registration yet), counted as a write and a listener error, and the event
        // would have preceded EventSetInformation(EventProviderSetTraits).
        CallsBackInsideRegister backend = new CallsBackInsideRegister();
        List<Object> outcomes = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        try (EtwProvider p = EtwProvider.builder("etw4j-enable-inside-register").backend(backend).onEnable((pr, n) -> {
            try {
                outcomes.add(pr.write(EventDescriptor.of(9, Level.INFORMATIONAL, 0x1), new EventData()));
            } catch (RuntimeException e) {
                outcomes.add(e);
            } finally {
                backend.listenerRan.countDown();
                done.countDown();
            }
        }).register()) {
            assertTrue(done.await(10, TimeUnit.SECONDS), "the listener was told");
            assertEquals(List.of(0), outcomes, "the listener's write succeeded");
            assertEquals(List.of("EventSetInformation " + EtwProvider.EVENT_PROVIDER_SET_TRAITS, "EventWrite 9"),
                    backend.calls, "traits before the first event");
            ProviderStatistics st = p.statistics();
            assertEquals(0, st.failures());
            assertEquals(0, st.listenerErrors());
            assertTrue(p.isEnabled(), "the state published inside registration holds");
        }
    }

    @Test
    void aRegistrationThatFailsTellsNoListener() throws Exception {
        CountDownLatch told = new CountDownLatch(1);
        EtwBackend failing = new CallsBackInsideRegister() {
            @Override
            public ProviderRegistration registerProvider(Guid providerId, EnableCallback callback) {
                callback.onNotification(1, Guid.NULL, Level.VERBOSE.value(), -1L, 0L, List.of());
                throw new org.etw4j.EtwException("EventRegister", 8, null);
            }
        };
        try {
            EtwProvider.builder("etw4j-register-fails").backend(failing).onEnable((pr, n) -> told.countDown()).register();
        } catch (org.etw4j.EtwException expected) {
            assertEquals(8, expected.status());
        }
        assertTrue(!told.await(300, TimeUnit.MILLISECONDS), "no listener saw a provider that never registered");
    }
}
