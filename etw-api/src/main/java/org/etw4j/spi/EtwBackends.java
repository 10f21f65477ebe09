package org.etw4j.spi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.etw4j.internal.ServiceProviders;
import org.etw4j.sim.SimulatedBackend;

/**
 * Chooses the process-wide default backend: real ETW on Windows, the simulated ETW elsewhere.
 *
 * <p>Thread-safe; the choice is made once, on first use, and kept. The system property {@code etw4j.backend}
 * ({@code simulated}, {@code windows-ffm}, {@code jna}, ...) overrides it; an unknown or unsupported name fails
 * with a message listing the available ones.
 */
public final class EtwBackends {
    /** System property naming the backend to use. */
    public static final String PROPERTY = "etw4j.backend";

    private static volatile EtwBackend defaultBackend;

    private EtwBackends() {
    }

    /** The default backend, chosen on first call. */
    public static EtwBackend getDefault() {
        EtwBackend b = defaultBackend;
        if (b == null) {
            synchronized (EtwBackends.class) {
                b = defaultBackend;
                if (b == null) {
                    b = choose(System.getProperty(PROPERTY));
                    defaultBackend = b;
                }
            }
        }
        return b;
    }

    /** The factories visible to this class loader, best first. */
    public static List<EtwBackendFactory> factories() {
        List<EtwBackendFactory> list = new ArrayList<>(loadFactories().providers());
        if (list.stream().noneMatch(f -> f.name().equals(SimulatedBackend.NAME))) {
            list.add(new SimulatedBackend.Factory());
        }
        list.sort(Comparator.comparingInt(EtwBackendFactory::priority).reversed());
        return list;
    }

    /**
     * The factories on the class path; the FFM backend (etw-native-bindings, Java 23+) on a Java 17 application's
     * class path is listed apart instead of failing every other backend with UnsupportedClassVersionError.
     */
    private static ServiceProviders.Loaded<EtwBackendFactory> loadFactories() {
        return ServiceProviders.load(EtwBackendFactory.class, EtwBackends.class.getClassLoader());
    }

    /** The backend {@code name} selects, or the best supported one when {@code name} is null or empty. */
    public static EtwBackend choose(String name) {
        List<EtwBackendFactory> all = factories();
        if (name != null && !name.isBlank()) {
            for (EtwBackendFactory f : all) {
                if (f.name().equalsIgnoreCase(name.trim())) {
                    if (!f.isSupported()) {
                        throw new IllegalStateException("etw4j backend '" + name + "' is not supported on this machine ("
                                + System.getProperty("os.name") + ", Java " + Runtime.version().feature() + ")");
                    }
                    return f.create();
                }
            }
            List<String> tooNew = loadFactories().tooNew();
            throw new IllegalArgumentException("unknown etw4j backend '" + name + "'; available: "
                    + all.stream().map(EtwBackendFactory::name).toList()
                    + (tooNew.isEmpty() ? "" : "; not loadable on this JVM: " + String.join("; ", tooNew)));
        }
        for (EtwBackendFactory f : all) {
            if (f.isSupported()) {
                return f.create();
            }
        }
        return SimulatedBackend.shared();
    }
}
