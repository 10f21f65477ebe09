package org.etw4j.junit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.etw4j.consumer.EventStream;

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
            if (!manifest.startsWith(CLASSPATH)) {
                stream.addManifest(Path.of(manifest));
                return;
            }
            String resource = manifest.substring(CLASSPATH.length());
            resource = resource.startsWith("/") ? resource.substring(1) : resource;
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            try (InputStream in = (loader != null ? loader : Manifests.class.getClassLoader()).getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IOException("no resource " + resource + " on the class path");
                }
                stream.addManifest(in.readAllBytes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot register the manifest " + manifest + " named by @EtwTest/@EtwCapture: " + e.getMessage(), e);
        }
    }
}
