package org.etw4j.junit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.opentest4j.AssertionFailedError;

/**
 * Fluent checks over the events a {@link CapturedEvents} held when {@link CapturedEvents#assertThat()} was called
 * (in the manner of AssertJ: each check returns this, or an {@link EventAssert} to narrow on one kind of event).
 * A failed check throws {@link AssertionFailedError} whose message says what was expected and lists the events
 * that were captured (the first {@value EventListing#LIMIT}, with the total).
 *
 * <p>Not thread-safe; use from the test's thread. Works on a fixed snapshot.
 */
public final class EventsAssert {
    private final CapturedEvents source;
    private final List<EventRecord> events;

    EventsAssert(CapturedEvents source, List<EventRecord> events) {
        this.source = source;
        this.events = events;
    }

    /** The events checked, in delivery order. */
    public List<EventRecord> events() {
        return events;
    }

    /** Exactly {@code count} events were captured. */
    public EventsAssert hasSize(int count) {
        if (events.size() != count) {
            throw fail("expected " + count + " captured events, got " + events.size());
        }
        return this;
    }

    /** No event was captured. */
    public EventsAssert isEmpty() {
        if (!events.isEmpty()) {
            throw fail("expected no captured event, got " + events.size());
        }
        return this;
    }

    /** At least one event named {@code eventName}; narrow further on the returned {@link EventAssert}. */
    public EventAssert hasEvent(String eventName) {
        Objects.requireNonNull(eventName, "eventName");
        List<EventRecord> named = named(eventName);
        if (named.isEmpty()) {
            throw fail("expected an event named \"" + eventName + "\", but none was captured; names captured: " + countsByName());
        }
        return new EventAssert(this, "named \"" + eventName + "\"", named);
    }

    /** Exactly {@code count} events named {@code eventName}. */
    public EventsAssert hasCount(String eventName, int count) {
        int n = named(eventName).size();
        if (n != count) {
            throw fail("expected " + count + " events named \"" + eventName + "\", got " + n + "; names captured: " + countsByName());
        }
        return this;
    }

    /** No event named {@code eventName}. */
    public EventsAssert doesNotHaveEvent(String eventName) {
        List<EventRecord> named = named(eventName);
        if (!named.isEmpty()) {
            throw fail("expected no event named \"" + eventName + "\", got " + named.size() + ", the first: " + line(named.get(0)));
        }
        return this;
    }

    /** Some event satisfies {@code condition} ({@code description} says what, for the message). */
    public EventsAssert anySatisfies(String description, Predicate<? super EventRecord> condition) {
        if (events.stream().noneMatch(condition)) {
            throw fail("expected an event that " + description + ", none does");
        }
        return this;
    }

    /** Every event satisfies {@code condition}. */
    public EventsAssert allSatisfy(String description, Predicate<? super EventRecord> condition) {
        for (EventRecord e : events) {
            if (!condition.test(e)) {
                throw fail("expected every event to " + description + ", but not " + line(e));
            }
        }
        return this;
    }

    /**
     * Events named {@code eventNames} occur in this order (other events may come between), ordered by their
     * timestamps: on real ETW a real-time session delivers buffer by buffer, per processor, so delivery order is
     * not time order across threads. Each name is matched by the first event after the previous match.
     */
    public EventsAssert containsInOrder(String... eventNames) {
        List<EventRecord> byTime = byTime();
        int at = 0;
        for (String name : eventNames) {
            while (at < byTime.size() && !name.equals(byTime.get(at).eventName())) {
                at++;
            }
            if (at == byTime.size()) {
                throw fail("expected events named " + Arrays.toString(eventNames) + " in this order; \"" + name
                        + "\" does not follow the ones before it; names in time order: " + names(byTime));
            }
            at++;
        }
        return this;
    }

    /** The names of all events, in time order, are exactly {@code eventNames}. */
    public EventsAssert containsExactlyInOrder(String... eventNames) {
        List<String> actual = names(byTime());
        if (!actual.equals(List.of(eventNames))) {
            throw fail("expected exactly the events " + Arrays.toString(eventNames) + " in this order, got " + actual);
        }
        return this;
    }

    /**
     * No event is more severe than {@code level}: none with a level from 1 ({@code CRITICAL}) to {@code level - 1}
     * (ETW levels grow with detail; level 0, "log always", carries no severity and passes).
     */
    public EventsAssert hasNoEventMoreSevereThan(Level level) {
        for (EventRecord e : events) {
            if (e.level() >= 1 && e.level() < level.value()) {
                throw fail("expected no event more severe than " + level + " (level " + level.value() + "), but: " + line(e));
            }
        }
        return this;
    }

    /** No event is more detailed than {@code level}: none with a level above {@code level}'s value. */
    public EventsAssert hasNoEventMoreVerboseThan(Level level) {
        for (EventRecord e : events) {
            if (e.level() > level.value()) {
                throw fail("expected no event more detailed than " + level + " (level " + level.value() + "), but: " + line(e));
            }
        }
        return this;
    }

    /** The session reported no lost events. */
    public EventsAssert hasNoLostEvents() {
        long lost = source.lostEvents();
        if (lost != 0) {
            throw fail("expected no lost events, the session reported " + lost);
        }
        return this;
    }

    /**
     * One activity holds an event of each name: some non-null activity id is carried by an event named
     * {@code eventNames[0]}, one named {@code eventNames[1]}, and so on. Returns that activity id's events.
     */
    public EventsAssert hasActivityWith(String... eventNames) {
        Map<Guid, List<EventRecord>> byActivity = byActivity();
        for (List<EventRecord> inOne : byActivity.values()) {
            if (Arrays.stream(eventNames).allMatch(n -> inOne.stream().anyMatch(e -> n.equals(e.eventName())))) {
                return this;
            }
        }
        throw fail("expected one activity id carried by events named " + Arrays.toString(eventNames) + "; activities captured: "
                + activitySummary(byActivity));
    }

    /**
     * An activity started inside another: an event named {@code childStartEvent} whose related activity id is the
     * activity id of an event named {@code parentEvent} (the START event of a nested activity carries its parent's
     * id as related activity id; MS Learn, EVENT_DESCRIPTOR structure, member "Opcode", and EventWriteTransfer's RelatedActivityId).
     */
    public EventsAssert hasChildActivity(String parentEvent, String childStartEvent) {
        List<EventRecord> parents = named(parentEvent);
        for (EventRecord c : named(childStartEvent)) {
            Guid related = c.relatedActivityId();
            if (related.isNull() || related.equals(c.activityId())) {
                continue;
            }
            for (EventRecord p : parents) {
                if (related.equals(p.activityId())) {
                    return this;
                }
            }
        }
        throw fail("expected an event named \"" + childStartEvent + "\" whose related activity id is the activity id of an event named \""
                + parentEvent + "\"; activities captured: " + activitySummary(byActivity()));
    }

    // ------------------------------------------------------------------------------------ helpers

    List<EventRecord> named(String eventName) {
        return events.stream().filter(e -> eventName.equals(e.eventName())).toList();
    }

    private List<EventRecord> byTime() {
        List<EventRecord> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparingLong(EventRecord::timestampRaw)); // stable: delivery order breaks ties
        return sorted;
    }

    private static List<String> names(List<EventRecord> list) {
        return list.stream().map(EventRecord::eventName).toList();
    }

    private String countsByName() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (EventRecord e : events) {
            counts.merge(e.eventName(), 1, Integer::sum);
        }
        return counts.toString();
    }

    private Map<Guid, List<EventRecord>> byActivity() {
        Map<Guid, List<EventRecord>> m = new LinkedHashMap<>();
        for (EventRecord e : events) {
            if (!e.activityId().isNull()) {
                m.computeIfAbsent(e.activityId(), k -> new ArrayList<>()).add(e);
            }
        }
        return m;
    }

    private static String activitySummary(Map<Guid, List<EventRecord>> byActivity) {
        if (byActivity.isEmpty()) {
            return "none (no event carries an activity id)";
        }
        StringBuilder sb = new StringBuilder();
        byActivity.forEach((id, list) -> {
            sb.append("\n  ").append(id).append(": ").append(names(list));
            Guid related = list.stream().map(EventRecord::relatedActivityId).filter(g -> !g.isNull()).findFirst().orElse(null);
            if (related != null) {
                sb.append(" (related ").append(related).append(')');
            }
        });
        return sb.toString();
    }

    static String line(EventRecord e) {
        return EventListing.line(new StringBuilder(), e).toString();
    }

    /** A failure whose message ends with the listing of the captured events. */
    AssertionFailedError fail(String message) {
        return new AssertionFailedError(message + "\n" + EventListing.of(events, source.lostEvents(),
                "session " + source.sessionName() + ", " + source.describeSettings()));
    }
}
