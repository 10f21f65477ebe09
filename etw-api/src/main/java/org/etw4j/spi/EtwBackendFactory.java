package org.etw4j.spi;

/**
 * Creates a backend; found with {@link java.util.ServiceLoader}.
 *
 * <p>Implementations are stateless and thread-safe. {@link EtwBackends} picks the supported factory with the
 * highest priority unless the system property {@code etw4j.backend} names one.
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
}
