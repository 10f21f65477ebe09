package org.etw4j.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.ServiceConfigurationError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 (Java versions per artifact): a provider compiled for a newer Java than the running one (etw-consumer's
 * .etl writer or the FFM backend on a Java 17 application's class path) is named with the Java it needs, and the
 * other providers still load. The too-new class is a real class file whose major version is raised beyond what any
 * JVM reads, so the JVM itself throws UnsupportedClassVersionError, as it does on Java 17 for a Java 22 class.
 */
class ServiceProvidersTest {
    /** A provider this JVM loads. */
    public static final class Loadable implements Runnable {
        @Override
        public void run() {
        }
    }

    /** The provider made "too new": its bytes are defined with class file version 200 (Java 156). */
    public static final class TooNew implements Runnable {
        @Override
        public void run() {
        }
    }

    /** The provider that fails for another reason (its constructor throws). */
    public static final class Broken implements Runnable {
        public Broken() {
            throw new IllegalStateException("broken provider");
        }

        @Override
        public void run() {
        }
    }

    @Test
    void aProviderForANewerJavaIsNamedWithTheJavaItNeedsAndTheOthersLoad(@TempDir Path dir) throws IOException {
        ClassLoader loader = loaderWith(dir, TooNew.class, Loadable.class);
        ServiceProviders.Loaded<Runnable> loaded = ServiceProviders.load(Runnable.class, loader);
        assertEquals(1, loaded.providers().size());
        assertEquals(Loadable.class.getName(), loaded.providers().get(0).getClass().getName());
        assertEquals(List.of(TooNew.class.getName() + " needs Java 156 or newer; this JVM is Java "
                + Runtime.version().feature()), loaded.tooNew());
    }

    @Test
    void anyOtherProviderFailureIsRethrown(@TempDir Path dir) throws IOException {
        ClassLoader loader = loaderWith(dir, Broken.class);
        assertThrows(ServiceConfigurationError.class, () -> ServiceProviders.load(Runnable.class, loader));
    }

    @Test
    void describesTheJvmsOwnMessage() {
        // the message Java 17 gives for native-bindings' backend (class file version 66 = Java 22)
        String message = "org/etw4j/nativebindings/windows/WindowsBackendFactory has been compiled by a more recent"
                + " version of the Java Runtime (class file version 66.0), this version of the Java Runtime only recognizes"
                + " class file versions up to 61.0";
        assertEquals("org.etw4j.nativebindings.windows.WindowsBackendFactory needs Java 22 or newer; this JVM is Java "
                + Runtime.version().feature(), ServiceProviders.describe(new UnsupportedClassVersionError(message)));
    }

    /** A loader whose META-INF/services/java.lang.Runnable lists {@code providers}; TooNew is defined too new. */
    private static ClassLoader loaderWith(Path dir, Class<?>... providers) throws IOException {
        Path services = dir.resolve("META-INF/services/java.lang.Runnable");
        Files.createDirectories(services.getParent());
        StringBuilder list = new StringBuilder();
        for (Class<?> c : providers) {
            list.append(c.getName()).append('\n');
        }
        Files.writeString(services, list, StandardCharsets.UTF_8);
        URL servicesUrl = services.toUri().toURL();
        return new ClassLoader(ServiceProvidersTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (!name.equals(TooNew.class.getName())) {
                    return super.loadClass(name, resolve);
                }
                synchronized (getClassLoadingLock(name)) {
                    Class<?> done = findLoadedClass(name);
                    if (done != null) {
                        return done;
                    }
                    byte[] bytes = classBytes(TooNew.class);
                    bytes[6] = 0;      // major_version (u2 at offset 6, JVMS 4.1): 200
                    bytes[7] = (byte) 200;
                    return defineClass(name, bytes, 0, bytes.length);
                }
            }

            @Override
            public Enumeration<URL> getResources(String name) throws IOException {
                return name.equals("META-INF/services/java.lang.Runnable")
                        ? Collections.enumeration(List.of(servicesUrl)) : super.getResources(name);
            }
        };
    }

    private static byte[] classBytes(Class<?> c) {
        String resource = c.getName().replace('.', '/') + ".class";
        try (InputStream in = c.getClassLoader().getResourceAsStream(resource)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
