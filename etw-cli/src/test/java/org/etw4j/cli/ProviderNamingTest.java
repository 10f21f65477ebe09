package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;

/**
 * Issue 25.3: one provider name in every tool (etw-consumer's {@code ProviderNames}). Each test failed before the
 * rule: summary called the PerfInfo group {@code PerfInfo} where dump said {@code Windows Kernel}, and the CLR's
 * events of a trace without their manifest were named by their GUID, so a filter by the CLR's name matched nothing.
 */
class ProviderNamingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PERF_INFO = "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc";
    private static final String CLR = "Microsoft-Windows-DotNETRuntime";
    private static final String CLR_ID = "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4";

    private static List<JsonNode> jsonl(Cli.Result r) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : r.outLines()) {
            out.add(JSON.readTree(line));
        }
        return out;
    }

    @Test
    void summaryAndDumpNameTheSameKernelRecordAlike() throws Exception {
        Path etl = SharedData.resolve("etl-corpus/perfview__net.4.5.2.x64.etl");
        Cli.Result summary = Cli.run("summary", "--json", "--no-undecoded", etl.toString());
        assertEquals(0, summary.code(), summary.toString());
        JsonNode perfInfo = null;
        for (JsonNode p : JSON.readTree(summary.out()).get("providers")) {
            if (p.get("id").asText().equals(PERF_INFO)) {
                perfInfo = p;
            }
        }
        assertTrue(perfInfo != null, summary.out());
        Cli.Result dump = Cli.run("dump", "--format", "jsonl", "--provider", PERF_INFO, "--max-events", "1",
                etl.toString());
        assertEquals(0, dump.code(), dump.toString());
        JsonNode event = jsonl(dump).get(0);
        // TraceEvent's name for every classic kernel group (its baselines print Windows Kernel/PerfInfo/Sample)
        assertEquals("Windows Kernel", event.at("/provider/name").asText(), event.toString());
        assertEquals(event.at("/provider/name").asText(), perfInfo.get("name").asText(), perfInfo.toString());
        // the group is the task dump shows after the provider name
        assertEquals("PerfInfo", perfInfo.get("group").asText(), perfInfo.toString());
        assertTrue(event.at("/event/name").asText().startsWith("PerfInfo/"), event.toString());
        Cli.Result text = Cli.run("summary", "--no-undecoded", etl.toString());
        assertTrue(text.out().contains(PERF_INFO + "  Windows Kernel/PerfInfo "), text.out());
    }

    @Test
    void dumpByTheClrNameWithoutAManifestReturnsItsEvents() throws Exception {
        Path etl = SharedData.resolve("etl-corpus/perfview__gcevents.etl");
        JsonNode expected = JSON.readTree(SharedData.resolve("etl-corpus/expected/perfview__gcevents.etl.json").toFile());
        Cli.Result r = Cli.run("dump", "--format", "jsonl", "--provider", CLR, etl.toString());
        assertEquals(0, r.code(), r.toString());
        List<JsonNode> events = jsonl(r);
        assertEquals(expected.at("/providers/" + CLR_ID + "/EVENT_HEADER").asLong(), events.size(), r.err());
        for (JsonNode e : events) {
            assertEquals(CLR_ID, e.at("/provider/id").asText(), e.toString());
            assertEquals(CLR, e.at("/provider/name").asText(), e.toString());
        }
        Cli.Result summary = Cli.run("summary", "--json", "--no-undecoded", etl.toString());
        JsonNode first = JSON.readTree(summary.out()).get("providers").get(0);
        assertEquals(CLR_ID, first.get("id").asText());
        assertEquals(CLR, first.get("name").asText(), "summary names the provider as dump does");
    }

    @Test
    void timelineByTheClrNameWithoutAManifestDrawsItsEvents() throws Exception {
        Path etl = SharedData.resolve("etl-corpus/perfview__gcevents.etl");
        Cli.Result r = Cli.run("timeline", etl.toString(), "--providers", CLR);
        assertEquals(0, r.code(), r.toString());
        int clr = 0;
        for (JsonNode e : JSON.readTree(r.out()).get("traceEvents")) {
            if (e.get("ph").asText().equals("i")) {
                assertTrue(e.get("name").asText().startsWith(CLR + "/"), e.toString());
                clr++;
            }
        }
        assertTrue(clr > 0, r.out());
    }
}
