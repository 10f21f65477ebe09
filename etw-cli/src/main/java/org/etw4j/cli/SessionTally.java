package org.etw4j.cli;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.etw4j.Guid;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.LostEvents;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.output.EventFormatter;

/**
 * What one real-time session delivered to the demo's {@link org.etw4j.consumer.EventStream}: counts per event
 * kind, level, id and activity, keyword-0 events, one decoded sample per kind, losses and errors.
 *
 * <p>Its methods are the stream's handlers, so they run on the stream's one handler thread; the demo reads the
 * results after {@code awaitTermination} returned true (the stream's termination latch orders the handler's
 * writes before those reads). Not reusable.
 */
final class SessionTally {
    /** EventTraceGuid: the provider of the synthetic trace-header event a consumer gets first (MS Learn, PEVENT_RECORD_CALLBACK callback function). */
    static final Guid EVENT_TRACE_GUID = org.etw4j.controller.KernelEventGroup.EVENT_TRACE.guid();

    private final Map<DemoKind, Long> byKind = new EnumMap<>(DemoKind.class);
    private final Map<String, Long> otherKinds = new LinkedHashMap<>();
    private final long[] byLevel = new long[256];
    private final Map<Integer, Long> byId = new HashMap<>();
    private final Map<Guid, Long> byActivity = new HashMap<>();
    private final Map<DemoKind, Sample> samples = new EnumMap<>(DemoKind.class);
    private final List<String> errors = new ArrayList<>();
    private long events;
    private long headerEvents;
    private long keywordZero;
    private long undecoded;
    private long lostEvents;

    /** Handler for every record of the stream. */
    void onEvent(EventRecord r) {
        if (r.providerIdMsb() == EVENT_TRACE_GUID.mostSignificantBits()
                && r.providerIdLsb() == EVENT_TRACE_GUID.leastSignificantBits()) {
            headerEvents++;
            return;
        }
        events++;
        byLevel[r.level() & 0xFF]++;
        byId.merge(r.eventId(), 1L, Long::sum);
        byActivity.merge(r.activityId(), 1L, Long::sum);
        if (r.keyword() == 0) {
            keywordZero++;
        }
        SchemaSource source = r.schemaSource();
        if (source == SchemaSource.NONE || r.getFields().stream().anyMatch(EventField::hasError)) {
            undecoded++;
        }
        String name = r.eventName() + opcodeSuffix(source, r.opcode());
        DemoKind kind = DemoKind.byDisplayName(name);
        if (kind == null) {
            otherKinds.merge(name, 1L, Long::sum);
            return;
        }
        byKind.merge(kind, 1L, Long::sum);
        samples.computeIfAbsent(kind, k -> sample(k, r));
    }

    /** TraceLogging events are named by their schema only; start/stop are told apart by the opcode. */
    private static String opcodeSuffix(SchemaSource source, int opcode) {
        if (source != SchemaSource.TRACELOGGING) {
            return "";
        }
        return switch (opcode) {
            case 1 -> "/Start";
            case 2 -> "/Stop";
            default -> "";
        };
    }

    /**
     * One received event for the report.
     *
     * @param header the kind and header facts (level, keyword, thread, activity)
     * @param text   the decoded event's text form
     */
    record Sample(String header, String text) {
    }

    private static Sample sample(DemoKind kind, EventRecord r) {
        Guid act = r.activityId();
        return new Sample(kind.displayName() + ": level " + r.level() + ", keyword 0x" + Long.toHexString(r.keyword())
                + ", tid " + r.threadId() + ", activity " + (act.isNull() ? "none" : act.toString()),
                r.providerName() + "/" + r.eventName() + EventFormatter.fieldsText(r));
    }

    /** Handler for loss reports (session or stream queue). */
    void onLost(LostEvents lost) {
        lostEvents += lost.events();
    }

    /** Handler for errors of the stream or of {@link #onEvent}. */
    void onError(Throwable error) {
        if (errors.size() < 10) {
            errors.add(EtwCommand.oneLine(error));
        }
    }

    long received(DemoKind kind) {
        return byKind.getOrDefault(kind, 0L);
    }

    Map<String, Long> otherKinds() {
        return otherKinds;
    }

    long events() {
        return events;
    }

    long headerEvents() {
        return headerEvents;
    }

    long atLevel(int level) {
        return byLevel[level & 0xFF];
    }

    long withId(int id) {
        return byId.getOrDefault(id, 0L);
    }

    long keywordZero() {
        return keywordZero;
    }

    long undecoded() {
        return undecoded;
    }

    /** Events whose activity id is one of {@code ids}. */
    long withActivity(Set<Guid> ids) {
        long n = 0;
        for (Guid id : ids) {
            n += byActivity.getOrDefault(id, 0L);
        }
        return n;
    }

    long withoutActivity() {
        return byActivity.getOrDefault(Guid.NULL, 0L);
    }

    Sample sample(DemoKind kind) {
        return samples.get(kind);
    }

    long lostEvents() {
        return lostEvents;
    }

    List<String> errors() {
        return errors;
    }
}
