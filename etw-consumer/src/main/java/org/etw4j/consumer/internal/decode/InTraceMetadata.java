package org.etw4j.consumer.internal.decode;

import java.util.List;
import org.etw4j.consumer.internal.schema.SchemaQuery;

/**
 * TDH metadata the trace itself carries (KernelTraceControl MetaData EventInfo events, harvested into the registry
 * by {@link MetaDataEvents} as they come): by (provider, id, version), or for classic records by (event class,
 * opcode, version). Thread-safe (the registry is).
 */
final class InTraceMetadata extends RegistrySchemas {

    InTraceMetadata(ManifestRegistry registry) {
        super(registry, Reads.BOTH);
    }

    @Override
    public boolean resolve(SchemaQuery q) {
        EventSchema s = q.classic()
                ? registry.metadataClassicSchema(q.provider(), q.record().opcode(), q.record().version())
                : registry.metadataSchema(q.provider(), q.record().id(), q.record().version());
        return s != null && q.found(s, List.of());
    }
}
