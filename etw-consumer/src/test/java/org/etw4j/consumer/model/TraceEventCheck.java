package org.etw4j.consumer.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A timeline file read back with Jackson (not etw4j's writer) and checked against Google's "Trace Event Format"
 * document, JSON Object Format: {@code traceEvents} an array, {@code displayTimeUnit} "ms" or "ns"; every event has
 * {@code ph}; duration ({@code B}/{@code E}), complete ({@code X}) and instant ({@code i}/{@code I}) events have
 * {@code name}, numeric {@code ts}, integer {@code pid} and {@code tid}; {@code X} has {@code dur >= 0}; an instant's
 * scope {@code s} is {@code g}, {@code p} or {@code t} when present; {@code B}/{@code E} nest per thread;
 * metadata ({@code M}) events are {@code process_name}/{@code process_sort_index} with {@code pid} or
 * {@code thread_name}/{@code thread_sort_index} with {@code pid} and {@code tid}, their value in {@code args};
 * {@code sf} names an entry of the {@code stackFrames} dictionary whose {@code parent} chain ends at a root. Plus the
 * rules for a usable timeline: every pid and (pid, tid) with events is named by metadata, and ids are unsigned
 * 32-bit numbers (Perfetto's JSON importer, json_trace_parser_impl.cc, reads them so). Not thread-safe.
 */
final class TraceEventCheck {

    /** One parsed event (phases i and X; the others are checked and dropped). */
    record Event(String ph, String name, String cat, double ts, double dur, long pid, long tid, JsonNode args,
                 String sf) {
    }

    final JsonNode root;
    final List<Event> events = new ArrayList<>();
    final Map<Long, String> processNames = new HashMap<>();
    final Map<List<Long>, String> threadNames = new HashMap<>();
    final Map<String, JsonNode> stackFrames = new HashMap<>();

    private TraceEventCheck(JsonNode root) {
        this.root = root;
    }

    static TraceEventCheck read(Reader json) throws IOException {
        TraceEventCheck c = new TraceEventCheck(new ObjectMapper().readTree(json));
        c.check();
        return c;
    }

    static TraceEventCheck read(String json) throws IOException {
        return read(new java.io.StringReader(json));
    }

    private void check() {
        assertTrue(root.isObject(), "JSON Object Format: the root is an object");
        JsonNode list = root.get("traceEvents");
        assertNotNull(list, "traceEvents");
        assertTrue(list.isArray(), "traceEvents is an array");
        JsonNode unit = root.get("displayTimeUnit");
        if (unit != null) {
            assertTrue(unit.asText().equals("ms") || unit.asText().equals("ns"), "displayTimeUnit " + unit);
        }
        JsonNode frames = root.get("stackFrames");
        if (frames != null) {
            assertTrue(frames.isObject(), "stackFrames is an object");
            frames.fields().forEachRemaining(e -> stackFrames.put(e.getKey(), e.getValue()));
            for (Map.Entry<String, JsonNode> e : stackFrames.entrySet()) {
                assertTrue(e.getValue().path("name").isTextual(), "frame " + e.getKey() + " has a name");
                chain(e.getKey());
            }
        }
        Map<List<Long>, ArrayDeque<String>> open = new HashMap<>();
        for (JsonNode e : list) {
            String ph = text(e, "ph");
            switch (ph) {
                case "M" -> metadata(e);
                case "X", "i", "I", "B", "E" -> {
                    String name = ph.equals("E") ? e.path("name").asText(null) : text(e, "name");
                    assertTrue(e.path("ts").isNumber(), "ts of " + e);
                    assertTrue(e.path("pid").isIntegralNumber(), "pid of " + e);
                    assertTrue(e.path("tid").isIntegralNumber(), "tid of " + e);
                    double dur = 0;
                    if (ph.equals("X")) {
                        assertTrue(e.path("dur").isNumber(), "dur of " + e);
                        dur = e.get("dur").asDouble();
                        assertTrue(dur >= 0, "dur >= 0: " + e);
                    }
                    if (ph.equals("i") || ph.equals("I")) {
                        String s = e.path("s").asText("t");
                        assertTrue(s.equals("g") || s.equals("p") || s.equals("t"), "instant scope: " + e);
                    }
                    assertTrue(uint32(e.get("pid")) && uint32(e.get("tid")), "pid and tid are uint32 (Perfetto): " + e);
                    List<Long> thread = List.of(e.get("pid").asLong(), e.get("tid").asLong());
                    if (ph.equals("B")) {
                        open.computeIfAbsent(thread, k -> new ArrayDeque<>()).push(name);
                    } else if (ph.equals("E")) {
                        ArrayDeque<String> q = open.get(thread);
                        assertTrue(q != null && !q.isEmpty(), "E without B on " + thread);
                        q.pop();
                    }
                    String sf = e.has("sf") ? e.get("sf").asText() : null;
                    if (sf != null) {
                        assertTrue(stackFrames.containsKey(sf), "sf " + sf + " is in stackFrames");
                    }
                    if (e.has("args")) {
                        assertTrue(e.get("args").isObject(), "args is an object: " + e);
                    }
                    events.add(new Event(ph, name, e.path("cat").asText(null), e.get("ts").asDouble(), dur,
                            e.get("pid").asLong(), e.get("tid").asLong(), e.get("args"), sf));
                }
                default -> fail("phase not written by the timeline: " + e);
            }
        }
        for (Map.Entry<List<Long>, ArrayDeque<String>> q : open.entrySet()) {
            assertTrue(q.getValue().isEmpty(), "B without E on " + q.getKey());
        }
        for (Event e : events) {
            assertTrue(processNames.containsKey(e.pid()), "process_name for pid " + e.pid());
            assertTrue(threadNames.containsKey(List.of(e.pid(), e.tid())),
                    "thread_name for pid " + e.pid() + " tid " + e.tid());
        }
    }

    private void metadata(JsonNode e) {
        String name = text(e, "name");
        assertTrue(e.path("pid").isIntegralNumber(), "M pid: " + e);
        JsonNode args = e.get("args");
        assertNotNull(args, "M args: " + e);
        long pid = e.get("pid").asLong();
        switch (name) {
            case "process_name" -> assertNull(processNames.put(pid, text(args, "name")), "one process_name per pid");
            case "process_sort_index" -> assertTrue(args.path("sort_index").isIntegralNumber(), e.toString());
            case "thread_name" -> {
                assertTrue(e.path("tid").isIntegralNumber(), "thread_name tid: " + e);
                assertNull(threadNames.put(List.of(pid, e.get("tid").asLong()), text(args, "name")),
                        "one thread_name per thread");
            }
            case "thread_sort_index" -> {
                assertTrue(e.path("tid").isIntegralNumber(), "thread_sort_index tid: " + e);
                assertTrue(args.path("sort_index").isIntegralNumber(), e.toString());
            }
            default -> fail("metadata event not written by the timeline: " + e);
        }
    }

    /** Perfetto's JSON importer reads pid and tid as unsigned 32-bit numbers. */
    private static boolean uint32(JsonNode n) {
        return n.isIntegralNumber() && n.asLong() >= 0 && n.asLong() <= 0xFFFF_FFFFL;
    }

    private static void assertNull(Object o, String message) {
        assertTrue(o == null, message);
    }

    /** The frame names of stack {@code sf}, root first; fails on a missing parent or a cycle. */
    List<String> chain(String sf) {
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String id = sf;
        while (id != null) {
            assertTrue(seen.add(id), "cycle in stackFrames at " + id);
            JsonNode f = stackFrames.get(id);
            assertNotNull(f, "stackFrames entry " + id);
            names.add(0, f.get("name").asText());
            id = f.has("parent") ? f.get("parent").asText() : null;
        }
        return names;
    }

    private static String text(JsonNode e, String field) {
        JsonNode n = e.get(field);
        assertTrue(n != null && n.isTextual(), field + " is a string: " + e);
        assertFalse(n.asText().isEmpty(), field + " is not empty: " + e);
        return n.asText();
    }

    List<Event> phase(String ph) {
        return events.stream().filter(e -> e.ph().equals(ph)).toList();
    }

    long count(String ph, String cat) {
        return events.stream().filter(e -> e.ph().equals(ph) && cat.equals(e.cat())).count();
    }
}
