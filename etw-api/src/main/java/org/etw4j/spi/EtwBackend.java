package org.etw4j.spi;

import java.util.List;
import org.etw4j.Backend;
import org.etw4j.Guid;
import org.etw4j.ThreadActivityIds;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionInfo;

/**
 * One implementation of ETW (the simulated pure-Java engine, the Windows FFM backend, the JNA provider backend): the
 * service-provider side of {@link Backend}, which is all applications see of it. etw4j's own modules implement it
 * and call it; {@link EtwBackends#spi(Backend)} turns a backend an application passed back into this view.
 *
 * <p>Implementations are thread-safe and long-lived (normally one per process, from {@link EtwBackends}).
 * Everything above this interface (providers, sessions, streams) is backend-neutral; the backend contract test
 * suite states every rule once and runs against each implementation. Backends report failures of control
 * operations as {@link org.etw4j.EtwException}; event writes return Win32 status codes and never throw.
 */
public interface EtwBackend extends Backend {

    /**
     * {@code EventRegister}: registers a provider. The backend calls {@code callback} with the current enable
     * state if sessions already enable the provider (with a GUID_NULL source id, MS Learn, PENABLECALLBACK callback function), and on every change.
     */
    ProviderRegistration registerProvider(Guid providerId, EnableCallback callback);

    /** {@code StartTrace} (with the config's IfSessionExists policy applied). */
    SessionControl startSession(SessionConfig config);

    /** A running session by name, to control it without owning it (closing the control does not stop it). */
    SessionControl attachSession(String name);

    /** {@code QueryAllTraces}: the sessions running now. */
    List<SessionInfo> querySessions();

    /** {@code ControlTrace(STOP)} by name, for sessions this process did not start. */
    void stopSession(String name);

    /**
     * {@code OpenTrace} on a real-time session: the returned consumer delivers the session's synthetic header
     * event, then (if it is the first consumer) the events already buffered, then new events (MS Learn, PEVENT_RECORD_CALLBACK callback function).
     */
    TraceConsumer openRealTime(String sessionName, RecordSink sink);

    /** The calling thread's activity id ({@code EventActivityIdControl}). */
    ThreadActivityIds activityIds();

    /**
     * The providers registered on the machine by name, name to GUID, as {@code TdhEnumerateProviders} lists them on
     * Windows (manifest and MOF providers; EventSource and TraceLogging providers are not listed there); what
     * {@link org.etw4j.controller.ProviderResolution} resolves names against first. Empty when the backend cannot
     * tell (the default).
     *
     * @throws org.etw4j.EtwException when the enumeration itself fails
     */
    default java.util.Map<String, org.etw4j.Guid> registeredProviders() {
        return java.util.Map.of();
    }

}
