package org.etw4j.consumer.internal.decode;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.internal.schema.SchemaQuery;

/**
 * The KernelTraceControl MetaData events themselves (EventInfo, EventMapInfo: TDH metadata a trace carries, see
 * {@link TdhMetadata}): harvested into the registry, where {@link InTraceMetadata} finds them for later events,
 * and shown as values naming what they describe. First in the classic chain.
 * Thread-safe (the registry is).
 */
final class MetaDataEvents extends RegistrySchemas {

    /** TraceEvent's name for the provider of the ImageID and MetaData event classes (xperf's KernelTraceControl). */
    static final String PROVIDER_NAME = "KernelTraceControl";

    MetaDataEvents(ManifestRegistry registry) {
        super(registry, Reads.CLASSIC_HEADERS);
    }

    @Override
    public boolean resolve(SchemaQuery q) {
        return TdhMetadata.METADATA_CLASS.equals(q.provider()) && q.decoded(event(q.record(), q.provider(), q.userData()));
    }

    private DecodedEvent event(RawEventRecord r, Guid eventClass, ByteBuffer data) {
        Object parsed = registry.offerMetadataEvent(eventClass, r.opcode(), data);
        List<EventField> fields = new ArrayList<>();
        String opcodeName = r.opcode() == TdhMetadata.OPCODE_EVENT_INFO ? "EventInfo"
                : r.opcode() == TdhMetadata.OPCODE_EVENT_MAP_INFO ? "EventMapInfo" : "Opcode(" + r.opcode() + ")";
        if (parsed instanceof TdhMetadata.EventInfo info) {
            EventSchema s = info.schema();
            fields.add(EventField.of("ProviderGuid", InType.GUID, OutType.NULL, s.providerId(), null));
            fields.add(EventField.of("Event", InType.UNICODE_STRING, OutType.NULL, s.providerName() + "/"
                    + s.eventName(), null));
            fields.add(EventField.of("EventId", InType.UINT16, OutType.NULL, s.eventId(), null));
            fields.add(EventField.of("Version", InType.UINT8, OutType.NULL, s.version(), null));
        } else if (parsed instanceof TdhMetadata.MapInfo map) {
            fields.add(EventField.of("ProviderGuid", InType.GUID, OutType.NULL, map.provider(), null));
            fields.add(EventField.of("MapName", InType.UNICODE_STRING, OutType.NULL, map.map().name(), null));
        }
        List<String> notes = parsed == null ? List.of("metadata blob not understood; see the registry's problems")
                : List.of();
        return new DecodedEvent(eventClass, PROVIDER_NAME, "MetaData/" + opcodeName, "MetaData",
                opcodeName, 0, r.version(), r.opcode(), SchemaSource.BUILT_IN, fields, data.remaining(),
                parsed == null ? EventDecoder.bytes(data) : new byte[0], notes, null);
    }
}
