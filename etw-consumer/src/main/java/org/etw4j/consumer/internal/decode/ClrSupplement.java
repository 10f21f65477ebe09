package org.etw4j.consumer.internal.decode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.etw4j.Guid;
import org.etw4j.consumer.SchemaSource;

/**
 * Built-in schemas and value names for CLR events newer than the ClrEtwAll.man in circulation, written by etw4j
 * (resource {@code clr-supplement.man}; its comments name the source of every group: the .NET runtime's own
 * manifest {@code src/coreclr/vm/ClrEtwAll.man}, runtime headers, or TraceEvent's display names where no manifest
 * names a value).
 *
 * <p>Immutable after class initialization; thread-safe; nothing to close.
 *
 * <p>Precedence (the application's manifest always decides the layout of an event it defines):
 * <ol>
 *   <li><b>Events.</b> {@link #event} gives the supplement's schema for an exact (provider, id, version). The
 *       decoder asks for it only when the registry's manifest lacks that key, before it falls back to an older
 *       template of the same id.</li>
 *   <li><b>Value names.</b> {@link #extend} is applied by {@link ManifestRegistry#register(ProviderManifest)} to
 *       every manifest of a provider the supplement knows. It never changes a field's position or type, and
 *       never renames a value the manifest names; it only adds:
 *       <ul>
 *         <li>to a value/bit map of the manifest, the entries of the supplement's map <em>of the same name and
 *             kind</em> (any supplement event of the provider may carry it) for values the manifest's map lacks
 *             (e.g. GCSegmentTypeMap 3, ModuleFlagsMap 0x20);</li>
 *         <li>to a field the manifest leaves without a map, the map the supplement gives the same field of the
 *             same (id, version), but only when the supplement's template has exactly the manifest's layout
 *             (same field names, in-types, lengths, counts and structs, in order).</li>
 *       </ul>
 *   </li>
 * </ol>
 * A supplement event for a key the manifest also defines therefore contributes names only; it is written with the
 * runtime's full template so that it is also correct on its own (for a manifest that lacks the key). Two
 * exceptions:
 * <ul>
 *   <li><b>Empty templates.</b> Where the manifest's template for the key is empty (no field at all) and the
 *       supplement's is not, the supplement's fields decode the event (the private GC/PerHeapHistory version 2,
 *       whose template ClrEtwAll.man leaves empty although .NET 4.5 writes a payload); the event keeps the
 *       manifest's names and reports {@link SchemaSource#BUILT_IN}.</li>
 *   <li><b>Placeholder counts</b> ({@link #correctCounts}). Where the manifest gives an array a literal count and
 *       the supplement's template of the key counts the same array by an earlier field, layouts otherwise
 *       identical, the supplement's count replaces the literal. This is the CLR stack event ClrStackWalk of all
 *       four CLR providers (runtime 82, rundown 0, stress 1, private 151): ClrEtwAll.man (lines 1743, 3483, 3827,
 *       4187) declares {@code <data name="Stack" count="2" inType="win:Pointer"/>}, while the runtime writes
 *       FrameCount pointers (dotnet/runtime {@code src/coreclr/inc/eventtracebase.h},
 *       {@code ETW::SamplingLog::SendStackTrace}: a Stack descriptor of {@code sizeof(PVOID) * FrameCount} bytes)
 *       and TraceEvent reads all of them (microsoft/perfview f3ec1b38,
 *       {@code src/TraceEvent/Parsers/ClrTraceEventParser.cs}, {@code ClrStackWalkTraceData.InstructionPointer(i)}
 *       at {@code 8 + i * PointerSize} for {@code i < FrameCount}). Windows' TDH, given that manifest (or the TDH
 *       metadata a merged trace carries, which holds the same template), decodes two frames and ignores the rest;
 *       etw4j follows the runtime and TraceEvent, the decoder users compare CLR events against, so that the whole
 *       stack is a field rather than undecoded bytes. The same correction applies to the trace's TDH metadata
 *       ({@link ManifestRegistry#offerMetadataEvent}) and to the live machine's TDH answers
 *       ({@link LiveTdhSchemas}). The event keeps its manifest's (or metadata's) names and
 *       source: only the count differs.</li>
 * </ul>
 */
final class ClrSupplement {

    private static final String RESOURCE = "clr-supplement.man";
    private static final Map<Guid, ProviderManifest> PROVIDERS = load();
    /** Per provider: every map any supplement event refers to, by name. */
    private static final Map<Guid, Map<String, ValueMap>> MAPS = mapsByProvider(PROVIDERS);

    private ClrSupplement() {
    }

    /** The supplement's events of {@code provider}, or {@code null} (for tests and coverage tables). */
    static ProviderManifest provider(Guid provider) {
        return PROVIDERS.get(provider);
    }

    /** The supplement's schema for exactly {@code (provider, id, version)}, or {@code null}. */
    static EventSchema event(Guid provider, int id, int version) {
        ProviderManifest m = PROVIDERS.get(provider);
        return m == null ? null : m.event(id, version);
    }

    /**
     * {@code m} with the supplement's value names added (see the class comment), or {@code m} itself when the
     * supplement adds nothing to it.
     */
    static ProviderManifest extend(ProviderManifest m) {
        Map<String, ValueMap> supplementMaps = MAPS.get(m.guid());
        ProviderManifest supplement = PROVIDERS.get(m.guid());
        if (supplementMaps == null || supplement == null) {
            return m;
        }
        Map<ProviderManifest.EventKey, EventSchema> events = new HashMap<>(m.events());
        boolean changed = false;
        for (Map.Entry<ProviderManifest.EventKey, EventSchema> e : m.events().entrySet()) {
            EventSchema s = e.getValue();
            EventSchema same = supplement.event(s.eventId(), s.version());
            EventSchema extended;
            if (s.fields().isEmpty() && same != null && !same.fields().isEmpty()) {
                extended = filled(s, same);
            } else {
                EventSchema counted = same == null ? s : withCounts(s, same);
                extended = extend(counted, same != null && sameLayout(counted.fields(), same.fields()) ? same : null,
                        supplementMaps);
            }
            if (extended != s) {
                events.put(e.getKey(), extended);
                changed = true;
            }
        }
        return changed ? new ProviderManifest(m.guid(), m.name(), events, m.keywords(), m.source()) : m;
    }

    /**
     * {@code s} (a manifest's or TDH metadata's schema) with the placeholder counts the supplement corrects (see the
     * class comment: ClrStackWalk's Stack counted by FrameCount), or {@code s} itself when the supplement has no
     * event of its (provider, id, version) or no count to correct.
     */
    static EventSchema correctCounts(EventSchema s) {
        EventSchema same = event(s.providerId(), s.eventId(), s.version());
        return same == null ? s : withCounts(s, same);
    }

    /**
     * The schema of a TRACE_EVENT_INFO (the trace's TDH metadata, or the live machine's TDH answer), which holds
     * the manifest's templates: a manifest-style event's schema with {@link #correctCounts} applied.
     */
    static EventSchema correctCounts(TdhMetadata.EventInfo info) {
        return info.classic() ? info.schema() : correctCounts(info.schema());
    }

    /**
     * {@code s} with each top-level array's literal count replaced by the field reference its supplement twin
     * {@code same} gives, when that makes the two layouts identical; otherwise {@code s}.
     */
    private static EventSchema withCounts(EventSchema s, EventSchema same) {
        List<FieldSpec> mine = s.fields();
        List<FieldSpec> theirs = same.fields();
        if (mine.size() != theirs.size()) {
            return s;
        }
        List<FieldSpec> out = new ArrayList<>(mine.size());
        boolean changed = false;
        for (int i = 0; i < mine.size(); i++) {
            FieldSpec f = mine.get(i);
            if (f instanceof DataSpec d && theirs.get(i) instanceof DataSpec t && placeholder(d.count())
                    && t.count().isReference() && earlier(mine, i, t.count().fieldName())) {
                out.add(new DataSpec(d.name(), d.inType(), d.outType(), d.mapName(), d.length(), t.count(),
                        d.optional()));
                changed = true;
            } else {
                out.add(f);
            }
        }
        if (!changed || !sameLayout(out, theirs)) {
            return s;
        }
        return new EventSchema(s.providerId(), s.providerName(), s.eventId(), s.version(), s.task(), s.opcode(),
                s.taskName(), s.opcodeName(), s.eventName(), s.message(), List.copyOf(out), s.maps(), s.source());
    }

    /** A literal count (not absent, not a field reference, not "to the end"). */
    private static boolean placeholder(SizeRule count) {
        return count.present() && !count.isReference() && !count.isToEnd();
    }

    /** Whether a top-level field before index {@code i} of {@code fields} is called {@code name}. */
    private static boolean earlier(List<FieldSpec> fields, int i, String name) {
        for (int j = 0; j < i; j++) {
            if (fields.get(j).name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * An event the manifest declares with an empty template while the runtime writes a payload (the private
     * GC/PerHeapHistory version 2 of .NET 4.5): the manifest's names and message with the supplement's fields and
     * maps; {@link SchemaSource#BUILT_IN} says where the layout came from.
     */
    private static EventSchema filled(EventSchema s, EventSchema supplement) {
        return new EventSchema(s.providerId(), s.providerName(), s.eventId(), s.version(), s.task(), s.opcode(),
                s.taskName(), s.opcodeName(), s.eventName(), s.message(), supplement.fields(), supplement.maps(),
                SchemaSource.BUILT_IN);
    }

    /** {@code s} with maps from {@code sameKey} (a supplement event of identical layout, or null) and merged maps. */
    private static EventSchema extend(EventSchema s, EventSchema sameKey, Map<String, ValueMap> supplementMaps) {
        List<FieldSpec> fields = sameKey == null ? s.fields() : adoptMaps(s.fields(), sameKey.fields());
        Map<String, ValueMap> maps = new HashMap<>(s.maps());
        boolean changed = fields != s.fields();
        for (String name : mapNames(fields, new ArrayList<>())) {
            ValueMap mine = s.maps().get(name);
            ValueMap theirs = sameKey != null && sameKey.maps().containsKey(name) ? sameKey.maps().get(name)
                    : supplementMaps.get(name);
            ValueMap merged = merge(mine, theirs);
            if (merged != null && merged != mine) {
                maps.put(name, merged);
                changed = true;
            }
        }
        if (!changed) {
            return s;
        }
        return new EventSchema(s.providerId(), s.providerName(), s.eventId(), s.version(), s.task(), s.opcode(),
                s.taskName(), s.opcodeName(), s.eventName(), s.message(), fields, maps, s.source());
    }

    /** The manifest's map with the supplement's entries for values it lacks; {@code mine} when nothing is added. */
    private static ValueMap merge(ValueMap mine, ValueMap theirs) {
        if (theirs == null) {
            return mine;
        }
        if (mine == null) {
            return theirs;
        }
        if (mine.bitMap() != theirs.bitMap()) {
            return mine;
        }
        TreeMap<Long, String> entries = new TreeMap<>(mine.entries());
        boolean added = false;
        for (Map.Entry<Long, String> e : theirs.entries().entrySet()) {
            if (entries.putIfAbsent(e.getKey(), e.getValue()) == null) {
                added = true;
            }
        }
        return added ? new ValueMap(mine.name(), mine.bitMap(), entries) : mine;
    }

    /** The manifest's fields, each unmapped one taking the map of its supplement twin; same list if none does. */
    private static List<FieldSpec> adoptMaps(List<FieldSpec> mine, List<FieldSpec> theirs) {
        List<FieldSpec> out = new ArrayList<>(mine.size());
        boolean changed = false;
        for (int i = 0; i < mine.size(); i++) {
            FieldSpec f = mine.get(i);
            FieldSpec twin = theirs.get(i);
            if (f instanceof DataSpec d && twin instanceof DataSpec t && d.mapName() == null && t.mapName() != null) {
                out.add(new DataSpec(d.name(), d.inType(), d.outType(), t.mapName(), d.length(), d.count(),
                        d.optional()));
                changed = true;
            } else if (f instanceof StructSpec st && twin instanceof StructSpec tt) {
                List<FieldSpec> members = adoptMaps(st.members(), tt.members());
                changed |= members != st.members();
                out.add(members == st.members() ? st : new StructSpec(st.name(), members, st.count()));
            } else {
                out.add(f);
            }
        }
        return changed ? out : mine;
    }

    /** Whether two templates read the same bytes the same way (maps and rendering hints aside). */
    static boolean sameLayout(List<FieldSpec> a, List<FieldSpec> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            FieldSpec x = a.get(i);
            FieldSpec y = b.get(i);
            if (x instanceof DataSpec d && y instanceof DataSpec e) {
                if (!d.name().equals(e.name()) || d.inType() != e.inType() || !d.length().equals(e.length())
                        || !d.count().equals(e.count()) || d.optional() != e.optional()) {
                    return false;
                }
            } else if (x instanceof StructSpec s && y instanceof StructSpec t) {
                if (!s.name().equals(t.name()) || !s.count().equals(t.count())
                        || !sameLayout(s.members(), t.members())) {
                    return false;
                }
            } else {
                return false;
            }
        }
        return true;
    }

    private static List<String> mapNames(List<FieldSpec> fields, List<String> out) {
        for (FieldSpec f : fields) {
            if (f instanceof DataSpec d && d.mapName() != null && !out.contains(d.mapName())) {
                out.add(d.mapName());
            } else if (f instanceof StructSpec s) {
                mapNames(s.members(), out);
            }
        }
        return out;
    }

    private static Map<Guid, Map<String, ValueMap>> mapsByProvider(Map<Guid, ProviderManifest> providers) {
        Map<Guid, Map<String, ValueMap>> out = new HashMap<>();
        providers.forEach((guid, p) -> {
            Map<String, ValueMap> maps = new HashMap<>();
            for (EventSchema s : p.schemas()) {
                maps.putAll(s.maps());
            }
            out.put(guid, Map.copyOf(maps));
        });
        return Map.copyOf(out);
    }

    private static Map<Guid, ProviderManifest> load() {
        try (InputStream in = ClrSupplement.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " missing from org.etw4j.consumer.internal.decode");
            }
            // Through the manifest cache: a cold process then need not load the XML parser for it.
            List<ProviderManifest> providers = ManifestCache.shared().load(in.readAllBytes(), SchemaSource.BUILT_IN);
            Map<Guid, ProviderManifest> m = new HashMap<>();
            providers.forEach(p -> m.put(p.guid(), p));
            return Map.copyOf(m);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse built-in " + RESOURCE, e);
        }
    }
}
