package org.etw4j.consumer.internal.decode;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.internal.schema.SchemaQuery;

/**
 * EventSource manifests carried in the trace: an event 0xFFFE whose payload is a ManifestEnvelope is fed to the
 * registry (so that the provider's later events decode through {@link RegisteredManifests}) and shown with the
 * envelope's own built-in layout. Thread-safe (the registry is).
 */
final class EventSourceManifests extends RegistrySchemas {

    private static final List<FieldSpec> ENVELOPE_FIELDS = List.of(
            DataSpec.of("Format", InType.UINT8),
            DataSpec.of("MajorVersion", InType.UINT8),
            DataSpec.of("MinorVersion", InType.UINT8),
            DataSpec.of("Magic", InType.UINT8),
            DataSpec.of("TotalChunks", InType.UINT16),
            DataSpec.of("ChunkNumber", InType.UINT16));

    EventSourceManifests(ManifestRegistry registry) {
        super(registry, Reads.EVENT_HEADERS);
    }

    @Override
    public boolean resolve(SchemaQuery q) {
        RawEventRecord r = q.record();
        if (r.id() != ManifestRegistry.MANIFEST_EVENT_ID || !ManifestRegistry.isEnvelope(q.userData())) {
            return false;
        }
        registry.offerManifestEvent(q.provider(), r.id(), q.userData());
        return q.decoded(envelope(r, q.provider(), q.userData(), q.pointerSize()));
    }

    private DecodedEvent envelope(RawEventRecord r, Guid provider, ByteBuffer data, int pointerSize) {
        ProviderManifest m = registry.provider(provider);
        String providerName = m != null ? m.name() : ProviderNames.nameOrId(provider);
        EventSchema s = new EventSchema(provider, providerName, r.id(), r.version(), r.task(), r.opcode(),
                "ManifestData", "", "ManifestData", null, ENVELOPE_FIELDS, Map.of(), SchemaSource.BUILT_IN);
        PayloadDecoder.Result res = PayloadDecoder.decode(s.fields(), Map.of(), data, pointerSize);
        List<EventField> fields = new ArrayList<>(res.fields());
        // TraceEvent's ManifestData event also reports the whole payload length under this name.
        fields.add(EventField.of("PayloadLength", InType.UINT32, OutType.NULL, (long) data.remaining(), null));
        return new DecodedEvent(provider, providerName, s.eventName(), s.taskName(), "", r.id(), r.version(),
                r.opcode(), SchemaSource.BUILT_IN, fields, data.remaining(), new byte[0], List.of(), null);
    }
}
