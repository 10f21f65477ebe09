package org.etw4j.consumer.internal.decode;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.StructValue;
import org.etw4j.tracelogging.DecodedField;
import org.etw4j.tracelogging.ProviderTraits;
import org.etw4j.tracelogging.TraceLoggingDecodeException;
import org.etw4j.tracelogging.TraceLoggingSchema;
import org.etw4j.tracelogging.TraceLoggingSchemaCache;

/**
 * Adapts etw-api's TraceLogging schema decoder ({@code org.etw4j.tracelogging}) to {@link DecodedEvent}s: the
 * event name is the schema's name, the provider name comes from the provider traits item, and the TraceLogging
 * field values are mapped onto {@link EventField} (same in-type numbers, see {@link InType}; out types mapped by
 * meaning, since TraceLogging numbers them differently).
 * Thread-safe (the schema cache is; the provider-name table only holds immutable entries). The TraceLogging
 * decoder decodes a payload all or nothing: when it fails, the event keeps its name and gets a single error field
 * (named after the failing field) holding the bytes from the failing offset on; the fields before it are not
 * recovered.
 */
final class TraceLoggingSupport implements EventDecoder.TraceLoggingDecoder {

    private final TraceLoggingSchemaCache schemas;

    /** Decodes with the schemas of {@code schemas} (its decoder's one cache). */
    TraceLoggingSupport(TraceLoggingSchemaCache schemas) {
        this.schemas = schemas;
    }

    @Override
    public DecodedEvent decode(RawEventRecord r, ByteBuffer schemaItem, ByteBuffer traitsItem) {
        TraceLoggingSchema schema;
        try {
            schema = schemas.get(schemaItem); // reads at absolute indexes: byte order does not matter
        } catch (TraceLoggingDecodeException e) {
            return null;
        }
        String providerName = traitsItem != null ? providerName(traitsItem) : null;
        if (providerName == null) {
            providerName = ProviderNames.nameOrId(r.providerId());
        }
        ByteBuffer data = PayloadScratch.copy(r.userData()); // read in place rather than through the mapped view
        int length = data.remaining();
        int pointerSize = r.pointerSize() == 4 ? 4 : 8;
        List<EventField> fields = new ArrayList<>(schema.topLevelFields().size());
        List<String> notes = List.of();
        byte[] rest;
        try {
            ByteBuffer work = data.duplicate();
            for (DecodedField f : schema.decode(work, pointerSize)) {
                fields.add(convert(f));
            }
            rest = new byte[work.remaining()];
            work.get(work.position(), rest);
        } catch (TraceLoggingDecodeException e) {
            int at = Math.max(0, Math.min(length, e.offset()));
            byte[] raw = new byte[length - at];
            data.get(data.position() + at, raw);
            String name = e.fieldName() != null ? e.fieldName() : "payload";
            fields.add(EventField.failed(name, InType.NULL, OutType.NULL, null, e.getMessage(), raw));
            notes = List.of("TraceLogging payload could not be decoded from offset " + at
                    + "; earlier fields are lost");
            rest = new byte[0];
        }
        return DecodedEvent.owned(r.providerId(), providerName, schema.name(), "", "", r.id(), r.version(),
                r.opcode(), SchemaSource.TRACELOGGING, fields, length, rest, notes, null);
    }

    /**
     * Recently seen provider-traits blobs and the names they hold, direct-mapped by the blob's hash: every event
     * of a TraceLogging provider carries the same blob, and parsing it per event cost more than decoding a small
     * payload. Slots hold immutable entries, so racing writers at worst replace each other's entry.
     */
    private final TraitsName[] traitsNames = new TraitsName[64];

    private record TraitsName(byte[] blob, String name) {
    }

    /** The provider name of a traits item, or {@code null} when it does not parse. */
    private String providerName(ByteBuffer traits) {
        int p = traits.position();
        int n = traits.remaining();
        int h = traits.hashCode(); // over the remaining bytes, like equals below
        int slot = (h ^ (h >>> 16)) & (traitsNames.length - 1);
        TraitsName e = traitsNames[slot];
        if (e != null && e.blob.length == n && traits.equals(ByteBuffer.wrap(e.blob))) {
            return e.name;
        }
        String name;
        try {
            name = ProviderTraits.parse(traits.duplicate().order(ByteOrder.LITTLE_ENDIAN)).name();
        } catch (TraceLoggingDecodeException ex) {
            name = null; // keep the GUID as the name
        }
        byte[] blob = new byte[n];
        traits.get(p, blob);
        traitsNames[slot] = new TraitsName(blob, name);
        return name;
    }

    private static EventField convert(DecodedField f) {
        InType in = InType.fromCode(f.inType().code());
        if (in == null) {
            in = InType.NULL;
        }
        OutType out = outType(f.outType(), in);
        Object v = in == InType.STRUCT ? structValue(f.value()) : value(f.value());
        return EventField.of(f.name(), in, out, PayloadDecoder.applyOutType(v, out), null);
    }

    /** A struct is a list of its members; an array of structs a list of such lists. */
    private static Object structValue(Object v) {
        if (!(v instanceof List<?> list) || list.isEmpty() || list.get(0) instanceof DecodedField) {
            List<EventField> members = new ArrayList<>();
            if (v instanceof List<?> l) {
                for (Object o : l) {
                    members.add(convert((DecodedField) o));
                }
            }
            return new StructValue(members);
        }
        List<Object> elements = new ArrayList<>(list.size());
        for (Object o : list) {
            elements.add(structValue(o));
        }
        return java.util.Collections.unmodifiableList(elements);
    }

    private static Object value(Object v) {
        if (v instanceof Float fl) {
            return fl.doubleValue();
        }
        if (v instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object o : list) {
                out.add(value(o));
            }
            return java.util.Collections.unmodifiableList(out);
        }
        return v;
    }

    private static OutType outType(org.etw4j.tracelogging.OutType t, InType in) {
        if (t == null) {
            return OutType.NULL;
        }
        return switch (t) {
            case DEFAULT -> OutType.NULL;
            case NO_PRINT -> OutType.NO_PRINT;
            case STRING -> OutType.STRING;
            case BOOLEAN -> OutType.BOOLEAN;
            case HEX -> in.fixedSize(8) == 8 ? OutType.HEXINT64 : OutType.HEXINT32;
            case PID -> OutType.PID;
            case TID -> OutType.TID;
            case PORT -> OutType.PORT;
            case IPV4 -> OutType.IPV4;
            case IPV6 -> OutType.IPV6;
            case SOCKET_ADDRESS -> OutType.SOCKET_ADDRESS;
            case XML -> OutType.XML;
            case JSON -> OutType.JSON;
            case WIN32_ERROR -> OutType.WIN32_ERROR;
            case NTSTATUS -> OutType.NTSTATUS;
            case HRESULT -> OutType.HRESULT;
            case FILETIME -> OutType.DATETIME;
            case SIGNED -> OutType.LONG;
            case UNSIGNED -> OutType.UNSIGNED_LONG;
            case DATETIME_CULTURE_INSENSITIVE -> OutType.CULTURE_INSENSITIVE_DATETIME;
            case UTF8 -> OutType.UTF8;
            case PKCS7_WITH_TYPE_INFO -> OutType.PKCS7_WITH_TYPE_INFO;
            case CODE_POINTER -> OutType.CODE_POINTER;
            case DATETIME_UTC -> OutType.DATETIME_UTC;
        };
    }
}
