package org.etw4j.consumer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventView;
import org.etw4j.consumer.internal.EventRecordAccess;
import org.etw4j.consumer.output.JsonWriter;

/**
 * How many events of each kind were not decoded, with why: per (provider, event id, opcode, version) of the
 * events a decoder returned with {@link SchemaSource#NONE}, and of those whose schema has no field for a payload
 * that is there (e.g. the empty template ClrEtwAll.man gives the private GC/PerHeapHistory of .NET 4.5). A classic
 * kernel event is keyed by its event-class GUID and opcode; its id is 0. What {@code etw summary} lists so that a
 * user sees the gap instead of raw bytes.
 *
 * <p>An accumulator: not thread-safe; {@link #add} for each event (or {@link TraceFile#undecoded()}, which fills one
 * while it reads), then {@link #kinds}. Nothing to close.
 */
public final class UndecodedEvents {

    /**
     * One kind of undecoded event (immutable value).
     *
     * @param provider     the provider GUID (the event-class GUID of a classic event)
     * @param providerName the provider's name as the decoder gave it (the GUID's text when nothing names it)
     * @param eventName    the name the decoder gave it ({@code EventID(n)}, {@code Task/Opcode(n)})
     * @param id           the event id (0 for classic events)
     * @param opcode       the opcode
     * @param version      the event version
     * @param why          the decoder's note saying why nothing described it ("" when it gave none)
     * @param count        how many events of this kind were added
     */
    public record Kind(Guid provider, String providerName, String eventName, int id, int opcode, int version,
                       String why, long count) {
    }

    private record Key(Guid provider, int id, int opcode, int version) {
    }

    private static final class Tally {
        final String providerName;
        final String eventName;
        final String why;
        long count;

        Tally(String providerName, String eventName, String why) {
            this.providerName = providerName;
            this.eventName = eventName;
            this.why = why;
        }
    }

    private final Map<Key, Tally> tallies = new HashMap<>();
    private long total;

    /**
     * Counts {@code e} when no schema described it; does nothing otherwise. Reads {@code e}'s decoded form (decoding it
     * when it is not yet) during the call only.
     */
    public void add(EventRecord e) {
        add(EventRecordAccess.view(e));
    }

    /** Counts {@code e} when no schema described it; does nothing otherwise. Reads {@code e} during the call only. */
    void add(EventView e) {
        if (e.source() == SchemaSource.NONE) {
            count(e.providerId(), e.providerName(), e.eventName(), e.eventId(), e.opcode(), e.version(), e.notes());
        } else if (e.fieldCount() == 0 && e.undecodedLength() > 0) {
            count(e.providerId(), e.providerName(), e.eventName(), e.eventId(), e.opcode(), e.version(),
                    List.of(noField(e.source())));
        }
    }

    /** Counts {@code e} when no schema described it; does nothing otherwise. */
    void add(DecodedEvent e) {
        if (e.source() == SchemaSource.NONE) {
            count(e.providerId(), e.providerName(), e.eventName(), e.eventId(), e.opcode(), e.version(), e.notes());
        } else if (e.fields().isEmpty() && e.undecodedLength() > 0) {
            count(e.providerId(), e.providerName(), e.eventName(), e.eventId(), e.opcode(), e.version(),
                    List.of(noField(e.source())));
        }
    }

    private static String noField(SchemaSource source) {
        return "the schema (" + source + ") has no field for the payload";
    }

    private void count(Guid provider, String providerName, String eventName, int id, int opcode, int version,
                       List<String> notes) {
        total++;
        tallies.computeIfAbsent(new Key(provider, id, opcode, version),
                k -> new Tally(providerName, eventName, String.join("; ", notes))).count++;
    }

    /** Undecoded events counted in all. */
    public long total() {
        return total;
    }

    /** The kinds counted, most frequent first (then by provider name, id, opcode, version). */
    public List<Kind> kinds() {
        List<Kind> out = new ArrayList<>();
        tallies.forEach((k, t) -> out.add(new Kind(k.provider(), t.providerName, t.eventName, k.id(), k.opcode(),
                k.version(), t.why, t.count)));
        out.sort(Comparator.comparingLong(Kind::count).reversed().thenComparing(Kind::providerName)
                .thenComparingInt(Kind::id).thenComparingInt(Kind::opcode).thenComparingInt(Kind::version));
        return out;
    }

    /** Writes {@link #kinds} as a JSON array of objects (provider, providerName, event, id, opcode, version, count, why). */
    public void writeJson(JsonWriter w) {
        w.beginArray();
        for (Kind k : kinds()) {
            w.beginObject();
            w.member("provider", k.provider().toString());
            w.member("providerName", k.providerName());
            w.member("event", k.eventName());
            w.member("id", k.id());
            w.member("opcode", k.opcode());
            w.member("version", k.version());
            w.member("count", k.count());
            w.member("why", k.why());
            w.endObject();
        }
        w.endArray();
    }
}
