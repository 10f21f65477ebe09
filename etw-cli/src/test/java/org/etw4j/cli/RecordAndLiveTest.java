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

        // Issue 25, item 5: a Job activity's Start and its Stop (TraceLogging events of one name, opcodes 1 and 2)
        // no longer print identically: the text form names the opcode, beside the activity id they share.
        Cli.Result text = Cli.run("dump", "--provider", "etw4j-Demo", etl.toString());
        assertEquals(0, text.code(), text.toString());
        Pattern job = Pattern.compile("  opcode (Start|Stop)  activity ([0-9a-f-]{36})  etw4j-Demo/Job$");
        java.util.Map<String, List<String>> opcodesByActivity = new java.util.HashMap<>();
        for (String l : text.outLines()) {
            Matcher j = job.matcher(l);
            if (j.find()) {
                opcodesByActivity.computeIfAbsent(j.group(2), k -> new java.util.ArrayList<>()).add(j.group(1));
            }
        }
        assertTrue(opcodesByActivity.values().stream().anyMatch(o -> o.equals(List.of("Start", "Stop"))),
                "a Job activity's Start, then its Stop: " + opcodesByActivity + "\n" + text.out());
        JsonNode jobStart = events.stream().filter(e -> e.at("/event/name").asText().equals("Job")
                && e.at("/event/opcode").asInt() == 1).findFirst().orElseThrow();
        assertEquals("Start", jobStart.at("/event/opcodeName").asText(), jobStart.toString());
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

    @Test
    void liveResolvesProviderNamesFromTheManifestsItKnowsAndSaysWhichRuleChose() throws Exception {
        // Issue 21, item 2. Failed before: every name was hashed, silently; Microsoft-Windows-DotNETRuntime enabled
        // ProviderIds.fromName(...) although the given manifest declares e13c0d23-ccbc-4e12-931b-d9cc2eee27e4.
        Path man = dir.resolve("dotnet.man");
        Files.writeString(man, """
                <instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events">
                 <instrumentation><events>
                  <provider name="Microsoft-Windows-DotNETRuntime" guid="{e13c0d23-ccbc-4e12-931b-d9cc2eee27e4}"
                            symbol="MICROSOFT_WINDOWS_DOTNETRUNTIME" resourceFileName="x" messageFileName="x">
                   <events/>
                  </provider>
                 </events></instrumentation>
                </instrumentationManifest>
                """);
        Cli.Result known = Cli.run("live", "--session", "etw4j-test-live-resolve", "--provider",
                "Microsoft-Windows-DotNETRuntime:info", "--manifest", man.toString(), "--duration", "200ms",
                "--backend", "simulated");
        assertEquals(0, known.code(), known.toString());
        assertTrue(known.errLines().contains("provider Microsoft-Windows-DotNETRuntime -> e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"
                + " (named in a given manifest)"), known.err());
        assertTrue(known.errLines().stream().noneMatch(l -> l.startsWith("warning:")), known.err());

        // issue 25.3: without the manifest, the table of well-known providers knows the CLR's GUID
        Cli.Result wellKnown = Cli.run("live", "--session", "etw4j-test-live-resolve3", "--provider",
                "Microsoft-Windows-DotNETRuntime", "--duration", "200ms", "--backend", "simulated");
        assertEquals(0, wellKnown.code(), wellKnown.toString());
        assertTrue(wellKnown.errLines().contains("provider Microsoft-Windows-DotNETRuntime -> e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"
                + " (a well-known provider)"), wellKnown.err());
        assertTrue(wellKnown.errLines().stream().noneMatch(l -> l.startsWith("warning:")), wellKnown.err());

        Cli.Result unknown = Cli.run("live", "--session", "etw4j-test-live-resolve2", "--provider",
                "Microsoft-Windows-NoSuchProvider", "--duration", "200ms", "--backend", "simulated");
        assertEquals(0, unknown.code(), unknown.toString());
        assertTrue(unknown.err().contains("(derived from the name (EventSource/TraceLogging hash))"), unknown.err());
        assertTrue(unknown.err().contains("warning: 'Microsoft-Windows-NoSuchProvider' is not registered on this machine"),
                unknown.err());
    }
}
