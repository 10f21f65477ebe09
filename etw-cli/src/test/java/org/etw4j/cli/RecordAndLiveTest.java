package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code etw record} then {@code etw summary} and {@code etw dump} on what it wrote (simulated backend, .etl
 * writer of etw-consumer), and {@code etw live}.
 */
class RecordAndLiveTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DEMO_ID = "71a96c8e-d1b1-56ac-e403-71184b715bdb";

    @TempDir
    Path dir;

    @Test
    void recordThenSummaryAndDump() throws Exception {
        Path etl = dir.resolve("demo.etl");
        Cli.Result rec = Cli.run("record", "--session", "etw4j-test-record", "--output", etl.toString(),
                "--duration", "700ms", "--demo-load", "--rate", "500", "--backend", "simulated");
        assertEquals(0, rec.code(), rec.toString());
        assertTrue(Files.size(etl) > 0, rec.toString());
        Matcher m = Pattern.compile("events   accepted (\\d+), written (\\d+), lost (\\d+)").matcher(rec.out());
        assertTrue(m.find(), rec.out());
        long written = Long.parseLong(m.group(2));
        assertEquals(0, Long.parseLong(m.group(3)), rec.out());
        assertTrue(written > 100, rec.out());

        Cli.Result sum = Cli.run("summary", "--json", etl.toString());
        assertEquals(0, sum.code(), sum.toString());
        JsonNode s = JSON.readTree(sum.out());
        assertEquals("etw4j-test-record", s.get("sessionName").asText());
        assertEquals(written + 1, s.at("/records/total").asLong(), "events written + the logfile header record");
        JsonNode demo = null;
        for (JsonNode p : s.get("providers")) {
            if (p.get("id").asText().equals(DEMO_ID)) {
                demo = p;
            }
        }
        assertTrue(demo != null, sum.out());
        assertEquals(written, demo.get("records").asLong());
        assertEquals("etw4j-Demo", demo.get("name").asText()); // from the TraceLogging provider traits

        Cli.Result dump = Cli.run("dump", "--format", "jsonl", "--provider", "etw4j-Demo", etl.toString());
        assertEquals(0, dump.code(), dump.toString());
        List<JsonNode> events = DumpCommandTest.jsonLines(dump);
        assertEquals(written, events.size());
        JsonNode req = events.stream().filter(e -> e.at("/event/name").asText().equals("RequestReceived")).findFirst()
                .orElseThrow(() -> new AssertionError("no RequestReceived in " + dump.out()));
        assertEquals(1, req.at("/event/id").asInt());
        assertEquals(4, req.at("/event/level").asInt());
        assertEquals("0x1", req.at("/event/keyword").asText());
        assertTrue(req.at("/fields/Path").asText().startsWith("/api/items/"), req.toString());
        assertTrue(req.at("/fields/RequestId").isIntegralNumber(), req.toString());
        assertTrue(!req.get("activityId").isNull(), "demo load writes inside Job activities: " + req);
        JsonNode tick = events.stream().filter(e -> e.at("/event/name").asText().equals("Tick")).findFirst().orElseThrow();
        assertEquals("load", tick.at("/fields/Name").asText());
        assertTrue(tick.at("/fields/Value").isDouble(), tick.toString());
    }

    @Test
    void recordNeedsAnExistingFolder() {
        Cli.Result r = Cli.run("record", "--output", dir.resolve("no/such/dir/x.etl").toString(), "--demo-load",
                "--duration", "1s", "--backend", "simulated");
        assertEquals(1, r.code(), r.toString());
        assertTrue(r.err().startsWith("record: no such directory: "), r.err());
    }

    @Test
    void liveStopsAfterMaxEvents() throws Exception {
        Cli.Result r = Cli.run("live", "--session", "etw4j-test-live", "--demo-load", "--rate", "1000",
                "--max-events", "25", "--format", "jsonl", "--duration", "20s", "--backend", "simulated");
        assertEquals(0, r.code(), r.toString());
        List<JsonNode> events = DumpCommandTest.jsonLines(r);
        assertEquals(25, events.size(), r.out());
        assertTrue(events.stream().allMatch(e -> e.at("/provider/name").asText().equals("etw4j-Demo")));
        assertTrue(r.err().contains("25 events printed"), r.err());
    }

    @Test
    void liveHonoursTheProviderLevel() throws Exception {
        // level 3 (warning): of the demo events only SlowRequest (level 3) qualifies
        Cli.Result r = Cli.run("live", "--session", "etw4j-test-live-warn", "--demo-load", "--rate", "1000",
                "--provider", "etw4j-Demo:warning", "--max-events", "10", "--format", "jsonl", "--duration", "20s");
        assertEquals(0, r.code(), r.toString());
        List<JsonNode> events = DumpCommandTest.jsonLines(r);
        assertEquals(10, events.size(), r.out());
        for (JsonNode e : events) {
            assertEquals("SlowRequest", e.at("/event/name").asText(), e.toString());
            assertEquals(3, e.at("/event/level").asInt());
        }
    }
}
