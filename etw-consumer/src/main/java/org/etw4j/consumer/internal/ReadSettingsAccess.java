package org.etw4j.consumer.internal;

import org.etw4j.consumer.ReadSetupException;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.internal.decode.EventDecoder;

/**
 * What {@link ReadSettings} keeps out of its public API, for the consumer's own readers outside its package (the
 * timeline): a decoder over the settings' manifests, and
 * settings with only the manifests. The JDK's "shared secrets" pattern, as
 * {@link EventRecordAccess}; set once by {@code ReadSettings}' class initializer.
 *
 * <p>Thread-safe; stateless apart from the bridge.
 */
public final class ReadSettingsAccess {
    /** The bridge ReadSettings implements. */
    public interface Bridge {
        EventDecoder decoder(ReadSettings settings) throws ReadSetupException;

        ReadSettings manifestsOnly(ReadSettings settings);
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

    /**
     * {@code settings}' manifests with the defaults for everything else: what a reader takes from settings that only
     * say what to decode with ({@code Timeline.Options.manifests}).
     */
    public static ReadSettings manifestsOnly(ReadSettings settings) {
        return BRIDGE.get().manifestsOnly(settings);
    }
}
