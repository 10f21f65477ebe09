package org.etw4j.consumer.internal.decode;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.format.EventHeaderLayout;

/**
 * The schemas the consuming machine's TDH has for live events that nothing else describes, asked for once per
 * event kind (provider, id, version, opcode) and kept: {@link RawEventRecord#eventInformation()} read with the
 * same TRACE_EVENT_INFO reader as in-trace metadata ({@link TdhMetadata#parseEventInfo}), so names, types and
 * sizes follow the decoder's usual rules; the value maps its fields name come from
 * {@link RawEventRecord#eventMapInformation(String)} ({@link TdhMetadata#parseMapInfo}; manifest value and bit
 * maps only). The schema says {@link SchemaSource#TDH_LIVE}.
 *
 * <p>Thread-safe; reusable; nothing to close. A warm lookup is lock-free and allocates nothing (a concurrent map
 * by provider, then a binary search over that provider's sorted packed keys, replaced copy-on-write when a kind
 * is added). Misses are kept too (with the note that explains them), so TDH is not asked again about a kind it
 * does not know; failures likewise (a failing TDH would otherwise be called for every event). Records that
 * cannot ask ({@link RawEventRecord#providesEventInformation()} false: copies, .etl records, other backends) get
 * no answer and leave nothing behind. At most {@link #MAX_KINDS} kinds are kept; beyond, TDH is asked each time.
 * Events carrying their own TraceLogging schema are never kept (the same descriptor may mean different schemas).
 * A manifest registered on the machine while the decoder runs is not seen for kinds already looked up.
 */
final class LiveTdhSchemas {
    static final int MAX_KINDS = 1 << 16;

    /**
     * What TDH said about one kind: a schema, or {@code null} with the reason in {@code notes}.
     * Immutable value; thread-safe.
     */
    record Answer(EventSchema schema, List<String> notes) {
        Answer {
            notes = List.copyOf(notes);
        }
    }

    /** One provider's kinds: sorted packed keys and their answers, replaced together. */
    private record Table(int[] keys, Answer[] answers) {
        static final Table EMPTY = new Table(new int[0], new Answer[0]);

        Answer get(int key) {
            int i = Arrays.binarySearch(keys, key);
            return i >= 0 ? answers[i] : null;
        }

        Table with(int key, Answer answer) {
            int i = Arrays.binarySearch(keys, key);
            if (i >= 0) {
                return this;
            }
            int at = -i - 1;
            int[] k = new int[keys.length + 1];
            Answer[] a = new Answer[keys.length + 1];
            System.arraycopy(keys, 0, k, 0, at);
            System.arraycopy(answers, 0, a, 0, at);
            k[at] = key;
            a[at] = answer;
            System.arraycopy(keys, at, k, at + 1, keys.length - at);
            System.arraycopy(answers, at, a, at + 1, keys.length - at);
            return new Table(k, a);
        }
    }

    /** A provider's table; writers synchronize on it, readers read the volatile field. */
    private static final class Kinds {
        volatile Table table = Table.EMPTY;
    }

    private final ConcurrentHashMap<Guid, Kinds> providers = new ConcurrentHashMap<>();
    private final AtomicInteger kept = new AtomicInteger();
    private final AtomicLong asked = new AtomicLong();

    /** The packed key of an event kind: id, version and opcode in one int. */
    static int key(int id, int version, int opcode) {
        return (id & 0xFFFF) | (version & 0xFF) << 16 | (opcode & 0xFF) << 24;
    }

    /**
     * What TDH says about {@code r} (of {@code provider}, its provider or event-class id), from the cache or by
     * asking now; {@code null} when {@code r} cannot ask. Never throws: TDH failures and malformed answers become
     * an answer without schema and with a note.
     */
    Answer find(RawEventRecord r, Guid provider) {
        int key = key(r.id(), r.version(), r.opcode());
        Kinds kinds = providers.get(provider);
        if (kinds != null) {
            Answer a = kinds.table.get(key);
            if (a != null) {
                return a;
            }
        }
        if (!r.providesEventInformation()) {
            return null;
        }
        Answer a = ask(r, provider);
        if (!hasTraceLoggingSchema(r) && kept.get() < MAX_KINDS) {
            Kinds k = providers.computeIfAbsent(provider, g -> new Kinds());
            synchronized (k) {
                Table before = k.table;
                Table after = before.with(key, a);
                if (after != before) {
                    k.table = after;
                    kept.incrementAndGet();
                }
            }
        }
        return a;
    }

    /** How many times TDH was asked (through {@link RawEventRecord#eventInformation()}). */
    long asked() {
        return asked.get();
    }

    /** How many kinds are kept. */
    int size() {
        return kept.get();
    }

    private Answer ask(RawEventRecord r, Guid provider) {
        asked.incrementAndGet();
        ByteBuffer info;
        try {
            info = r.eventInformation();
        } catch (RuntimeException e) {
            return new Answer(null, List.of("TDH lookup failed: " + e.getMessage()));
        }
        if (info == null) {
            return new Answer(null, List.of("the machine's TDH has no schema for it either (ERROR_NOT_FOUND)"));
        }
        EventSchema s;
        try {
            // TDH answers with the registered manifest's templates: CLR placeholder counts corrected as for one
            // given to etw4j (ClrSupplement.correctCounts: ClrStackWalk's Stack by FrameCount)
            s = ClrSupplement.correctCounts(TdhMetadata.parseEventInfo(info));
        } catch (RuntimeException e) {
            return new Answer(null, List.of("TDH's TRACE_EVENT_INFO for it is malformed: " + e.getMessage()));
        }
        List<String> notes = new ArrayList<>();
        Map<String, ValueMap> maps = new HashMap<>();
        for (String name : mapNames(s.fields(), new ArrayList<>())) {
            if (!maps.containsKey(name)) {
                ValueMap m = map(r, name, notes);
                if (m != null) {
                    maps.put(name, m);
                }
            }
        }
        EventSchema live = new EventSchema(s.providerId(), s.providerName(), s.eventId(), s.version(), s.task(),
                s.opcode(), s.taskName(), s.opcodeName(), s.eventName(), s.message(), s.fields(), maps,
                SchemaSource.TDH_LIVE);
        return new Answer(live, notes);
    }

    /** The map TDH has under {@code name}, or null with a note (fields then show their numbers). */
    private static ValueMap map(RawEventRecord r, String name, List<String> notes) {
        try {
            ByteBuffer blob = r.eventMapInformation(name);
            if (blob == null) {
                notes.add("value map " + name + " not found by TDH: values shown as numbers");
                return null;
            }
            // parseMapInfo reads the EventMapInfo event's payload: a provider GUID (unused here) then the blob.
            ByteBuffer payload = ByteBuffer.allocate(16 + blob.remaining()).order(ByteOrder.LITTLE_ENDIAN);
            payload.put(16, blob.duplicate(), blob.position(), blob.remaining());
            TdhMetadata.MapInfo info = TdhMetadata.parseMapInfo(payload);
            if (info == null) {
                notes.add("value map " + name + " is of a kind etw4j does not read (only manifest value and bit"
                        + " maps): values shown as numbers");
                return null;
            }
            return info.map();
        } catch (RuntimeException e) {
            notes.add("value map " + name + " could not be read from TDH: " + e.getMessage());
            return null;
        }
    }

    private static List<String> mapNames(List<FieldSpec> fields, List<String> out) {
        for (FieldSpec f : fields) {
            if (f instanceof DataSpec d && d.mapName() != null) {
                out.add(d.mapName());
            } else if (f instanceof StructSpec st) {
                mapNames(st.members(), out);
            }
        }
        return out;
    }

    private static boolean hasTraceLoggingSchema(RawEventRecord r) {
        for (int i = 0, n = r.extendedDataCount(); i < n; i++) {
            if (r.extendedDataType(i) == EventHeaderLayout.EXT_EVENT_SCHEMA_TL) {
                return true;
            }
        }
        return false;
    }
}
