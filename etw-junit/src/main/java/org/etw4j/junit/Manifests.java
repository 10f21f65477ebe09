package org.etw4j.junit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.etw4j.consumer.EventStream;
import org.etw4j.consumer.ReadSettings;

/** Registers the manifests a capture names on its stream: files, or class path resources. Stateless. */
final class Manifests {
    static final String CLASSPATH = "classpath:";

    private Manifests() {
    }

    /**
     * Registers {@code manifest} on {@code stream}: a file, or the bytes of a class-path resource.
     *
     * @throws UncheckedIOException naming the manifest if it cannot be read or parsed
     */
    static void register(EventStream stream, String manifest) {
        try {
            Object m = read(manifest);
            if (m instanceof Path file) {
                stream.addManifest(file);
            } else {
                stream.addManifest((byte[]) m);
            }
        } catch (IOException e) {
            throw failure(manifest, e);
        }
    }

    /** Adds {@code manifest} to the settings a private-session capture reads its file with. */
    static void addTo(ReadSettings.Builder settings, String manifest) {
        try {
            Object m = read(manifest);
            if (m instanceof Path file) {
                settings.manifest(file);
            } else {
                settings.manifest((byte[]) m);
            }
        } catch (IOException e) {
            throw failure(manifest, e);
        }
    }

    /** The manifest as a file path, or the bytes of its class-path resource. */
    private static Object read(String manifest) throws IOException {
        if (!manifest.startsWith(CLASSPATH)) {
            return Path.of(manifest);
        }
        String resource = manifest.substring(CLASSPATH.length());
        resource = resource.startsWith("/") ? resource.substring(1) : resource;
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try (InputStream in = (loader != null ? loader : Manifests.class.getClassLoader()).getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("no resource " + resource + " on the class path");
            }
            return in.readAllBytes();
        }
    }

    private static UncheckedIOException failure(String manifest, IOException e) {
        return new UncheckedIOException("cannot register the manifest " + manifest + " named by @EtwTest/@EtwCapture: " + e.getMessage(), e);
    }
}
