package org.etw4j.spi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.ServiceLoader;
import org.etw4j.Backend;
import org.etw4j.internal.ServiceProviders;

/**
 * Chooses the process-wide default backend: real ETW on Windows, the simulated ETW elsewhere; on Windows the
 * simulated one only when asked.
 *
 * <p>Thread-safe; the choice is made once, on first use, kept, and logged in one line at INFO
 * ({@code System.Logger} {@code org.etw4j.spi.EtwBackends}) saying which backend and why. The system property
 * {@value #PROPERTY} ({@code simulated}, {@code windows-ffm}, {@code jna}, ...) overrides it; an unknown or
 * unsupported name fails with a message listing the available ones. On Windows with no real backend that can
 * run (a 32-bit JVM, Java 17-22 without etw-jna, JNA failing to load) the default is an
 * {@link IllegalStateException}
 * naming each backend and why it cannot run, never a silent fall back to the simulation, where events would
 * vanish without a word. Backends are found only through {@link ServiceLoader} (etw-api provides the simulated
 * one), so this class depends on no implementation.
 */
public final class EtwBackends {
    /** System property naming the backend to use. */
    public static final String PROPERTY = "etw4j.backend";

    private static volatile EtwBackend defaultBackend;

    /** Made on first use, like {@code ManifestCache}'s: one line per process. */
    private static final class Log {
        static final System.Logger LOG = System.getLogger(EtwBackends.class.getName());
    }

    private EtwBackends() {
    }

    /**
     * Which factory the rules chose, and why, in words.
     *
     * @param factory the chosen factory
     * @param reason  why it was chosen, e.g. "asked: -Detw4j.backend=simulated"
     */
    public record Selection(EtwBackendFactory factory, String reason) {
        /** The log line: {@code etw4j backend: NAME (REASON)}. */
        public String describe() {
            return "etw4j backend: " + factory.name() + " (" + reason + ")";
        }
    }

    /**
     * The default backend, chosen on first call.
     *
     * @throws IllegalStateException on Windows when no real backend can run and none was named (see the class
     *                               comment)
     */
    public static EtwBackend getDefault() {
        EtwBackend b = defaultBackend;
        if (b == null) {
            synchronized (EtwBackends.class) {
                b = defaultBackend;
                if (b == null) {
                    Selection s = select(System.getProperty(PROPERTY), factories(), isWindows());
                    b = s.factory().create();
                    Log.LOG.log(System.Logger.Level.INFO, s.describe());
                    defaultBackend = b;
                }
            }
        }
        return b;
    }

    /**
     * The service-provider view of a backend an application passed in ({@code TraceSession.start},
     * {@code EtwProvider.Builder.backend}, ...). Every backend is one: they come from {@link #getDefault()},
     * {@link #choose} or a factory, and implement {@link EtwBackend}.
     *
     * @throws IllegalArgumentException for a {@link Backend} implemented elsewhere, which ETW cannot run on
     */
    public static EtwBackend spi(Backend backend) {
        if (Objects.requireNonNull(backend, "backend") instanceof EtwBackend b) {
            return b;
        }
        throw new IllegalArgumentException(backend.getClass().getName() + " is not an etw4j backend: use"
                + " Backend.getDefault() (or -D" + PROPERTY + "=NAME); new backends implement " + EtwBackend.class.getName());
    }

    /** The factories visible to this class loader, best first. */
    public static List<EtwBackendFactory> factories() {
        List<EtwBackendFactory> list = new ArrayList<>(loadFactories().providers());
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

    /** The backend {@code name} selects, or the default rules' choice when {@code name} is null or empty. */
    public static EtwBackend choose(String name) {
        return select(name, factories(), isWindows()).factory().create();
    }

    /**
     * The selection rules, over given factories (best first) and platform.
     *
     * @throws IllegalArgumentException for an unknown name
     * @throws IllegalStateException    for a named backend that cannot run here, and on Windows when no real
     *                                  backend can run and none was named
     */
    public static Selection select(String name, List<EtwBackendFactory> factories, boolean windows) {
        String os = System.getProperty("os.name") + ", Java " + Runtime.version().feature();
        if (name != null && !name.isBlank()) {
            for (EtwBackendFactory f : factories) {
                if (f.name().equalsIgnoreCase(name.trim())) {
                    if (!f.isSupported()) {
                        throw new IllegalStateException("etw4j backend '" + name + "' is not supported on this machine ("
                                + os + "): " + f.unsupportedReason());
                    }
                    return new Selection(f, "asked: -D" + PROPERTY + "=" + name.trim());
                }
            }
            List<String> tooNew = loadFactories().tooNew();
            throw new IllegalArgumentException("unknown etw4j backend '" + name + "'; available: "
                    + factories.stream().map(EtwBackendFactory::name).toList()
                    + (tooNew.isEmpty() ? "" : "; not loadable on this JVM: " + String.join("; ", tooNew)));
        }
        List<String> refused = new ArrayList<>();
        for (EtwBackendFactory f : factories) {
            if (f.isSimulated() && windows) {
                continue; // on Windows only when named: events written to it reach no ETW session
            }
            if (f.isSupported()) {
                String why = f.isSimulated() ? "not Windows (" + os + "): the simulated ETW"
                        : "the best supported real backend on " + os;
                if (!refused.isEmpty()) {
                    why += "; not " + String.join(", not ", refused);
                }
                return new Selection(f, why);
            }
            refused.add(f.name() + ": " + f.unsupportedReason());
        }
        if (windows) {
            throw new IllegalStateException("no real ETW backend can run in this JVM (" + os + ")"
                    + (refused.isEmpty() ? ": none is on the class path or module path" : ": " + String.join("; ", refused))
                    + ". Use a 64-bit JVM with Java 23+ (native-bindings) or add etw-jna (Java 17+); or name the"
                    + " simulated ETW explicitly with -D" + PROPERTY + "=simulated (its events reach no Windows session)");
        }
        throw new IllegalStateException("no etw4j backend can run here (" + os + "); found: "
                + factories.stream().map(EtwBackendFactory::name).toList());
    }

    static boolean isWindows() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
    }
}
