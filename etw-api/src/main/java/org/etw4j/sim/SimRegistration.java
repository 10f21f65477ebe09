package org.etw4j.sim;

import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Win32Error;
import org.etw4j.provider.EventData;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.ProviderRegistration;

/**
 * A provider registered with the simulated backend ({@code REGHANDLE}).
 *
 * <p>Thread-safe. Writes route the event to every session whose filter accepts it. Like ETW, the data block
 * types (TraceLogging metadata) are honoured only after {@code EventSetInformation(EventProviderSetTraits)};
 * otherwise every block is payload. {@link #close()} is idempotent.
 */
final class SimRegistration implements ProviderRegistration {
    private final SimulatedBackend backend;
    private final Guid providerId;
    final EnableCallback callback;
    private volatile boolean closed;
    private volatile boolean traitsSet;

    SimRegistration(SimulatedBackend backend, Guid providerId, EnableCallback callback) {
        this.backend = backend;
        this.providerId = providerId;
        this.callback = callback;
    }

    @Override
    public Guid providerId() {
        return providerId;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public int setInformation(int informationClass, byte[] data) {
        if (closed) {
            return Win32Error.ERROR_INVALID_HANDLE.code();
        }
        if (informationClass == 2 || informationClass == 3) { // EventProviderSetTraits, EventProviderUseDescriptorType
            traitsSet = true;
            return 0;
        }
        return informationClass == 0 ? 0 : Win32Error.ERROR_NOT_SUPPORTED.code();
    }

    @Override
    public int write(EventDescriptor descriptor, Guid activityId, Guid relatedActivityId, EventData data) {
        if (closed) {
            return Win32Error.ERROR_INVALID_HANDLE.code();
        }
        if (descriptor == null || data == null || data.count() > EventData.MAX_BLOCKS) {
            return Win32Error.ERROR_INVALID_PARAMETER.code();
        }
        return backend.write(this, descriptor, activityId, relatedActivityId, data, traitsSet);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            backend.unregister(this);
        }
    }
}
