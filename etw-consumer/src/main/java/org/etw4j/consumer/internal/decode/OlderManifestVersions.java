package org.etw4j.consumer.internal.decode;

import java.util.List;
import org.etw4j.consumer.internal.schema.SchemaQuery;

/**
 * The lenient version policy in the chain: an event whose exact (id, version) a registered manifest lacks but whose
 * id it has with a lower version decodes with the newest lower template, and a note says so (templates only grow
 * at the end when versions increase; TraceEvent behaves the same). Left out of the chain by
 * {@link EventDecoder#strictVersions()}. Thread-safe (manifests are immutable).
 */
final class OlderManifestVersions extends RegistrySchemas {

    OlderManifestVersions(ManifestRegistry registry) {
        super(registry, Reads.EVENT_HEADERS);
    }

    @Override
    public boolean resolve(SchemaQuery q) {
        ProviderManifest m = q.manifest(registry);
        if (m == null) {
            return false;
        }
        int version = q.record().version();
        EventSchema s = m.nearestOlder(q.record().id(), version);
        return s != null && q.found(s, List.of("decoded with the template of version " + s.version()
                + " (event has version " + version + ")"));
    }
}
