package org.etw4j.consumer.decode;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.etw4j.Guid;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.spi.RawEventRecord;

/**
 * The decoder facade, thread-safe if its registry is (the provided one is), reusable for any number of events,
 * nothing to close: it turns one {@link RawEventRecord} into a {@link DecodedEvent} using, in this order,
 * <ol>
 *   <li>the built-in classic kernel (MOF) layouts, for records with the classic-header flag
 *       ({@code EVENT_HEADER_FLAG_CLASSIC_HEADER}; the provider id is then the event-class GUID and the opcode
 *       and version identify the event, as in an {@code EVENT_RECORD} from ProcessTrace);</li>
 *   <li>the ManifestEnvelope layout for EventSource manifest events (id 0xFFFE), which it also feeds to the
 *       {@link ManifestRegistry} so that later events of that provider decode;</li>
 *   <li>a TraceLogging decoder, when the record carries a TraceLogging schema
 *       ({@code EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL}) and one is installed;</li>
 *   <li>the registry's manifests, keyed by (provider, id, version), then, for CLR events the manifest lacks,
 *       etw4j's built-in supplement written from the .NET runtime's own manifest and event documentation
 *       ({@code ClrSupplement}, which also adds newer value names to registered CLR manifests);</li>
 *   <li>TDH metadata the trace itself carries (KernelTraceControl MetaData events, see {@link TdhMetadata}),
 *       which it harvests into the registry as they come;</li>
 *   <li>last, for live records only, the schema the consuming machine's TDH has
 *       ({@link RawEventRecord#eventInformation()}, cached per event kind by {@link LiveTdhSchemas}).</li>
 * </ol>
 * Events nothing describes come back with {@link SchemaSource#NONE}, a {@code EventID(n)} name and their whole
 * payload in {@link DecodedEvent#undecoded()}.
 *
 * <p>Decoding keeps no state besides the in-band manifests and metadata harvested into the registry. Records are
 * read during the call only; the result is independent of them.
 * Allocates per call (the result). Never throws for bad payloads: problems are reported on fields and in
 * {@link DecodedEvent#notes()}.
 *
 * <p>Version policy: by default an event whose exact (id, version) is unknown but whose id is known with a
 * lower version is decoded with the newest lower template, and a note says so (templates only grow at the end
 * when versions increase; TraceEvent behaves the same). {@link #strictVersions()} turns that off.
 */
public final class EventDecoder {

    /**
     * Decodes TraceLogging events from their schema extended item; see {@link EventDecoder#withTraceLogging}.
     * Implementations are called from every thread that uses the decoder, so they must be thread-safe.
     */
    @FunctionalInterface
    public interface TraceLoggingDecoder {
        /**
         * Decodes one TraceLogging event, or returns {@code null} when it cannot handle it.
         *
         * @param record the event (valid during the call only)
         * @param schema the EVENT_SCHEMA_TL extended item data
         * @param providerTraits the PROV_TRAITS extended item data, or {@code null}
         */
        DecodedEvent decode(RawEventRecord record, ByteBuffer schema, ByteBuffer providerTraits);
    }

    private final ManifestRegistry registry;
    private final KernelSchemas kernel;
    private final boolean acceptOlderVersions;
    private final TraceLoggingDecoder traceLogging;
    private final LiveTdhSchemas liveSchemas = new LiveTdhSchemas();

    /** A decoder with a new empty registry, the built-in kernel layouts and the lenient version policy. */
    public EventDecoder() {
        this(new ManifestRegistry());
    }

    /** A decoder over {@code registry}. */
    public EventDecoder(ManifestRegistry registry) {
        this(registry, KernelSchemas.builtIn(), true, new TraceLoggingSupport());
    }

    private EventDecoder(ManifestRegistry registry, KernelSchemas kernel, boolean acceptOlderVersions,
                         TraceLoggingDecoder traceLogging) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.kernel = kernel;
        this.acceptOlderVersions = acceptOlderVersions;
        this.traceLogging = traceLogging;
    }

    /** A copy that only decodes exact (id, version) matches. */
    public EventDecoder strictVersions() {
        return new EventDecoder(registry, kernel, false, traceLogging);
    }

    /** A copy that uses {@code decoder} for TraceLogging events ({@code null}: leave them undecoded). */
    public EventDecoder withTraceLogging(TraceLoggingDecoder decoder) {
        return new EventDecoder(registry, kernel, acceptOlderVersions, decoder);
    }

    /** The manifests this decoder uses. */
    public ManifestRegistry manifests() {
        return registry;
    }

    /**
     * Asks the live machine's TDH about {@code r}'s event kind now, while {@code r} is still inside its callback,
     * so that a copy decoded later on another thread finds the answer cached ({@link RawEventRecord#eventInformation()}
     * works only during the callback; copies cannot ask). Does nothing for records that cannot ask (files, copies,
     * the simulated backend) or for kinds already asked. TDH is asked at most once per event kind, including kinds
     * another schema describes (this method does not resolve the other schemas, to stay cheap on the delivery
     * thread). Never throws.
     */
    public void prefetchPlatformSchema(RawEventRecord r) {
        if (r.providesEventInformation()) {
            liveSchemas.find(r, r.providerId());
        }
    }

    /** Decodes one event. */
    public DecodedEvent decode(RawEventRecord r) {
        return decode(r, null);
    }

    /**
     * Decodes one event; when {@code into} is given and can read the event in place ({@link EventView}), it does
     * and this returns {@code null}; otherwise the decoded event.
     */
    DecodedEvent decode(RawEventRecord r, EventView into) {
        int pointerSize = r.pointerSize() == 4 ? 4 : 8;
        Guid provider = providerOf(r);
        boolean classicHeader = (r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) != 0;
        ByteBuffer tlSchema = classicHeader ? null : r.extendedDataOfType(EventHeaderLayout.EXT_EVENT_SCHEMA_TL);
        if (tlSchema != null && r.id() != ManifestRegistry.MANIFEST_EVENT_ID) {
            // TraceLogging first when it cannot be a manifest envelope: its decoder reads the user data itself
            return traceLogging(r, provider, tlSchema);
        }
        // null until needed: a view reads the payload in place (the slice would be its only allocation per event)
        ByteBuffer data = into == null ? littleEndian(r.userData()) : null;
        if (classicHeader) {
            if (TdhMetadata.METADATA_CLASS.equals(provider)) {
                return metadataEvent(r, provider, userData(r, data));
            }
            return classic(r, provider, data, pointerSize, into);
        }
        if (r.id() == ManifestRegistry.MANIFEST_EVENT_ID && ManifestRegistry.isEnvelope(data = userData(r, data))) {
            registry.offerManifestEvent(provider, r.id(), data);
            return manifestEnvelope(r, provider, data, pointerSize);
        }
        if (tlSchema != null) {
            return traceLogging(r, provider, tlSchema);
        }
        ProviderManifest m = registry.provider(provider);
        if (m != null) {
            EventSchema s = manifestEvent(m, r.id(), r.version());
            // at most one note; List.of rather than a list per event (the view path allocates nothing else)
            List<String> notes = List.of();
            if (s == null) {
                s = ClrSupplement.event(provider, r.id(), r.version());
                if (s != null) {
                    notes = List.of("decoded with etw4j's built-in CLR supplement (the manifest lacks version "
                            + r.version() + ")");
                }
            }
            if (s == null && acceptOlderVersions) {
                s = m.nearestOlder(r.id(), r.version());
                if (s != null) {
                    notes = List.of("decoded with the template of version " + s.version() + " (event has version "
                            + r.version() + ")");
                }
            }
            if (s != null) {
                return decode(s, r, data, pointerSize, notes, into);
            }
            EventSchema meta = registry.metadataSchema(provider, r.id(), r.version());
            if (meta != null) {
                return decode(meta, r, data, pointerSize, List.of(), into);
            }
            return noSchema(r, provider, m.name(), data, pointerSize, List.of("provider " + m.name() + " has no event "
                    + r.id() + " version " + r.version()), into);
        }
        EventSchema meta = registry.metadataSchema(provider, r.id(), r.version());
        if (meta != null) {
            return decode(meta, r, data, pointerSize, List.of(), into);
        }
        return noSchema(r, provider, guidText(provider), data, pointerSize, noSchemaNote(provider), into);
    }

    /**
     * Provider GUIDs met, by their bits, so that most records do not make a new {@link Guid} (a direct-mapped
     * cache: a slot holds the last GUID hashed to it; the entries are immutable, so threads may race on a slot).
     */
    private final Guid[] providers = new Guid[256];

    /** {@code r}'s provider GUID ({@link RawEventRecord#providerId()}), from {@link #providers} when it is there. */
    private Guid providerOf(RawEventRecord r) {
        long msb = r.providerIdMsb();
        long lsb = r.providerIdLsb();
        long h = msb ^ lsb;
        int slot = (int) (h ^ (h >>> 32) ^ (h >>> 16) ^ (h >>> 8)) & (providers.length - 1);
        Guid g = providers[slot];
        if (g == null || g.mostSignificantBits() != msb || g.leastSignificantBits() != lsb) {
            g = r.providerId();
            if (g.mostSignificantBits() == msb && g.leastSignificantBits() == lsb) {
                providers[slot] = g;
            }
        }
        return g;
    }

    /** A schema {@link ProviderManifest#event} gave, for {@link #manifestHits}. */
    private record ManifestHit(ProviderManifest manifest, int id, int version, EventSchema schema) {
    }

    /**
     * Recent answers of {@link ProviderManifest#event} (direct-mapped; manifests are immutable, entries too): its
     * key object would be the only allocation per event when a view decodes in place.
     */
    private final ManifestHit[] manifestHits = new ManifestHit[1024];

    private EventSchema manifestEvent(ProviderManifest m, int id, int version) {
        int slot = (System.identityHashCode(m) * 31 + id * 257 + version) & (manifestHits.length - 1);
        ManifestHit h = manifestHits[slot];
        if (h != null && h.manifest() == m && h.id() == id && h.version() == version) {
            return h.schema();
        }
        EventSchema s = m.event(id, version);
        if (s != null) {
            manifestHits[slot] = new ManifestHit(m, id, version, s);
        }
        return s;
    }

    /** A TraceLogging event (one with an EVENT_SCHEMA_TL item). */
    private DecodedEvent traceLogging(RawEventRecord r, Guid provider, ByteBuffer tlSchema) {
        if (traceLogging != null) {
            DecodedEvent e;
            try {
                e = traceLogging.decode(r, tlSchema, r.extendedDataOfType(EventHeaderLayout.EXT_PROV_TRAITS));
            } catch (RuntimeException ex) {
                return undecoded(r, provider, littleEndian(r.userData()),
                        List.of("TraceLogging decoder failed: " + ex));
            }
            if (e != null) {
                return e;
            }
        }
        return undecoded(r, provider, littleEndian(r.userData()),
                List.of("TraceLogging event: no TraceLogging decoder installed"));
    }

    /**
     * The user data in little-endian order without changing the caller's buffer: as is when it already is (the
     * .etl reader's slices are), else a duplicate. Decoding reads at absolute indexes and never moves positions.
     */
    /** {@code data}, or the record's user data when it is still {@code null} (see {@link #littleEndian}). */
    private static ByteBuffer userData(RawEventRecord r, ByteBuffer data) {
        return data != null ? data : littleEndian(r.userData());
    }

    private static ByteBuffer littleEndian(ByteBuffer userData) {
        return userData.order() == ByteOrder.LITTLE_ENDIAN ? userData
                : userData.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    private DecodedEvent classic(RawEventRecord r, Guid eventClass, ByteBuffer data, int pointerSize,
                                 EventView into) {
        KernelSchemas.Lookup hit = kernel.find(eventClass, r.opcode(), r.version());
        if (hit.schema() == null) {
            EventSchema meta = registry.metadataClassicSchema(eventClass, r.opcode(), r.version());
            if (meta != null) {
                return decode(meta, r, data, pointerSize, List.of(), into);
            }
            LiveTdhSchemas.Answer live = liveSchemas.find(r, eventClass);
            if (live != null && live.schema() != null) {
                return decode(live.schema(), r, data, pointerSize, live.notes(), into);
            }
            NoLayout t = noLayout(eventClass, hit, r.opcode(), r.version());
            if (into != null && live == null) {
                into.readUndecoded(r, eventClass, t.providerName(), t.eventName(), hit.taskName(), 0, t.notes());
                return null;
            }
            data = userData(r, data);
            return DecodedEvent.owned(eventClass, t.providerName(), t.eventName(), hit.taskName(), "", 0, r.version(),
                    r.opcode(), SchemaSource.NONE, List.of(), data.remaining(), bytes(data), withNotes(t.notes(), live),
                    null);
        }
        List<String> notes = hit.schema().version() == r.version() ? List.of()
                : List.of("decoded with the layout of version " + hit.schema().version() + " (event has version "
                        + r.version() + ")");
        return decode(hit.schema(), r, data, pointerSize, notes, into);
    }

    /** The texts of a classic event without layout, by class, opcode and version. */
    private record NoLayout(Guid eventClass, int opcode, int version, String providerName, String eventName,
                            List<String> notes) {
    }

    /** Texts of classic events without layout (direct-mapped; immutable entries, so threads may race on a slot). */
    private final NoLayout[] noLayouts = new NoLayout[512];

    /** The names and note {@link #classic} gives an event of this class, opcode and version without layout. */
    private NoLayout noLayout(Guid eventClass, KernelSchemas.Lookup hit, int opcode, int version) {
        int slot = (eventClass.hashCode() * 31 + opcode * 257 + version) & (noLayouts.length - 1);
        NoLayout t = noLayouts[slot];
        if (t == null || t.opcode() != opcode || t.version() != version || !t.eventClass().equals(eventClass)) {
            String name = hit.taskName() != null ? hit.taskName() + "/Opcode(" + opcode + ")"
                    : "Opcode(" + opcode + ")";
            String providerName = hit.providerName() != null ? hit.providerName() : eventClass.toString();
            String why = kernel.whyUndecoded(eventClass, opcode, version); // KernelSchemas knows why, when it does
            t = new NoLayout(eventClass, opcode, version, providerName, name, List.of("no layout for classic event "
                    + "class " + eventClass + " opcode " + opcode + " version " + version
                    + (why == null ? "" : ": " + why)));
            noLayouts[slot] = t;
        }
        return t;
    }

    /** The MetaData events themselves: harvested into the registry, shown with what they describe. */
    private DecodedEvent metadataEvent(RawEventRecord r, Guid eventClass, ByteBuffer data) {
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
        return new DecodedEvent(eventClass, METADATA_PROVIDER_NAME, "MetaData/" + opcodeName, "MetaData", opcodeName,
                0, r.version(), r.opcode(), SchemaSource.BUILT_IN, fields, data.remaining(),
                parsed == null ? bytes(data) : new byte[0], notes, null);
    }

    /** TraceEvent's name for the provider of the ImageID and MetaData event classes (xperf's KernelTraceControl). */
    static final String METADATA_PROVIDER_NAME = "KernelTraceControl";

    private DecodedEvent manifestEnvelope(RawEventRecord r, Guid provider, ByteBuffer data, int pointerSize) {
        ProviderManifest m = registry.provider(provider);
        String providerName = m != null ? m.name() : provider.toString();
        EventSchema s = new EventSchema(provider, providerName, r.id(), r.version(), r.task(), r.opcode(),
                "ManifestData", "", "ManifestData", null, ENVELOPE_FIELDS, Map.of(), SchemaSource.BUILT_IN);
        PayloadDecoder.Result res = PayloadDecoder.decode(s.fields(), Map.of(), data, pointerSize);
        List<EventField> fields = new ArrayList<>(res.fields());
        // TraceEvent's ManifestData event also reports the whole payload length under this name.
        fields.add(EventField.of("PayloadLength", InType.UINT32, OutType.NULL, (long) data.remaining(), null));
        return new DecodedEvent(provider, providerName, s.eventName(), s.taskName(), "", r.id(), r.version(),
                r.opcode(), SchemaSource.BUILT_IN, fields, data.remaining(), new byte[0], List.of(), null);
    }

    private static final List<FieldSpec> ENVELOPE_FIELDS = List.of(
            DataSpec.of("Format", InType.UINT8),
            DataSpec.of("MajorVersion", InType.UINT8),
            DataSpec.of("MinorVersion", InType.UINT8),
            DataSpec.of("Magic", InType.UINT8),
            DataSpec.of("TotalChunks", InType.UINT16),
            DataSpec.of("ChunkNumber", InType.UINT16));

    /** Decodes {@code data} with {@code s}; the names come from the schema. */
    private DecodedEvent decode(EventSchema s, RawEventRecord r, ByteBuffer data, int pointerSize, List<String> notes,
                                EventView into) {
        Map<String, ValueMap> maps = s.maps();
        if (s.source() == SchemaSource.TDH_METADATA) {
            // EventMapInfo events name their provider; metadata schemas refer to its maps by name
            maps = registry.metadataMapsView(providerOf(r));
        }
        if (into != null && into.readInPlace(s, r, maps, pointerSize, notes)) {
            return null;
        }
        data = userData(r, data);
        ByteBuffer payload = PayloadScratch.copy(data); // read in place rather than through the mapped view
        PayloadDecoder.Walked res = PayloadDecoder.walk(s.fields(), maps, payload, pointerSize);
        int length = payload.limit();
        byte[] rest = java.util.Arrays.copyOfRange(payload.array(), payload.arrayOffset()
                + Math.min(length, res.consumed()), payload.arrayOffset() + length);
        boolean classic = (r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) != 0;
        // kernel flags and enums TraceEvent names beyond a map lookup (IrpFlags' priority, CreateOptions' disposition)
        List<EventField> fields = KernelFieldNames.apply(s, res.fields());
        return DecodedEvent.owned(s.providerId(), s.providerName(), s.eventName(), s.taskName(), s.opcodeName(),
                classic ? 0 : r.id(), r.version(), r.opcode(), s.source(), fields, length, rest,
                notes, s.message());
    }

    /** Nothing above describes the event: the live machine's TDH may ({@link LiveTdhSchemas}); else raw data. */
    private DecodedEvent noSchema(RawEventRecord r, Guid provider, String providerName, ByteBuffer data,
                                  int pointerSize, List<String> why, EventView into) {
        LiveTdhSchemas.Answer live = liveSchemas.find(r, provider);
        if (live != null && live.schema() != null) {
            return decode(live.schema(), r, data, pointerSize, live.notes(), into);
        }
        if (into != null && live == null) {
            into.readUndecoded(r, provider, providerName, undecodedName(r.id()), "", r.id(), why);
            return null;
        }
        return undecoded(r, provider, providerName, userData(r, data), withNotes(why, live));
    }

    private static List<String> withNotes(List<String> why, LiveTdhSchemas.Answer live) {
        if (live == null || live.notes().isEmpty()) {
            return why;
        }
        List<String> all = new ArrayList<>(why);
        all.addAll(live.notes());
        return all;
    }

    private DecodedEvent undecoded(RawEventRecord r, Guid provider, ByteBuffer data, List<String> notes) {
        return undecoded(r, provider, guidText(provider), data, notes);
    }

    /**
     * Text forms of provider GUIDs nothing describes, with their "no schema" note: such events come by the
     * thousand from one provider, and formatting the GUID each time was a good part of their cost. Bounded
     * (a trace can name any number of providers); past the bound the text is built per call.
     */
    private final Map<Guid, ProviderText> unknownProviders = new java.util.concurrent.ConcurrentHashMap<>();

    /** A provider GUID's text and the "no schema" note naming it. */
    private record ProviderText(String text, List<String> noSchemaNote) {
    }

    private ProviderText unknownProvider(Guid provider) {
        ProviderText t = unknownProviders.get(provider);
        if (t == null) {
            String text = provider.toString();
            t = new ProviderText(text, List.of("no schema for provider " + text));
            if (unknownProviders.size() < 4096) {
                unknownProviders.putIfAbsent(provider, t);
            }
        }
        return t;
    }

    /** {@code provider.toString()}, cached. */
    private String guidText(Guid provider) {
        return unknownProvider(provider).text();
    }

    /** The note of an event whose provider nothing describes. */
    private List<String> noSchemaNote(Guid provider) {
        return unknownProvider(provider).noSchemaNote();
    }

    /** {@code EventID(n)} texts by id (direct-mapped; Strings are immutable, so threads may race on a slot). */
    private static final String[] EVENT_ID_NAMES = new String[1024];

    /** The name of an event nothing describes: {@code EventWriteString} for id 0, else {@code EventID(n)}. */
    private static String undecodedName(int id) {
        if (id == 0) {
            return "EventWriteString";
        }
        int slot = id & (EVENT_ID_NAMES.length - 1);
        String n = EVENT_ID_NAMES[slot];
        if (n == null || !isEventIdName(n, id)) {
            n = "EventID(" + id + ")";
            EVENT_ID_NAMES[slot] = n;
        }
        return n;
    }

    /** Whether {@code name} is {@code "EventID(" + id + ")"}, without building it. */
    private static boolean isEventIdName(String name, int id) {
        int close = name.length() - 1;
        int v = 0;
        for (int i = 8; i < close; i++) {
            v = v * 10 + (name.charAt(i) - '0');
        }
        return v == id && id >= 0;
    }

    private static DecodedEvent undecoded(RawEventRecord r, Guid provider, String providerName, ByteBuffer data,
                                          List<String> notes) {
        String name = undecodedName(r.id());
        return DecodedEvent.owned(provider, providerName, name, "", "", r.id(), r.version(), r.opcode(),
                SchemaSource.NONE, List.of(), data.remaining(), bytes(data), notes, null);
    }

    private static byte[] bytes(ByteBuffer data) {
        byte[] b = new byte[data.remaining()];
        data.get(data.position(), b);
        return b;
    }
}
