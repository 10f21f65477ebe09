package org.etw4j.consumer.internal.decode;

import org.etw4j.consumer.internal.schema.SchemaProvider;

/**
 * A schema provider that reads the decoder's {@link ManifestRegistry} (manifests, harvested EventSource manifests,
 * in-trace TDH metadata): what those providers share, the registry and the header kinds they describe.
 * Thread-safe (the registry is).
 */
abstract class RegistrySchemas implements SchemaProvider {

    final ManifestRegistry registry;
    private final Reads reads;

    RegistrySchemas(ManifestRegistry registry, Reads reads) {
        this.registry = registry;
        this.reads = reads;
    }

    @Override
    public final Reads reads() {
        return reads;
    }
}
