package org.etw4j.junit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.etw4j.consumer.EventStream;

/** Registers the manifests a capture names on its stream: files, or class path resources. Stateless. */
final class Manifests {
    static final String CLASSPATH = "classpath:";

    private Manifests() {
    }

    /**
     * Registers {@code manifest} on {@code stream}. {@link EventStream#addManifest} reads a file, so a resource is
     * copied to a temporary file, deleted right after.
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
            Path tmp = Files.createTempFile("etw4j-junit", ".man");
            try (InputStream in = (loader != null ? loader : Manifests.class.getClassLoader()).getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IOException("no resource " + resource + " on the class path");
                }
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                stream.addManifest(tmp);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot register the manifest " + manifest + " named by @EtwTest/@EtwCapture: " + e.getMessage(), e);
        }
    }
}
