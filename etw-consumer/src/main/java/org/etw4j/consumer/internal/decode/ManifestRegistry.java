package org.etw4j.consumer.internal.decode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.etw4j.Guid;
import org.etw4j.consumer.SchemaSource;

/**
 * The provider manifests a decoder knows: those the application registers, and the EventSource manifests a
 * trace carries in-band (event 0xFFFE), which a reader feeds through {@link #offerManifestEvent} before the
 * events that need them are decoded.
 * Thread-safe: lookups are lock-free, registrations and chunk assembly are synchronized. One registry is
 * typically shared by all decoders of one trace (in-band manifests belong to the trace they came from).
 * Precedence: a manifest the application registered is never replaced by an in-band one for the same provider
 * (the application's file is taken as the authority); otherwise the latest registration wins.
 *
 * <p>ManifestEnvelope (etw-formats.md section 1.10; TraceEvent {@code ManifestEnvelope.cs}): the payload of
 * event id 0xFFFE starts with {@code u8 Format (1 = SimpleXml); u8 MajorVersion; u8 MinorVersion;
 * u8 Magic = 0x5B; u16 TotalChunks; u16 ChunkNumber}, followed by one chunk of UTF-8 manifest XML. Chunks
 * {@code 0..TotalChunks-1} are concatenated; a chunk 0 restarts assembly; an incomplete set is kept until
 * completed.
 *
 * <p>It also keeps the TDH metadata some merged traces carry ({@link #offerMetadataEvent}): schemas keyed by
 * (provider, id, version) or, for classic events, (event class, opcode, version), and per-provider maps.
 */
public final class ManifestRegistry {

    /** Event id of the EventSource manifest event. */
    public static final int MANIFEST_EVENT_ID = 0xFFFE;
    /** {@code ManifestEnvelope.Magic}. */
    public static final int ENVELOPE_MAGIC = 0x5B;
    /** Size of the envelope header before the XML chunk. */
    public static final int ENVELOPE_SIZE = 8;

    private final Map<Guid, ProviderManifest> byGuid = new ConcurrentHashMap<>();
    private final Map<MetaKey, EventSchema> metadata = new ConcurrentHashMap<>();
    private final Map<Guid, Map<String, ValueMap>> metadataMaps = new ConcurrentHashMap<>();

    /** Key of a TDH-metadata schema: (provider, id, version), or (event class, opcode, version) when classic. */
    private record MetaKey(Guid guid, int idOrOpcode, int version, boolean classic) {
    }
    private final Map<Guid, ChunkSet> pending = new HashMap<>();
    private final List<String> problems = new ArrayList<>();

    /** What happened to an offered manifest event (enum constants: immutable, thread-safe). */
    public enum Offer {
        /** Not a manifest event (wrong id or no valid envelope). */
        NOT_A_MANIFEST,
        /** A chunk was stored; more are needed. */
        CHUNK_STORED,
        /** The last chunk arrived and the manifest was parsed and registered. */
        REGISTERED,
        /** The assembled manifest was registered before (repeated in the trace): nothing changed. */
        UNCHANGED,
        /** The chunks were complete but the manifest could not be parsed; see {@link #problems()}. */
        FAILED
    }

    private static final class ChunkSet {
        final int total;
        final byte[][] chunks;
        int received;

        ChunkSet(int total) {
            this.total = total;
            this.chunks = new byte[total][];
        }
    }

    /**
     * An independent registry holding what this one holds now: the registered and harvested manifests, the TDH
     * metadata, the chunks of in-band manifests not yet complete and the problems. For readers that continue from
     * one shared first pass, each with the registry state that pass left (as the Spark splits of one file do):
     * what one of them harvests later does not reach the others.
     */
    public synchronized ManifestRegistry copy() {
        ManifestRegistry c = new ManifestRegistry();
        c.byGuid.putAll(byGuid);
        c.metadata.putAll(metadata);
        metadataMaps.forEach((provider, maps) -> c.metadataMaps.put(provider, new ConcurrentHashMap<>(maps)));
        pending.forEach((provider, set) -> {
            ChunkSet s = new ChunkSet(set.total);
            System.arraycopy(set.chunks, 0, s.chunks, 0, set.total);
            s.received = set.received;
            c.pending.put(provider, s);
        });
        c.problems.addAll(problems);
        return c;
    }

    /** Registers the providers of a manifest file. */
    public List<ProviderManifest> register(Path manifestFile) throws IOException {
        List<ProviderManifest> providers = ManifestParser.parse(manifestFile);
        providers.forEach(this::register);
        return providers;
    }

    /**
     * Registers (or replaces, see the class comment) one provider. A CLR provider is stored with the value names
     * of etw4j's CLR supplement added where its maps lack them; layouts are never changed, except that an event
     * the manifest declares with an empty template takes the supplement's when it has one, and an array the
     * manifest counts with a placeholder literal is counted as the supplement says (ClrStackWalk's Stack by
     * FrameCount; see {@code ClrSupplement} for the precedence rules).
     */
    public synchronized void register(ProviderManifest provider) {
        ProviderManifest old = byGuid.get(provider.guid());
        if (old != null && old.source() == SchemaSource.MANIFEST && provider.source() != SchemaSource.MANIFEST) {
            return;
        }
        byGuid.put(provider.guid(), ClrSupplement.extend(provider));
    }

    /** The manifest of {@code provider}, or {@code null}. */
    public ProviderManifest provider(Guid provider) {
        return byGuid.get(provider);
    }

    /** Number of known providers. */
    public int size() {
        return byGuid.size();
    }

    /** Problems met while assembling in-band manifests (oldest first), for diagnostics. */
    public synchronized List<String> problems() {
        return List.copyOf(problems);
    }

    /**
     * Feeds a KernelTraceControl MetaData event ({@link TdhMetadata}): an EventInfo registers the schema it
     * describes, an EventMapInfo a provider's value/bit map. Malformed blobs are recorded in {@link #problems()}.
     *
     * @return the parsed description (an {@link TdhMetadata.EventInfo} or {@link TdhMetadata.MapInfo}), or
     *         {@code null} when the event is not one of these or could not be parsed
     */
    public Object offerMetadataEvent(Guid eventClass, int opcode, ByteBuffer userData) {
        if (!TdhMetadata.METADATA_CLASS.equals(eventClass)) {
            return null;
        }
        try {
            if (opcode == TdhMetadata.OPCODE_EVENT_INFO) {
                TdhMetadata.EventInfo info = TdhMetadata.parseEventInfo(userData);
                // the trace's metadata holds the manifest's templates: CLR placeholder counts are corrected as
                // for a registered manifest (ClrSupplement.correctCounts: ClrStackWalk's Stack by FrameCount)
                EventSchema s = ClrSupplement.correctCounts(info);
                metadata.put(new MetaKey(s.providerId(), s.eventId(), s.version(), info.classic()), s);
                metadataGeneration.incrementAndGet();
                return info;
            }
            if (opcode == TdhMetadata.OPCODE_EVENT_MAP_INFO) {
                TdhMetadata.MapInfo map = TdhMetadata.parseMapInfo(userData);
                if (map != null) {
                    metadataMaps.computeIfAbsent(map.provider(), k -> new ConcurrentHashMap<>())
                            .put(map.map().name(), map.map());
                }
                return map;
            }
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            synchronized (this) {
                problems.add("TDH metadata event (opcode " + opcode + ") not parsed: " + e.getMessage());
            }
        }
        return null;
    }

    /** The TDH-metadata schema of a manifest-style event, or {@code null}. */
    public EventSchema metadataSchema(Guid provider, int id, int version) {
        return metadataLookup(provider, id, version, false);
    }

    /** The TDH-metadata schema of a classic event, or {@code null}. */
    public EventSchema metadataClassicSchema(Guid eventClass, int opcode, int version) {
        return metadataLookup(eventClass, opcode, version, true);
    }

    /** Bumped after every change of {@link #metadata}: entries of {@link #metadataHits} from before are stale. */
    private final java.util.concurrent.atomic.AtomicLong metadataGeneration = new java.util.concurrent.atomic.AtomicLong();

    /** A schema found in {@link #metadata}, with the generation it was found in. */
    private record MetaHit(Guid provider, int id, int version, boolean classic, long generation, EventSchema schema) {
    }

    /**
     * Recent answers of {@link #metadata} (direct-mapped; immutable entries, so threads may race on a slot): the
     * lookup key would be the only object made per event when a view decodes in place.
     */
    private final MetaHit[] metadataHits = new MetaHit[1024];

    private EventSchema metadataLookup(Guid provider, int id, int version, boolean classic) {
        long generation = metadataGeneration.get();
        int slot = (provider.hashCode() * 31 + id * 257 + version) & (metadataHits.length - 1);
        MetaHit h = metadataHits[slot];
        if (h != null && h.generation() == generation && h.id() == id && h.version() == version
                && h.classic() == classic && h.provider().equals(provider)) {
            return h.schema();
        }
        EventSchema s = metadata.get(new MetaKey(provider, id, version, classic));
        // answers without a schema too (kernel classes without layout ask each time): the generation voids them
        metadataHits[slot] = new MetaHit(provider, id, version, classic, generation, s);
        return s;
    }

    /** The value/bit maps the trace's metadata defines for {@code provider} (empty when none). */
    public Map<String, ValueMap> metadataMaps(Guid provider) {
        Map<String, ValueMap> m = metadataMaps.get(provider);
        return m == null ? Map.of() : Map.copyOf(m);
    }

    /**
     * The live, read-only maps of {@code provider} (empty when none), for decoding: {@link #metadataMaps} copies
     * them, which cost more than decoding the event when done per event.
     */
    Map<String, ValueMap> metadataMapsView(Guid provider) {
        Map<String, ValueMap> v = metadataMapViews.get(provider);
        if (v != null) {
            return v;
        }
        Map<String, ValueMap> m = metadataMaps.get(provider);
        if (m == null) {
            return Map.of();
        }
        // a read-only view over the live map (entries are never replaced): made once per provider
        return metadataMapViews.computeIfAbsent(provider, k -> java.util.Collections.unmodifiableMap(m));
    }

    /** {@link #metadataMapsView}'s answers. */
    private final Map<Guid, Map<String, ValueMap>> metadataMapViews = new ConcurrentHashMap<>();

    /** Number of TDH-metadata event schemas harvested. */
    public int metadataSize() {
        return metadata.size();
    }

    /** Whether {@code userData} starts with a valid ManifestEnvelope. */
    public static boolean isEnvelope(ByteBuffer userData) {
        ByteBuffer b = userData.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int p = b.position();
        if (b.remaining() < ENVELOPE_SIZE || (b.get(p + 3) & 0xFF) != ENVELOPE_MAGIC) {
            return false;
        }
        int total = b.getShort(p + 4) & 0xFFFF;
        int number = b.getShort(p + 6) & 0xFFFF;
        return total > 0 && number < total;
    }

    /**
     * Offers an event to the in-band manifest harvester. Events other than id 0xFFFE with a valid envelope are
     * ignored ({@link Offer#NOT_A_MANIFEST}).
     *
     * @param provider the event's provider id
     * @param eventId  the event id
     * @param userData the event's user data (position to limit; not modified)
     */
    public synchronized Offer offerManifestEvent(Guid provider, int eventId, ByteBuffer userData) {
        if (eventId != MANIFEST_EVENT_ID || !isEnvelope(userData)) {
            return Offer.NOT_A_MANIFEST;
        }
        ByteBuffer b = userData.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int p = b.position();
        int format = b.get(p) & 0xFF;
        int total = b.getShort(p + 4) & 0xFFFF;
        int number = b.getShort(p + 6) & 0xFFFF;
        if (format != 1) {
            problems.add("provider " + provider + ": manifest format " + format + " is not SimpleXml (1); ignored");
            return Offer.FAILED;
        }
        byte[] chunk = new byte[b.remaining() - ENVELOPE_SIZE];
        b.get(p + ENVELOPE_SIZE, chunk);

        ChunkSet set = pending.get(provider);
        if (set == null || set.total != total || number == 0) {
            set = new ChunkSet(total);
            pending.put(provider, set);
        }
        if (set.chunks[number] == null) {
            set.received++;
        }
        set.chunks[number] = chunk;
        if (set.received < set.total) {
            return Offer.CHUNK_STORED;
        }
        pending.remove(provider);
        int size = 0;
        for (byte[] c : set.chunks) {
            size += c.length;
        }
        byte[] xml = new byte[size];
        int at = 0;
        for (byte[] c : set.chunks) {
            System.arraycopy(c, 0, xml, at, c.length);
            at += c.length;
        }
        // EventSource pads the XML with NULs in some versions: cut at the first one.
        int end = 0;
        while (end < xml.length && xml[end] != 0) {
            end++;
        }
        if (end < xml.length) {
            xml = java.util.Arrays.copyOf(xml, end);
        }
        List<ProviderManifest> parsed;
        try {
            parsed = ManifestParser.parse(xml, SchemaSource.EVENT_SOURCE_MANIFEST);
        } catch (IOException | RuntimeException e) {
            problems.add("provider " + provider + ": in-band manifest could not be parsed: " + e.getMessage());
            return Offer.FAILED;
        }
        boolean changed = false;
        for (ProviderManifest m : parsed) {
            ProviderManifest old = byGuid.get(m.guid());
            if (old == null || !old.equals(ClrSupplement.extend(m))) {
                register(m);
                changed = true;
            }
        }
        return changed ? Offer.REGISTERED : Offer.UNCHANGED;
    }
}
