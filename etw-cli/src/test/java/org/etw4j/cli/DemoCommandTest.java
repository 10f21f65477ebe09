package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code etw demo}: the counts each session reports match what its filters imply. The expectations here are
 * worked out independently from the filter rules (seed 001) for the demo's two sessions:
 * A = level 4, MatchAnyKeyword 0x1; B = level 5, all keywords, IGNORE_KEYWORD_0, EventIds deny {3}.
 */
class DemoCommandTest {
    private static final int THREADS = 3;
    private static final int ROUNDS = 40;

    @Test
    void sessionsReceiveWhatTheirFiltersLetThrough() {
        Cli.Result r = Cli.run("demo", "--events", String.valueOf(ROUNDS), "--threads", String.valueOf(THREADS));
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().startsWith("etw demo: 3 worker threads x 40 rounds"), r.out());

        Map<String, long[]> received = table(r.outLines(), "Received", "Session statistics");
        long perRound = (long) THREADS * ROUNDS;
        // event:                 A          B           (why)
        expect(received, "RequestReceived", perRound, perRound);       // level 4, keyword 0x1: both
        expect(received, "RequestDetail", 0, perRound);                // level 5: not A
        expect(received, "CacheMiss", 0, 0);                           // keyword 0x2: not A; id 3 denied: not B
        expect(received, "SlowRequest", perRound, 0);                  // keyword 0: A yes, B ignores keyword 0
        expect(received, "Tick", perRound, perRound);                  // TraceLogging level 4, keyword 0x1
        expect(received, "Sample", 0, perRound);                       // TraceLogging level 5, keyword 0x2
        expect(received, "Job/Start", THREADS, THREADS);               // one activity per worker
        expect(received, "Job/Stop", THREADS, THREADS);
        expect(received, "ProviderState", THREADS, THREADS);           // CAPTURE_STATE answer, one per worker
        long totalA = 3 * perRound + 3L * THREADS;
        long totalB = 4 * perRound + 3L * THREADS;
        expect(received, "(total)", totalA, totalB);
        expect(received, "(trace header)", 1, 1);
        expect(received, "level 5 VERBOSE", 0, 2 * perRound);
        expect(received, "level 3 WARNING", perRound, 0);

        Map<String, long[]> stats = table(r.outLines(), "Session statistics", "Samples");
        expect(stats, "accepted", totalA, totalB);
        expect(stats, "delivered", totalA, totalB);
        expect(stats, "lost", 0, 0);
        expect(stats, "pending", 0, 0);

        assertTrue(r.out().contains("ok      B (IGNORE_KEYWORD_0) got 0 keyword-0 events"), r.out());
        assertTrue(r.out().contains("ok      A (level 4) got 0 verbose (level 5) events"), r.out());
        assertFalse(r.out().contains("FAILED"), r.out());
        assertTrue(r.out().strip().endsWith("checks passed"), r.out());
        // decoded samples: manifest fields by name, TraceLogging fields by name
        assertTrue(r.out().contains("etw4j-Demo/RequestReceived RequestId="), r.out());
        assertTrue(r.out().contains("etw4j-Demo/Tick Worker="), r.out());
    }

    @Test
    void structureDoesNotDependOnTheSizes() {
        Cli.Result small = Cli.run("demo", "--events", "1", "--threads", "1");
        Cli.Result larger = Cli.run("demo", "--events", "5", "--threads", "2");
        assertEquals(0, small.code(), small.toString());
        assertEquals(0, larger.code(), larger.toString());
        assertEquals(headings(small.outLines()), headings(larger.outLines()));
    }

    private static List<String> headings(List<String> lines) {
        return lines.stream().filter(l -> !l.isEmpty() && !l.startsWith(" ") && !l.startsWith("etw demo")
                && !l.startsWith("Written") && !l.startsWith("Result")).toList();
    }

    private static void expect(Map<String, long[]> table, String row, long a, long b) {
        long[] v = table.get(row);
        assertTrue(v != null, "no row '" + row + "' in " + table.keySet());
        assertEquals(a, v[0], row + " in session A");
        assertEquals(b, v[1], row + " in session B");
    }

    /** Rows "  label  A  B" between two headings: label -> {A, B}. */
    private static Map<String, long[]> table(List<String> lines, String from, String to) {
        Map<String, long[]> rows = new LinkedHashMap<>();
        int start = lines.indexOf(from);
        assertTrue(start >= 0, "no section " + from);
        for (int i = start + 1; i < lines.size() && !lines.get(i).equals(to); i++) {
            Matcher m = ROW.matcher(lines.get(i).strip());
            if (m.matches()) {
                rows.put(m.group(1), new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3))});
            }
        }
        return rows;
    }

    private static final Pattern ROW = Pattern.compile("(.*?)\\s+(\\d+)\\s+(\\d+)");
}
