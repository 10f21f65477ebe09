package org.etw4j.consumer.internal.decode;

import java.util.List;
import org.etw4j.consumer.internal.schema.SchemaQuery;

/**
 * The registry's manifests (registered by the application, or harvested from EventSource manifests in the trace),
 * keyed by (provider, id, version): exact matches only; {@link ClrSupplementSchemas} and
 * {@link OlderManifestVersions} come next for what they lack.
 * Thread-safe (manifests are immutable; the answer cache holds immutable entries, so threads may race on a slot).
 */
final class RegisteredManifests extends RegistrySchemas {

    RegisteredManifests(ManifestRegistry registry) {
        super(registry, Reads.EVENT_HEADERS);
    }

    @Override
    public boolean resolve(SchemaQuery q) {
        ProviderManifest m = q.manifest(registry);
        if (m == null) {
            return false;
        }
        int id = q.record().id();
        int version = q.record().version();
        EventSchema s = event(m, id, version);
        if (s != null) {
            return q.found(s, List.of());
        }
        return false;
    }

    /** A schema {@link ProviderManifest#event} gave, for {@link #hits}. */
    private record Hit(ProviderManifest manifest, int id, int version, EventSchema schema) {
    }

    /**
     * Recent answers of {@link ProviderManifest#event} (direct-mapped; manifests are immutable, entries too): its
     * key object would be the only allocation per event when a view decodes in place.
     */
    private final Hit[] hits = new Hit[1024];

    private EventSchema event(ProviderManifest m, int id, int version) {
        int slot = (System.identityHashCode(m) * 31 + id * 257 + version) & (hits.length - 1);
        Hit h = hits[slot];
        if (h != null && h.manifest() == m && h.id() == id && h.version() == version) {
            return h.schema();
        }
        EventSchema s = m.event(id, version);
        if (s != null) {
            hits[slot] = new Hit(m, id, version, s);
        }
        return s;
    }
}
