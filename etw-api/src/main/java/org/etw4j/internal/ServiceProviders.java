package org.etw4j.internal;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads {@link ServiceLoader} providers and tells apart those compiled for a newer Java than the running one (issue
 * 25: etw-api runs on Java 17, but etw-consumer's .etl writer and the FFM backend need Java 22/23; on the class path
 * of a Java 17 application they would surface as a bare {@link UnsupportedClassVersionError}).
 *
 * <p>Stateless; thread-safe. Any other failure of a provider is rethrown as it is.
 */
public final class ServiceProviders {
    private static final Pattern CLASS_FILE_VERSION = Pattern.compile("class file version (\\d+)");

    private ServiceProviders() {
    }

    /**
     * What {@link #load} found: the providers this JVM loads, and one sentence per provider it cannot (too new).
     *
     * @param <S> the service type
     * @param providers loaded providers, in ServiceLoader order
     * @param tooNew one "CLASS needs Java N or newer; this JVM is Java M" per provider compiled for a newer Java
     */
    public record Loaded<S>(List<S> providers, List<String> tooNew) {
        /** Copies the lists. */
        public Loaded {
            providers = List.copyOf(providers);
            tooNew = List.copyOf(tooNew);
        }
    }

    /** Every provider of {@code service} visible to {@code loader}; those compiled for a newer Java are listed apart. */
    public static <S> Loaded<S> load(Class<S> service, ClassLoader loader) {
        List<S> providers = new ArrayList<>();
        List<String> tooNew = new ArrayList<>();
        Iterator<S> it = ServiceLoader.load(service, loader).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                providers.add(it.next());
            } catch (ServiceConfigurationError | UnsupportedClassVersionError e) {
                // ServiceLoader wraps a provider's failure when it instantiates it, not always when it loads its
                // class: both shapes reach here. It then goes on with the next provider.
                UnsupportedClassVersionError version = versionError(e);
                if (version == null) {
                    throw e;
                }
                tooNew.add(describe(version));
            }
        }
        return new Loaded<>(providers, tooNew);
    }

    /**
     * "CLASS needs Java N or newer; this JVM is Java M", from the JVM's message ("... (class file version 66.0),
     * this version of the Java Runtime only recognizes class file versions up to 61.0"); Java N is class file
     * version N + 44 (JVMS 4.1).
     */
    static String describe(UnsupportedClassVersionError e) {
        String message = String.valueOf(e.getMessage());
        String cls = message.split(" ", 2)[0].replace('/', '.');
        Matcher m = CLASS_FILE_VERSION.matcher(message);
        String needs = m.find() ? "Java " + (Integer.parseInt(m.group(1)) - 44) + " or newer" : "a newer Java";
        return cls + " needs " + needs + "; this JVM is Java " + Runtime.version().feature();
    }

    private static UnsupportedClassVersionError versionError(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof UnsupportedClassVersionError v) {
                return v;
            }
        }
        return null;
    }
}
