package org.etw4j.consumer.internal;

import org.etw4j.consumer.ReadSetupException;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.internal.decode.EventDecoder;

/**
 * What {@link ReadSettings} keeps out of its public API, for the consumer's own readers outside its package (the
 * timeline's writing pass): a decoder over the settings' manifests. The JDK's "shared secrets" pattern, as
 * {@link EventRecordAccess}; set once by {@code ReadSettings}' class initializer.
 *
 * <p>Thread-safe; stateless apart from the bridge.
 */
public final class ReadSettingsAccess {
    /** The bridge ReadSettings implements. */
    public interface Bridge {
        EventDecoder decoder(ReadSettings settings) throws ReadSetupException;
    }

    private static final Bridged<Bridge> BRIDGE = new Bridged<>("ReadSettings");

    private ReadSettingsAccess() {
    }

    /**
     * Installs the bridge; called once, by {@code ReadSettings}.
     *
     * @throws IllegalStateException when a bridge is installed already
     */
    public static void install(Bridge b) {
        BRIDGE.install(b);
    }

    /**
     * A new decoder with {@code settings}' manifests registered, in the order they were given.
     *
     * @throws ReadSetupException naming the manifest that cannot be read or parsed
     */
    public static EventDecoder decoder(ReadSettings settings) throws ReadSetupException {
        return BRIDGE.get().decoder(settings);
    }
}
