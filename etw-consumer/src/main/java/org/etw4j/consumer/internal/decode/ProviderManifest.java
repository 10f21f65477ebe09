package org.etw4j.consumer.internal.decode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.etw4j.Guid;
import org.etw4j.consumer.SchemaSource;

/**
 * The decoding view of one {@code <provider>} of an instrumentation manifest: its events keyed by
 * {@code (id, version)}, with templates, value maps and localized names already resolved.
 * Immutable; thread-safe. Built by {@link ManifestParser}.
 *
 * @param guid     provider GUID
 * @param name     provider name
 * @param events   event schemas by key
 * @param keywords keyword mask to keyword name
 * @param source   {@link SchemaSource#MANIFEST} or {@link SchemaSource#EVENT_SOURCE_MANIFEST}
 */
public record ProviderManifest(Guid guid, String name, Map<EventKey, EventSchema> events, Map<Long, String> keywords,
                               SchemaSource source) {

    /**
     * The identity of an event inside a provider.
     *
     * <p>Immutable value; thread-safe.
     *
     * @param id      event id
     * @param version event version
     */
    public record EventKey(int id, int version) {
    }

    public ProviderManifest {
        Objects.requireNonNull(guid, "guid");
        Objects.requireNonNull(name, "name");
        events = Map.copyOf(events);
        keywords = Map.copyOf(keywords);
        Objects.requireNonNull(source, "source");
    }

    /** The schema for exactly {@code (id, version)}, or {@code null}. */
    public EventSchema event(int id, int version) {
        return events.get(new EventKey(id, version));
    }

    /**
     * The schema with the same id and the highest version not above {@code version}, or {@code null}. Events
     * only ever add fields at the end when their version grows, so an older template reads a prefix of a newer
     * event's payload; callers must say that they did this.
     */
    public EventSchema nearestOlder(int id, int version) {
        EventSchema best = null;
        for (EventSchema s : events.values()) {
            if (s.eventId() == id && s.version() <= version && (best == null || s.version() > best.version())) {
                best = s;
            }
        }
        return best;
    }

    /** All event schemas, ordered by id then version. */
    public List<EventSchema> schemas() {
        List<EventSchema> l = new ArrayList<>(events.values());
        l.sort(Comparator.comparingInt(EventSchema::eventId).thenComparingInt(EventSchema::version));
        return l;
    }

    /** Number of events. */
    public int size() {
        return events.size();
    }
}
