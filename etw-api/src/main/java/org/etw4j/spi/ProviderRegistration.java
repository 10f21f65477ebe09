package org.etw4j.spi;

import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.provider.EventData;

/**
 * A backend's handle for one registered provider ({@code REGHANDLE}).
 *
 * <p>Thread-safe: many threads write through one registration. {@link #close()} ({@code EventUnregister}) is
 * idempotent and completes before any native callback memory is freed; writes after close return
 * {@code ERROR_INVALID_HANDLE}. Writes return Win32 status codes and never throw.
 *
 * <p>Closing from inside the registration's own {@link EnableCallback} is allowed and never blocks: Windows'
 * {@code EventUnregister} waits for the registration's callbacks in flight, so called there it would wait for
 * itself forever (the hang dotnet/runtime issue 106087 reports for EventSource). Every backend therefore closes
 * such a registration at once (writes return {@code ERROR_INVALID_HANDLE}, no further notification reaches the
 * callback) and completes the unregistration on a background thread once the callback has returned
 * ({@link CloseGate#close(Runnable)}).
 */
public interface ProviderRegistration extends AutoCloseable {

    /** The provider id. */
    Guid providerId();

    /** {@code EventSetInformation}; returns a Win32 status. */
    int setInformation(int informationClass, byte[] data);

    /**
     * {@code EventWriteTransfer}: writes one event.
     *
     * @param descriptor        the event descriptor
     * @param activityId        the activity id, or null for the thread's activity id
     * @param relatedActivityId the related activity id, or null for none
     * @param data              the data blocks (payload, and for TraceLogging the metadata blocks)
     * @return a Win32 status: ERROR_SUCCESS (also when no session records the event), ERROR_INVALID_PARAMETER,
     *         ERROR_INVALID_HANDLE, ERROR_ARITHMETIC_OVERFLOW, ERROR_MORE_DATA, ERROR_NOT_ENOUGH_MEMORY
     */
    int write(EventDescriptor descriptor, Guid activityId, Guid relatedActivityId, EventData data);

    /**
     * {@code EventUnregister}; idempotent. Returns when it has completed, except inside this registration's own
     * enable callback, where it returns at once and completes after the callback (see the class comment).
     */
    @Override
    void close();
}
