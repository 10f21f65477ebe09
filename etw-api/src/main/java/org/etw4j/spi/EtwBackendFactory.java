package org.etw4j.spi;

/**
 * Creates a backend; found with {@link java.util.ServiceLoader}.
 *
 * <p>Implementations are stateless and thread-safe. {@link EtwBackends} picks the supported factory with the
 * highest priority unless the system property {@code etw4j.backend} names one; on Windows it never picks a
 * {@linkplain #isSimulated() simulated} one unless asked.
 */
public interface EtwBackendFactory {

    /** The name {@code -Detw4j.backend=} selects, e.g. {@code simulated}. */
    String name();

    /** Whether this backend can run here (OS, Java version, native library). */
    boolean isSupported();

    /** Higher wins; the simulated backend is 0, native ones above. */
    int priority();

    /** A new backend instance. */
    EtwBackend create();

    /**
     * Whether this backend simulates ETW instead of reaching the operating system's: on Windows such a backend
     * is used only when named ({@code -Detw4j.backend=simulated}), so events never vanish into it unnoticed.
     */
    default boolean isSimulated() {
        return false;
    }

    /**
     * Why {@link #isSupported()} is false here, in words a user can act on (e.g. "a 32-bit JVM: the bindings are
     * x64"); said in the error {@link EtwBackends} raises on Windows when no real backend can run.
     */
    default String unsupportedReason() {
        return isSupported() ? "supported" : "not supported on this machine";
    }
}
