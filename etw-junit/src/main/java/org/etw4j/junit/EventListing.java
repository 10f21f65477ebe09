package org.etw4j.junit;

import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.decode.EventField;

/**
 * The text failure messages end with: the captured events, one a line, bounded to the first {@link #LIMIT} with
 * the total count, so a failing test shows what did arrive. Stateless.
 */
final class EventListing {
    /** How many events a failure message lists at most. */
    static final int LIMIT = 25;

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

    /** One event: provider/name, descriptor facts, activity ids, fields. */
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
        List<EventField> fields = e.getFields();
        sb.append(" {");
        for (int i = 0; i < fields.size(); i++) {
            EventField f = fields.get(i);
            sb.append(i == 0 ? "" : ", ").append(f.name()).append('=');
            FieldValues.text(sb, f.value());
            if (f.hasError()) {
                sb.append(" (error: ").append(f.error()).append(')');
            }
        }
        return sb.append('}');
    }
}
