package org.etw4j.jna.internal;

import java.util.List;
import org.etw4j.Guid;
import org.etw4j.ThreadActivityIds;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionInfo;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.ProviderRegistration;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.SessionControl;
import org.etw4j.spi.TraceConsumer;

/**
 * A backend for the contract suite: providers and activity ids through the {@link JnaEtwBackend} (native path,
 * stand-in library, {@link SimEngine}), sessions and consumers straight on the same {@link SimulatedBackend}
 * the engine routes into. So every provider-side rule is checked through JNA, with the simulator as ETW.
 *
 * <p>Thread-safe (both halves are); test code.
 */
final class JnaProvidersSimulatedSessions implements EtwBackend {
    private final JnaEtwBackend providers;
    private final SimulatedBackend sessions;

    JnaProvidersSimulatedSessions(JnaEtwBackend providers, SimulatedBackend sessions) {
        this.providers = providers;
        this.sessions = sessions;
    }

    JnaEtwBackend providers() {
        return providers;
    }

    SimulatedBackend sessions() {
        return sessions;
    }

    @Override
    public String name() {
        return "jna+simulated";
    }

    @Override
    public boolean isNative() {
        return false;
    }

    @Override
    public ProviderRegistration registerProvider(Guid providerId, EnableCallback callback) {
        return providers.registerProvider(providerId, callback);
    }

    @Override
    public ThreadActivityIds activityIds() {
        return providers.activityIds();
    }

    @Override
    public SessionControl startSession(SessionConfig config) {
        return sessions.startSession(config);
    }

    @Override
    public SessionControl attachSession(String name) {
        return sessions.attachSession(name);
    }

    @Override
    public List<SessionInfo> querySessions() {
        return sessions.querySessions();
    }

    @Override
    public void stopSession(String name) {
        sessions.stopSession(name);
    }

    @Override
    public TraceConsumer openRealTime(String sessionName, RecordSink sink) {
        return sessions.openRealTime(sessionName, sink);
    }
}
