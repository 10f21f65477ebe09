package org.etw4j;

import org.etw4j.spi.EtwBackends;

/**
 * The ETW implementation providers and sessions run on: Windows' own ETW (the FFM backend of etw-native-bindings on
 * Java 23+, or etw-jna's provider-only backend on Java 17+) or etw4j's pure-Java simulated ETW, which has the same
 * semantics and runs anywhere.
 *
 * <p>Entry point: {@link #getDefault()}, the backend every provider and session uses unless given another
 * ({@code EtwProvider.Builder.backend}, {@code TraceSession.start(config, backend)}): real ETW on Windows, the
 * simulated ETW elsewhere, or the one the system property {@code etw4j.backend} names ({@code simulated},
 * {@code windows-ffm}, {@code jna}). Applications only pass a backend along and ask what it is; what a backend
 * does is etw-api's service-provider interface, implemented by etw4j's own modules (found with
 * {@link java.util.ServiceLoader}), not application API.
 *
 * <p>Threading: thread-safe. Reuse: long-lived, normally one per process. Close: nothing to close; a backend lives
 * as long as the JVM.
 */
public interface Backend {

    /** A short name, e.g. {@code simulated}, {@code windows-ffm} or {@code jna}. */
    String name();

    /** Whether this backend talks to the real ETW of the operating system. */
    boolean isNative();

    /** Whether this backend can start and control sessions (the JNA backend only emits events). */
    default boolean supportsControl() {
        return true;
    }

    /**
     * The process-wide default backend, chosen on first call and kept; the choice is logged in one line
     * ({@code System.Logger} {@code org.etw4j.spi.EtwBackends}) saying which backend and why.
     *
     * @throws IllegalStateException on Windows when no real backend can run in this JVM and none was named: etw4j
     *                               never falls back to the simulation there silently, where events would reach no
     *                               session
     * @throws IllegalArgumentException when {@code -Detw4j.backend} names an unknown backend
     */
    static Backend getDefault() {
        return EtwBackends.getDefault();
    }
}
