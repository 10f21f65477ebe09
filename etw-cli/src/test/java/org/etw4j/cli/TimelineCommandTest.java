package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code etw timeline} on perfview__gcevents.etl, a small CLR trace (decoded with ClrEtwAll.man): 2 GC Start/Stop
 * pairs and one GC Start whose Stop is not in the trace (TimelineCorpusTest counts them plainly), read back with
 * Jackson. The format checks on
 * the large kernel trace are etw-consumer's TimelineCorpusTest.
 */
class TimelineCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CLR = "Microsoft-Windows-DotNETRuntime";

    private static Path trace() {
        return SharedData.resolve("etl-corpus/perfview__gcevents.etl");
    }

    /** The trace has no schema for the CLR's events (the net.4.5.2 trace carries PerfView's): the CLR manifest. */
    private static Cli.Result timeline(String... args) {
        List<String> all = new ArrayList<>(List.of("timeline", trace().toString(), "--manifest",
                SharedData.resolve("manifests/ClrEtwAll.man").toString()));
        all.addAll(List.of(args));
        return Cli.run(all.toArray(String[]::new));
    }

    private static List<JsonNode> events(JsonNode root, String ph) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode e : root.get("traceEvents")) {
            if (e.get("ph").asText().equals(ph)) {
                out.add(e);
            }
        }
        return out;
    }

    @Test
    void writesTheFileAndSaysWhatItDrew(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("trace.json");
        Cli.Result r = timeline("-o", json.toString());
        assertEquals(0, r.code(), r.toString());
        assertEquals("", r.out());
        assertTrue(r.err().contains("2 slices") && r.err().contains("1 starts without stop")
                && r.err().contains("0 stops without start") && r.err().contains("written to " + json), r.err());
        JsonNode root = JSON.readTree(json.toFile());
        assertEquals("ms", root.get("displayTimeUnit").asText());
        List<JsonNode> slices = events(root, "X");
        assertEquals(2, slices.size());
        for (JsonNode s : slices) {
            assertEquals(CLR + "/GC", s.get("name").asText(), s.toString());
            assertTrue(s.get("dur").asDouble() > 0, s.toString());
            assertTrue(s.get("args").get("start").has("Reason"), "GC/Start's fields: " + s);
        }
        Set<Long> named = new HashSet<>();
        for (JsonNode m : events(root, "M")) {
            if (m.get("name").asText().equals("process_name")) {
                named.add(m.get("pid").asLong());
            }
        }
        for (JsonNode e : events(root, "i")) {
            assertTrue(named.contains(e.get("pid").asLong()), "process named: " + e);
            assertTrue(e.get("name").asText().split("/").length >= 2, "Provider/Task/Opcode: " + e);
        }
        assertEquals(1, root.get("otherData").get("unmatchedStarts").asInt());
    }

    @Test
    void providerSelectionNoInstantsAndStdout() throws Exception {
        Cli.Result all = timeline();
        Cli.Result clr = timeline("--providers", CLR);
        Cli.Result none = timeline("--provider", "NoSuchProvider");
        Cli.Result slicesOnly = timeline("--no-instants");
        for (Cli.Result r : List.of(all, clr, slicesOnly)) {
            assertEquals(0, r.code(), r.toString());
        }
        assertEquals(EtwCommand.NO_MATCH, none.code(), "a filter that matches nothing says so: " + none);
        JsonNode allRoot = JSON.readTree(all.out());
        JsonNode clrRoot = JSON.readTree(clr.out());
        assertTrue(events(clrRoot, "i").size() < events(allRoot, "i").size(), "the selection leaves events out");
        for (JsonNode e : events(clrRoot, "i")) {
            assertTrue(e.get("name").asText().startsWith(CLR + "/"), e.toString());
        }
        assertEquals(2, events(clrRoot, "X").size());
        JsonNode noneRoot = JSON.readTree(none.out());
        assertEquals(0, events(noneRoot, "i").size() + events(noneRoot, "X").size());
        JsonNode slicesRoot = JSON.readTree(slicesOnly.out());
        assertEquals(2, events(slicesRoot, "X").size());
        List<JsonNode> instants = events(slicesRoot, "i");
        assertEquals(1, instants.size(), "only the unmatched GC Start: " + instants);
        assertEquals("unmatched-start", instants.get(0).get("cat").asText());
    }

    @Test
    void exitCodes(@TempDir Path dir) {
        Cli.Result missing = Cli.run("timeline", dir.resolve("nosuch.etl").toString());
        assertEquals(EtwCommand.FAILED, missing.code(), missing.toString());
        assertTrue(missing.err().contains("no such file"), missing.err());
        Cli.Result range = timeline("--from", "2s", "--to", "1s");
        assertEquals(EtwCommand.USAGE, range.code(), range.toString());
        Cli.Result noFile = Cli.run("timeline");
        assertEquals(EtwCommand.USAGE, noFile.code(), noFile.toString());
    }

    @Test
    void timeRangeKeepsTheInstantsInsideIt() throws Exception {
        Cli.Result r = timeline("--from", "1s", "--to", "11s", "--no-samples");
        assertEquals(0, r.code(), r.toString());
        long inside = 0;
        for (JsonNode e : events(JSON.readTree(timeline().out()), "i")) {
            double ts = e.get("ts").asDouble();
            if (ts >= 1_000_000 && ts <= 11_000_000) {
                inside++;
            }
        }
        List<JsonNode> drawn = events(JSON.readTree(r.out()), "i");
        for (JsonNode e : drawn) {
            double ts = e.get("ts").asDouble();
            assertTrue(ts >= 1_000_000 && ts <= 11_000_000, e.toString());
        }
        assertEquals(inside, drawn.size());
        assertTrue(inside > 0, "the range is not empty");
    }
}
