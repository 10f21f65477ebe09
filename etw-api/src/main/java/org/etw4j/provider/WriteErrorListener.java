package org.etw4j.provider;

import org.etw4j.EventDescriptor;

/**
 * Told about each event write that failed.
 *
 * <p>Called synchronously on the writing thread after the write returned, so it must be quick; exceptions it
 * throws are swallowed (a write never throws into application code, MS Learn, EventWrite function).
 */
@FunctionalInterface
public interface WriteErrorListener {

    /**
     * @param provider   the provider
     * @param descriptor the event that could not be written
     * @param status     the Win32 status (see {@link org.etw4j.Win32Error})
     */
    void onWriteError(EtwProvider provider, EventDescriptor descriptor, int status);
}
