package org.etw4j.junit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.Opcode;
import org.etw4j.consumer.EventRecord;

/**
 * Narrows the captured events to those matching every condition given so far ("an event named X with field Y = Z
 * and level L"); a condition no remaining event meets fails, saying what the candidates had instead. Field values
 * compare exactly (see {@link #withField}).
 *
 * <p>Not thread-safe; each call returns this (narrowed).
 */
public final class EventAssert {
    private final EventsAssert parent;
    private final StringBuilder conditions;
    private List<EventRecord> candidates;

    EventAssert(EventsAssert parent, String conditions, List<EventRecord> candidates) {
        this.parent = parent;
        this.conditions = new StringBuilder(conditions);
        this.candidates = candidates;
    }

    /**
     * The event has a field {@code name} (a dotted path reaches into structs) equal to {@code expected}: integral
     * numbers by value whatever their Java types (a UINT32 field decodes to a {@code Long}; {@code 7} matches it),
     * floating numbers by exact double value, byte arrays by content, the rest with {@code equals}.
     */
    public EventAssert withField(String name, Object expected) {
        String what = name + "=" + FieldValues.typed(expected);
        return narrow(what, e -> e.hasField(name) && FieldValues.matches(e.getValue(name), expected),
                () -> valuesOf(name));
    }

    /** The event has a field {@code name} whose value satisfies {@code condition} ({@code description} names it). */
    public EventAssert withFieldMatching(String name, String description, Predicate<Object> condition) {
        return narrow(name + " " + description, e -> e.hasField(name) && condition.test(e.getValue(name)), () -> valuesOf(name));
    }

    /** The event has a field named {@code name}. */
    public EventAssert withFieldPresent(String name) {
        return narrow("a field " + name, e -> e.hasField(name), () -> "fields " + fieldNames());
    }

    /** The event's level is {@code level}. */
    public EventAssert withLevel(Level level) {
        return narrow("level " + level + " (" + level.value() + ")", e -> e.level() == level.value(),
                () -> "levels " + candidates.stream().map(EventRecord::level).distinct().toList());
    }

    /** The event's keyword has every bit of {@code mask}. */
    public EventAssert withKeyword(long mask) {
        return narrow("keyword bits 0x" + Long.toHexString(mask), e -> (e.keyword() & mask) == mask,
                () -> "keywords " + candidates.stream().map(e -> "0x" + Long.toHexString(e.keyword())).distinct().toList());
    }

    /** The event's opcode is {@code opcode}. */
    public EventAssert withOpcode(Opcode opcode) {
        return narrow("opcode " + opcode, e -> e.opcode() == opcode.value(),
                () -> "opcodes " + candidates.stream().map(EventRecord::opcode).distinct().toList());
    }

    /** The event carries activity id {@code activityId}. */
    public EventAssert withActivityId(Guid activityId) {
        return narrow("activity id " + activityId, e -> activityId.equals(e.activityId()),
                () -> "activity ids " + candidates.stream().map(EventRecord::activityId).distinct().toList());
    }

    /** The event carries related activity id {@code relatedActivityId}. */
    public EventAssert withRelatedActivityId(Guid relatedActivityId) {
        return narrow("related activity id " + relatedActivityId, e -> relatedActivityId.equals(e.relatedActivityId()),
                () -> "related activity ids " + candidates.stream().map(EventRecord::relatedActivityId).distinct().toList());
    }

    /** The event satisfies {@code condition} ({@code description} says what, for the message). */
    public EventAssert matching(String description, Predicate<? super EventRecord> condition) {
        return narrow(description, condition, () -> "");
    }

    /** Exactly one event matches everything so far. */
    public EventAssert once() {
        return times(1);
    }

    /** Exactly {@code count} events match everything so far. */
    public EventAssert times(int count) {
        if (candidates.size() != count) {
            throw parent.fail("expected " + count + " " + (count == 1 ? "event " : "events ") + conditions + ", got " + candidates.size() + ":" + lines(candidates));
        }
        return this;
    }

    /** The first (in delivery order) event matching everything so far. */
    public EventRecord first() {
        return candidates.get(0);
    }

    /** The events matching everything so far, in delivery order. */
    public List<EventRecord> all() {
        return candidates;
    }

    /** Back to the whole capture, to go on with other checks. */
    public EventsAssert and() {
        return parent;
    }

    private EventAssert narrow(String condition, Predicate<? super EventRecord> test, java.util.function.Supplier<String> instead) {
        List<EventRecord> kept = new ArrayList<>();
        for (EventRecord e : candidates) {
            if (test.test(e)) {
                kept.add(e);
            }
        }
        if (kept.isEmpty()) {
            String had = instead.get();
            throw parent.fail("expected an event " + conditions + " with " + condition + "; none of the " + candidates.size()
                    + " " + (candidates.size() == 1 ? "event" : "events") + " " + conditions + " has it"
                    + (had.isEmpty() ? "" : "; they have " + had) + ":" + lines(candidates));
        }
        conditions.append(" with ").append(condition);
        candidates = kept;
        return this;
    }

    /** The distinct values the candidates have for {@code name}, the first {@value EventListing#LIMIT}. */
    private String valuesOf(String name) {
        List<String> values = new ArrayList<>();
        for (EventRecord e : candidates) {
            String v = e.hasField(name) ? FieldValues.typed(e.getValue(name)) : "(no field " + name + ")";
            if (!values.contains(v)) {
                values.add(v);
            }
        }
        if (values.size() > EventListing.LIMIT) {
            int more = values.size() - EventListing.LIMIT;
            values = new ArrayList<>(values.subList(0, EventListing.LIMIT));
            values.add("... " + more + " more");
        }
        return name + " " + values;
    }

    private String fieldNames() {
        return candidates.stream().flatMap(e -> e.getFields().stream().map(f -> f.name())).distinct().toList().toString();
    }

    private static String lines(List<EventRecord> list) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(list.size(), EventListing.LIMIT); i++) {
            sb.append("\n    ");
            EventListing.line(sb, list.get(i));
        }
        if (list.size() > EventListing.LIMIT) {
            sb.append("\n    ... and ").append(list.size() - EventListing.LIMIT).append(" more");
        }
        return sb.toString();
    }
}
