package org.etw4j.junit;

import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.output.EventFormatter;

/**
 * The text failure messages end with: the captured events, one a line, bounded to the first {@link #LIMIT} with
 * the total count, so a failing test shows what did arrive. Stateless.
 */
final class EventListing {
    /** How many events a failure message lists at most. */
    static final int LIMIT = 25;
    /** How many characters of an event's fields a listing line shows at most. */
    static final int MAX_FIELDS_TEXT = 400;

    private EventListing() {
    }

    static String of(List<EventRecord> events, long lost, String source) {
        StringBuilder sb = new StringBuilder(128 + 120 * Math.min(events.size(), LIMIT));
        sb.append("Captured ").append(events.size()).append(events.size() == 1 ? " event" : " events")
                .append(" (").append(source).append(')');
        if (lost > 0) {
            sb.append("; the session reported ").append(lost).append(" events lost");
        }
        if (events.isEmpty()) {
            return sb.append('.').toString();
        }
        sb.append(events.size() > LIMIT ? ", the first " + LIMIT + ":" : ":");
        for (int i = 0; i < Math.min(events.size(), LIMIT); i++) {
            sb.append("\n  #").append(i + 1).append(' ');
            line(sb, events.get(i));
        }
        if (events.size() > LIMIT) {
            sb.append("\n  ... and ").append(events.size() - LIMIT).append(" more");
        }
        return sb.toString();
    }

    /**
     * One event: provider/name, descriptor facts, activity ids (what the assertions select on), then its fields as
     * {@code etw dump} and {@code EventRecord.toString()} show them ({@link EventFormatter}'s text rule: integers
     * signed or unsigned as the schema says, hexadecimal types as {@code 0x...}, labels, line breaks as
     * {@code \n}), cut after {@link #MAX_FIELDS_TEXT} characters so that a long string does not drown the listing.
     */
    static StringBuilder line(StringBuilder sb, EventRecord e) {
        sb.append(e.providerName()).append('/').append(e.eventName())
                .append(" id=").append(e.eventId()).append(" level=").append(e.level())
                .append(" opcode=").append(e.opcode()).append(" keyword=0x").append(Long.toHexString(e.keyword()));
        Guid a = e.activityId();
        if (!a.isNull()) {
            sb.append(" activity=").append(a);
        }
        Guid r = e.relatedActivityId();
        if (!r.isNull()) {
            sb.append(" related=").append(r);
        }
        String fields = EventFormatter.fieldsText(e);
        if (fields.length() > MAX_FIELDS_TEXT) {
            return sb.append(fields, 0, MAX_FIELDS_TEXT).append("...(").append(fields.length()).append(" chars)");
        }
        return sb.append(fields);
    }
}
