package org.etw4j.sim;

import java.util.List;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Win32Error;
import org.etw4j.provider.EventData;
import org.etw4j.provider.FilterData;
import org.etw4j.spi.CloseGate;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.ProviderRegistration;

/**
 * A provider registered with the simulated backend ({@code REGHANDLE}).
 *
 * <p>Thread-safe. Writes route the event to every session whose filter accepts it. Like ETW, the data block
 * types (TraceLogging metadata) are honoured only after {@code EventSetInformation(EventProviderSetTraits)};
 * otherwise every block is payload. {@link #close()} is idempotent and follows the native backends' protocol
 * (a {@link CloseGate}): it waits for notifications of this registration running on other threads; closed from
 * inside its own enable callback it returns at once, the registration closed, and the unregistration (as
 * Windows' EventUnregister, which waits for the callback) completes on the gate's deferred-release thread once
 * the callback has returned.
 */
final class SimRegistration implements ProviderRegistration {
    private final SimulatedBackend backend;
    private final Guid providerId;
    private final EnableCallback callback;
    private final CloseGate gate = new CloseGate();
    /** The backend's entry for this GUID (never replaced): the sessions a write goes to, without a map lookup. */
    final SimulatedBackend.ProviderEntry entry;
    private volatile boolean traitsSet;

    SimRegistration(SimulatedBackend backend, Guid providerId, EnableCallback callback, SimulatedBackend.ProviderEntry entry) {
        this.backend = backend;
        this.providerId = providerId;
        this.callback = callback;
        this.entry = entry;
    }

    @Override
    public Guid providerId() {
        return providerId;
    }

    boolean isClosed() {
        return gate.isClosed();
    }

    /** The registration call has returned (see {@link CloseGate#opened()}). */
    void opened() {
        gate.opened();
    }

    /** One notification, unless the registration is closed; what the callback throws is the caller's to record. */
    void notify(int code, Guid source, int level, long any, long all, List<FilterData> filters) {
        if (!gate.enterNotification()) {
            return;
        }
        try {
            callback.onNotification(code, source, level, any, all, filters);
        } finally {
            gate.exitNotification();
        }
    }

    @Override
    public int setInformation(int informationClass, byte[] data) {
        if (gate.isClosed()) {
            return Win32Error.ERROR_INVALID_HANDLE.code();
        }
        if (informationClass == 2 || informationClass == 3) { // EventProviderSetTraits, EventProviderUseDescriptorType
            traitsSet = true;
            if (informationClass == 2 && data != null) {
                // MS Learn, "Provider Traits": a provider joins a provider group through its group trait
                // (EtwProviderTraitTypeGroup) set with EventSetInformation(EventProviderSetTraits).
                Guid group = null;
                try {
                    group = org.etw4j.tracelogging.ProviderTraits.parse(data).group().orElse(null);
                } catch (RuntimeException malformed) {
                    return Win32Error.ERROR_INVALID_PARAMETER.code();
                }
                backend.joinGroup(this, group);
            }
            return 0;
        }
        return informationClass == 0 ? 0 : Win32Error.ERROR_NOT_SUPPORTED.code();
    }

    @Override
    public int write(EventDescriptor descriptor, Guid activityId, Guid relatedActivityId, EventData data) {
        if (gate.isClosed()) {
            return Win32Error.ERROR_INVALID_HANDLE.code();
        }
        if (descriptor == null || data == null || data.count() > EventData.MAX_BLOCKS) {
            return Win32Error.ERROR_INVALID_PARAMETER.code();
        }
        return backend.write(this, descriptor, activityId, relatedActivityId, data, traitsSet);
    }

    @Override
    public void close() {
        gate.close(() -> backend.unregister(this));
    }
}
