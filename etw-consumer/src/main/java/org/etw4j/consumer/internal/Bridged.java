package org.etw4j.consumer.internal;

import java.util.Objects;

/**
 * The one slot of a "shared secrets" bridge (the JDK's pattern, {@code jdk.internal.access.SharedSecrets}): a public
 * class installs, once, what it keeps out of its public API, and the consumer's own packages call it through an
 * {@code ...Access} class. Thread-safe: installed once, read without locking after.
 *
 * @param <T> the bridge's interface
 */
final class Bridged<T> {
    private final String what;
    private volatile T bridge;

    /** An empty slot; {@code what} names the bridge in the error of a second install. */
    Bridged(String what) {
        this.what = what;
    }

    /**
     * Installs the bridge.
     *
     * @throws IllegalStateException when a bridge is installed already
     */
    synchronized void install(T b) {
        if (bridge != null) {
            throw new IllegalStateException("the " + what + " bridge is installed already");
        }
        bridge = Objects.requireNonNull(b, "bridge");
    }

    /** The installed bridge. */
    T get() {
        return bridge;
    }
}
