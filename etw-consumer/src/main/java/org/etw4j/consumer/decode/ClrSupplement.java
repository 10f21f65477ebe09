package org.etw4j.consumer.decode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.etw4j.Guid;

/**
 * Built-in schemas for CLR events newer than the ClrEtwAll.man in circulation, written by etw4j from the public .NET
 * runtime event documentation (resource {@code clr-supplement.man}; its comment names the pages). The decoder
 * consults it only for an exact (provider, id, version) that the registry's manifests lack, before falling back
 * to an older template.
 *
 * <p>Immutable after class initialization; thread-safe; nothing to close.
 */
final class ClrSupplement {

    private static final String RESOURCE = "clr-supplement.man";
    private static final Map<Guid, ProviderManifest> PROVIDERS = load();

    private ClrSupplement() {
    }

    /** The supplement's schema for exactly {@code (provider, id, version)}, or {@code null}. */
    static EventSchema event(Guid provider, int id, int version) {
        ProviderManifest m = PROVIDERS.get(provider);
        return m == null ? null : m.event(id, version);
    }

    private static Map<Guid, ProviderManifest> load() {
        try (InputStream in = ClrSupplement.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " missing from org.etw4j.consumer.decode");
            }
            List<ProviderManifest> providers = ManifestParser.parse(in, SchemaSource.BUILT_IN);
            Map<Guid, ProviderManifest> m = new HashMap<>();
            providers.forEach(p -> m.put(p.guid(), p));
            return Map.copyOf(m);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse built-in " + RESOURCE, e);
        }
    }
}
