package org.etw4j.controller;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A filter a session applies to one provider's events ({@code EVENT_FILTER_DESCRIPTOR} in
 * {@code ENABLE_TRACE_PARAMETERS}).
 *
 * <p>All implementations are immutable records, thread-safe, validated on construction against ETW's limits
 * (evntprov.h {@code MAX_EVENT_FILTER_*}). ETW applies the system filters (event ids, process ids, executable
 * names, payload) per session; {@link Custom} filter data is handed to the provider's enable callback instead.
 */
public sealed interface EventFilter
        permits EventFilter.EventIds, EventFilter.ProcessIds, EventFilter.ExecutableNames, EventFilter.Payload,
        EventFilter.Custom {

    /** {@code MAX_EVENT_FILTER_EVENT_ID_COUNT}. */
    int MAX_EVENT_IDS = 64;
    /** {@code MAX_EVENT_FILTER_PID_COUNT}. */
    int MAX_PIDS = 8;
    /** {@code MAX_EVENT_FILTER_DATA_SIZE}: executable-name list and custom filter data. */
    int MAX_DATA_SIZE = 1024;
    /** {@code MAX_PAYLOAD_PREDICATES}. */
    int MAX_PAYLOAD_PREDICATES = 8;
    /** {@code MAX_EVENT_FILTERS_COUNT}: filters in one enable call. */
    int MAX_FILTERS = 13;

    /** {@code EVENT_FILTER_TYPE_*} of this filter. */
    int type();

    /** EVENT_FILTER_TYPE_EVENT_ID. */
    int TYPE_EVENT_ID = 0x80000200;
    /** EVENT_FILTER_TYPE_PID. */
    int TYPE_PID = 0x80000004;
    /** EVENT_FILTER_TYPE_EXECUTABLE_NAME. */
    int TYPE_EXECUTABLE_NAME = 0x80000008;
    /** EVENT_FILTER_TYPE_PAYLOAD. */
    int TYPE_PAYLOAD = 0x80000100;
    /** EVENT_FILTER_TYPE_SCHEMATIZED: provider-side filter data. */
    int TYPE_SCHEMATIZED = 0x80000000;

    /**
     * Event-id filter: with {@code enable} true only the listed ids pass, with false they are dropped.
     *
     * @param enable true for an allow list, false for a deny list
     * @param ids    1 to 64 event ids (0-65535)
     */
    record EventIds(boolean enable, Set<Integer> ids) implements EventFilter {
        public EventIds {
            Objects.requireNonNull(ids, "ids");
            if (ids.isEmpty() || ids.size() > MAX_EVENT_IDS) {
                throw new IllegalArgumentException("EventIds filter needs 1 to " + MAX_EVENT_IDS + " ids, got " + ids.size());
            }
            for (Integer id : ids) {
                if (id == null || id < 0 || id > 0xFFFF) {
                    throw new IllegalArgumentException("EventIds filter: event id must be 0-65535, got " + id);
                }
            }
            ids = Set.copyOf(new TreeSet<>(ids));
        }

        /** Allow only these ids. */
        public static EventIds allow(Integer... ids) {
            return new EventIds(true, Set.of(ids));
        }

        /** Drop these ids. */
        public static EventIds deny(Integer... ids) {
            return new EventIds(false, Set.of(ids));
        }

        @Override
        public int type() {
            return TYPE_EVENT_ID;
        }

        /** Whether an event with {@code id} passes. */
        public boolean passes(int id) {
            return ids.contains(id) == enable;
        }
    }

    /**
     * Process-id filter: only events from the listed processes pass.
     *
     * @param pids 1 to 8 process ids
     */
    record ProcessIds(Set<Integer> pids) implements EventFilter {
        public ProcessIds {
            Objects.requireNonNull(pids, "pids");
            if (pids.isEmpty() || pids.size() > MAX_PIDS) {
                throw new IllegalArgumentException("ProcessIds filter needs 1 to " + MAX_PIDS + " pids, got " + pids.size());
            }
            pids = Set.copyOf(pids);
        }

        public static ProcessIds of(Integer... pids) {
            return new ProcessIds(Set.of(pids));
        }

        @Override
        public int type() {
            return TYPE_PID;
        }
    }

    /**
     * Executable-name filter: only events from processes whose executable file name (no directory, case
     * insensitive) is listed pass. Stored by ETW as one semicolon-separated UTF-16 string.
     *
     * @param names 1 or more names, e.g. {@code java.exe}
     */
    record ExecutableNames(List<String> names) implements EventFilter {
        public ExecutableNames {
            Objects.requireNonNull(names, "names");
            if (names.isEmpty()) {
                throw new IllegalArgumentException("ExecutableNames filter needs at least one name");
            }
            for (String n : names) {
                if (n == null || n.isBlank() || n.indexOf(';') >= 0) {
                    throw new IllegalArgumentException("ExecutableNames filter: bad name '" + n + "' (empty or contains ';')");
                }
            }
            names = List.copyOf(names);
            int bytes = (String.join(";", names).length() + 1) * 2;
            if (bytes > MAX_DATA_SIZE) {
                throw new IllegalArgumentException("ExecutableNames filter: " + bytes + " bytes of UTF-16 names exceed " + MAX_DATA_SIZE);
            }
        }

        public static ExecutableNames of(String... names) {
            return new ExecutableNames(Arrays.asList(names));
        }

        @Override
        public int type() {
            return TYPE_EXECUTABLE_NAME;
        }

        /** Whether an executable path or name matches one of the names. */
        public boolean matches(String executable) {
            if (executable == null) {
                return false;
            }
            int slash = Math.max(executable.lastIndexOf('/'), executable.lastIndexOf('\\'));
            String file = executable.substring(slash + 1);
            for (String n : names) {
                if (n.equalsIgnoreCase(file)) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Payload filter (TdhCreatePayloadFilter semantics): applies to events with the given name (TraceLogging)
     * or id (manifest, name {@code null}); such an event passes when any ({@code matchAny}) or all of the
     * predicates hold on its decoded fields. Other events are not affected.
     *
     * @param eventName  TraceLogging event name, or null to select by {@code eventId}
     * @param eventId    manifest event id (used when eventName is null)
     * @param matchAny   true: any predicate suffices; false: all must hold
     * @param predicates 1 to 8 predicates
     */
    record Payload(String eventName, int eventId, boolean matchAny, List<PayloadPredicate> predicates) implements EventFilter {
        public Payload {
            Objects.requireNonNull(predicates, "predicates");
            if (predicates.isEmpty() || predicates.size() > MAX_PAYLOAD_PREDICATES) {
                throw new IllegalArgumentException("Payload filter needs 1 to " + MAX_PAYLOAD_PREDICATES + " predicates, got " + predicates.size());
            }
            if (eventId < 0 || eventId > 0xFFFF) {
                throw new IllegalArgumentException("Payload filter: event id must be 0-65535, got " + eventId);
            }
            predicates = List.copyOf(predicates);
        }

        /** A filter on the TraceLogging event called {@code eventName}. */
        public static Payload forEvent(String eventName, boolean matchAny, PayloadPredicate... predicates) {
            return new Payload(Objects.requireNonNull(eventName, "eventName"), 0, matchAny, new ArrayList<>(Arrays.asList(predicates)));
        }

        @Override
        public int type() {
            return TYPE_PAYLOAD;
        }
    }

    /**
     * Filter data for the provider itself (e.g. {@code EVENT_FILTER_TYPE_SCHEMATIZED} or a provider-defined
     * type): ETW hands it to the provider's enable callback, one filter from each session (MS Learn, PENABLECALLBACK callback function).
     *
     * @param type filter type
     * @param data at most 1024 bytes
     */
    record Custom(int type, byte[] data) implements EventFilter {
        public Custom {
            Objects.requireNonNull(data, "data");
            if (data.length > MAX_DATA_SIZE) {
                throw new IllegalArgumentException("Custom filter data is " + data.length + " bytes; the limit is " + MAX_DATA_SIZE);
            }
            data = data.clone();
        }

        /** Filter data of the given type holding a UTF-8 string (for simple provider-defined filters). */
        public static Custom utf8(int type, String text) {
            return new Custom(type, text.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public byte[] data() {
            return data.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Custom c && c.type == type && Arrays.equals(c.data, data);
        }

        @Override
        public int hashCode() {
            return 31 * type + Arrays.hashCode(data);
        }

        @Override
        public String toString() {
            return "Custom[type=0x" + Integer.toHexString(type) + ", " + data.length + " bytes]";
        }
    }
}
