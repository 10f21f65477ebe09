package org.etw4j.consumer.internal.decode;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.internal.schema.SchemaProvider;
import org.etw4j.consumer.internal.schema.SchemaQuery;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.tracelogging.TraceLoggingDecodeException;
import org.etw4j.tracelogging.TraceLoggingSchema;
import org.etw4j.tracelogging.TraceLoggingSchemaCache;

/**
 * The decoder facade, thread-safe if its registry is (the provided one is), reusable for any number of events,
 * nothing to close: it turns one {@link RawEventRecord} into a {@link DecodedEvent}, or reads it into a reusable
 * {@link EventView}. Its schema sources form one ordered chain of schema providers (an internal interface); the
 * first that describes the event decides how its payload is read, and whether that happens into a view or into a
 * value is decided once, after the chain. The sources, in this order:
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
    /** The decoder's one TraceLogging schema cache: the built-in TraceLogging decoder's and the name lookups'. */
    private final TraceLoggingSchemaCache traceLoggingSchemas;
    private final ProviderTexts providerTexts = new ProviderTexts();
    private final LiveTdh liveTdh = new LiveTdh();
    /** The chain, in order, as given by {@link #chain}. */
    private final List<SchemaProvider> chain;
    /** The providers of {@link #chain} that describe classic records, in chain order. */
    private final SchemaProvider[] classicChain;
    /** The providers of {@link #chain} that describe {@code EVENT_HEADER} records, in chain order. */
    private final SchemaProvider[] eventHeaderChain;

    /** A decoder with a new empty registry, the built-in kernel layouts and the lenient version policy. */
    public EventDecoder() {
        this(new ManifestRegistry());
    }

    /** A decoder over {@code registry}. */
    public EventDecoder(ManifestRegistry registry) {
        this(registry, KernelSchemas.builtIn(), true, null, new TraceLoggingSchemaCache());
    }

    /** {@code traceLogging} null: the built-in one over {@code traceLoggingSchemas}. */
    private EventDecoder(ManifestRegistry registry, KernelSchemas kernel, boolean acceptOlderVersions,
                         TraceLoggingDecoder traceLogging, TraceLoggingSchemaCache traceLoggingSchemas) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.kernel = kernel;
        this.acceptOlderVersions = acceptOlderVersions;
        this.traceLoggingSchemas = traceLoggingSchemas;
        this.traceLogging = traceLogging != null ? traceLogging : new TraceLoggingSupport(traceLoggingSchemas);
        this.chain = chain(this.traceLogging);
        this.classicChain = select(chain, SchemaProvider.Reads.CLASSIC_HEADERS);
        this.eventHeaderChain = select(chain, SchemaProvider.Reads.EVENT_HEADERS);
    }

    private EventDecoder(EventDecoder d, boolean acceptOlderVersions, TraceLoggingDecoder traceLogging) {
        this.registry = d.registry;
        this.kernel = d.kernel;
        this.acceptOlderVersions = acceptOlderVersions;
        this.traceLoggingSchemas = d.traceLoggingSchemas;
        this.traceLogging = traceLogging;
        this.chain = chain(traceLogging);
        this.classicChain = select(chain, SchemaProvider.Reads.CLASSIC_HEADERS);
        this.eventHeaderChain = select(chain, SchemaProvider.Reads.EVENT_HEADERS);
    }

    /** The schema providers, in the order they are asked. */
    private List<SchemaProvider> chain(TraceLoggingDecoder tl) {
        List<SchemaProvider> c = new ArrayList<>();
        c.add(new MetaDataEvents(registry));          // classic: the MetaData events themselves, harvested
        c.add(new KernelMofSchemas(kernel));          // classic: built-in kernel MOF layouts
        c.add(new EventSourceManifests(registry));    // EventSource manifest envelopes in the trace, harvested
        c.add(new TraceLoggingSchemas(tl, providerTexts));
        c.add(new RegisteredManifests(registry));     // exact (provider, id, version)
        c.add(new ClrSupplementSchemas(registry));    // CLR events a registered CLR manifest lacks
        if (acceptOlderVersions) {
            c.add(new OlderManifestVersions(registry));
        }
        c.add(new InTraceMetadata(registry));         // TDH metadata harvested from the trace
        c.add(liveTdh);                               // live records: the machine's TDH
        c.add(new KernelMemorySchemas());             // Kernel-Memory MemInfo events, when nothing above knows them
        return List.copyOf(c);
    }

    private static SchemaProvider[] select(List<SchemaProvider> chain, SchemaProvider.Reads kind) {
        return chain.stream().filter(p -> p.reads() == kind || p.reads() == SchemaProvider.Reads.BOTH)
                .toArray(SchemaProvider[]::new);
    }

    /** A copy that only decodes exact (id, version) matches. */
    public EventDecoder strictVersions() {
        return new EventDecoder(this, false, traceLogging);
    }

    /** A copy that uses {@code decoder} for TraceLogging events ({@code null}: leave them undecoded). */
    public EventDecoder withTraceLogging(TraceLoggingDecoder decoder) {
        return new EventDecoder(this, acceptOlderVersions, decoder);
    }

    /** The manifests this decoder uses. */
    public ManifestRegistry manifests() {
        return registry;
    }

    /**
     * The parsed TraceLogging schema of a metadata item ({@code EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL} data), from
     * this decoder's schema cache (the one its TraceLogging decoding uses), or {@code null} when it is malformed.
     * The buffer's position and byte order are not changed.
     */
    public TraceLoggingSchema traceLoggingSchema(ByteBuffer metadataItem) {
        try {
            return traceLoggingSchemas.get(metadataItem.duplicate().order(ByteOrder.LITTLE_ENDIAN));
        } catch (TraceLoggingDecodeException e) {
            return null;
        }
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
            liveTdh.schemas.find(r, r.providerId());
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
        SchemaQuery q = into != null ? into.query() : new SchemaQuery();
        boolean classic = (r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) != 0;
        q.reset(r, providerOf(r), classic);
        try {
            for (SchemaProvider p : classic ? classicChain : eventHeaderChain) {
                if (p.resolve(q)) {
                    break;
                }
            }
            return switch (q.outcome()) {
                case EVENT -> q.event();
                case SCHEMA -> decode(q.schema(), q, into);
                case OPEN -> undescribed(q, into);
            };
        } finally {
            q.clear();
        }
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

    /** TraceEvent's name for the provider of the ImageID and MetaData event classes (xperf's KernelTraceControl). */
    static final String METADATA_PROVIDER_NAME = MetaDataEvents.PROVIDER_NAME;

    /** Reads the payload with {@code s}: into {@code into} when it can read it in place, else as a value. */
    private DecodedEvent decode(EventSchema s, SchemaQuery q, EventView into) {
        RawEventRecord r = q.record();
        Map<String, ValueMap> maps = s.maps();
        if (s.source() == SchemaSource.TDH_METADATA) {
            // EventMapInfo events name their provider; metadata schemas refer to its maps by name
            maps = registry.metadataMapsView(q.provider());
        }
        if (into != null && into.readInPlace(s, r, maps, q.pointerSize(), q.notes())) {
            return null;
        }
        ByteBuffer payload = PayloadScratch.copy(q.userData()); // read in place rather than through the mapped view
        PayloadDecoder.Walked res = PayloadDecoder.walk(s.fields(), maps, payload, q.pointerSize());
        int length = payload.limit();
        byte[] rest = java.util.Arrays.copyOfRange(payload.array(), payload.arrayOffset()
                + Math.min(length, res.consumed()), payload.arrayOffset() + length);
        // kernel flags and enums TraceEvent names beyond a map lookup (IrpFlags' priority, CreateOptions' disposition)
        List<EventField> fields = KernelFieldNames.apply(s, res.fields());
        return DecodedEvent.owned(s.providerId(), s.providerName(), s.eventName(), s.taskName(), s.opcodeName(),
                q.classic() ? 0 : r.id(), r.version(), r.opcode(), s.source(), fields, length, rest,
                q.notes(), s.message());
    }

    /**
     * Nothing describes the event: no fields, the whole payload undecoded, named as a provider described the miss
     * (a kernel class without this layout), else after the provider's manifest, else after its GUID.
     */
    private DecodedEvent undescribed(SchemaQuery q, EventView into) {
        RawEventRecord r = q.record();
        Guid provider = q.provider();
        String providerName;
        String eventName;
        String taskName;
        int eventId;
        List<String> why;
        if (q.missDescribed()) {
            providerName = q.missProviderName();
            eventName = q.missEventName();
            taskName = q.missTaskName();
            eventId = q.missEventId();
            why = q.missNotes();
        } else {
            ProviderManifest m = q.classic() ? null : q.manifest(registry);
            eventName = undecodedName(r.id());
            taskName = "";
            eventId = r.id();
            if (m != null) {
                providerName = m.name();
                why = List.of("provider " + m.name() + " has no event " + r.id() + " version " + r.version());
            } else {
                providerName = providerTexts.text(provider);
                why = providerTexts.noSchemaNote(provider);
            }
        }
        if (into != null && !q.missAsValue()) {
            into.readUndecoded(r, provider, providerName, eventName, taskName, eventId, why);
            return null;
        }
        if (!q.extraNotes().isEmpty()) {
            List<String> all = new ArrayList<>(why);
            all.addAll(q.extraNotes());
            why = all;
        }
        ByteBuffer data = q.userData();
        return DecodedEvent.owned(provider, providerName, eventName, taskName, "", eventId, r.version(), r.opcode(),
                SchemaSource.NONE, List.of(), data.remaining(), bytes(data), why, null);
    }

    /** {@code EventID(n)} texts by id (direct-mapped; Strings are immutable, so threads may race on a slot). */
    private static final String[] EVENT_ID_NAMES = new String[1024];

    /** The name of an event nothing describes: {@code EventWriteString} for id 0, else {@code EventID(n)}. */
    static String undecodedName(int id) {
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

    /** An event its provider's schema source could not decode, as a value: the whole payload left over. */
    static DecodedEvent undecoded(RawEventRecord r, Guid provider, String providerName, ByteBuffer data,
                                  List<String> notes) {
        String name = undecodedName(r.id());
        return DecodedEvent.owned(provider, providerName, name, "", "", r.id(), r.version(), r.opcode(),
                SchemaSource.NONE, List.of(), data.remaining(), bytes(data), notes, null);
    }

    static byte[] bytes(ByteBuffer data) {
        byte[] b = new byte[data.remaining()];
        data.get(data.position(), b);
        return b;
    }
}
