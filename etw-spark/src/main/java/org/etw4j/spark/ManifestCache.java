package org.etw4j.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.etw4j.consumer.decode.ManifestRegistry;
import org.etw4j.consumer.decode.ProviderManifest;

/**
 * Parsed instrumentation manifests, once per path per JVM (an executor runs many tasks; ClrEtwAll.man alone is
 * large). Each task gets a new {@link ManifestRegistry} filled from the cache, because a registry also collects the
 * manifests a trace carries, which must not leak from one trace into another.
 *
 * <p>Thread-safe.
 */
final class ManifestCache {
    private static final ConcurrentHashMap<String, List<ProviderManifest>> PARSED = new ConcurrentHashMap<>();

    private ManifestCache() {
    }

    static ManifestRegistry registry(List<String> manifests) {
        ManifestRegistry r = new ManifestRegistry();
        for (String m : manifests) {
            for (ProviderManifest p : PARSED.computeIfAbsent(m, ManifestCache::parse)) {
                r.register(p);
            }
        }
        return r;
    }

    private static List<ProviderManifest> parse(String path) {
        try {
            return List.copyOf(new ManifestRegistry().register(Paths.get(path)));
        } catch (IOException e) {
            throw new UncheckedIOException("manifest " + path, e);
        }
    }
}
