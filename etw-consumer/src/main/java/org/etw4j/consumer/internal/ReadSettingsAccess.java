package org.etw4j.consumer.internal;

import org.etw4j.consumer.ReadSettings;

/**
 * What {@link ReadSettings} keeps out of its public API, for the consumer's own readers outside its package (the
 * timeline, whose options take settings for their manifests only): settings with only the manifests. The JDK's
 * "shared secrets" pattern, as {@link EventRecordAccess}; set once by {@code ReadSettings}' class initializer.
 *
 * <p>Thread-safe; stateless apart from the bridge.
 */
public final class ReadSettingsAccess {
    /** The bridge ReadSettings implements. */
    public interface Bridge {
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
     * {@code settings}' manifests with the defaults for everything else: what a reader takes from settings that only
     * say what to decode with ({@code Timeline.Options.manifests}).
     */
    public static ReadSettings manifestsOnly(ReadSettings settings) {
        return BRIDGE.get().manifestsOnly(settings);
    }
}
