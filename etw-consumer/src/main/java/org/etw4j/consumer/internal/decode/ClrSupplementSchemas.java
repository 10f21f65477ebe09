package org.etw4j.consumer.internal.decode;

import java.util.List;
import org.etw4j.consumer.internal.schema.SchemaQuery;

/**
 * etw4j's built-in CLR supplement ({@link ClrSupplement}, written from the .NET runtime's own manifest and event
 * documentation) for CLR events a registered CLR manifest lacks: only when the provider's manifest is registered,
 * after its exact events and before older versions of them. Thread-safe (the supplement is immutable).
 */
final class ClrSupplementSchemas extends RegistrySchemas {

    ClrSupplementSchemas(ManifestRegistry registry) {
        super(registry, Reads.EVENT_HEADERS);
    }

    @Override
    public boolean resolve(SchemaQuery q) {
        if (q.manifest(registry) == null) {
            return false;
        }
        int version = q.record().version();
        EventSchema s = ClrSupplement.event(q.provider(), q.record().id(), version);
        return s != null && q.found(s, List.of("decoded with etw4j's built-in CLR supplement (the manifest lacks "
                + "version " + version + ")"));
    }
}
