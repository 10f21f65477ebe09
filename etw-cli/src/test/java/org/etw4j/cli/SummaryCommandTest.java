package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;

/**
 * {@code etw summary} on corpus files, checked against the independent facts in
 * {@code ../shared/etl-corpus/expected/*.json}.
 */
class SummaryCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> KEYS = List.of("file", "osBuild", "pointerSize", "bufferSize", "buffersWritten",
            "logFileMode", "clockType", "sessionName", "startTime", "endTime", "eventsLost", "records", "providers",
            "firstTimestamp", "lastTimestamp");

    @Test
    void jsonHasTheKeysAndTheCorpusFacts() throws Exception {
        Path etl = SharedData.resolve("etl-corpus/krabsetw__powershell.etl");
        JsonNode expected = JSON.readTree(SharedData.resolve("etl-corpus/expected/krabsetw__powershell.etl.json").toFile());
        Cli.Result r = Cli.run("summary", "--json", etl.toString());
        assertEquals(0, r.code(), r.toString());
        JsonNode s = JSON.readTree(r.out());
        assertTrue(s.isObject(), r.out());
        for (String k : KEYS) {
            assertTrue(s.has(k), "missing key " + k + " in " + r.out());
        }
        JsonNode h = expected.get("header");
        assertEquals("krabsetw__powershell.etl", s.get("file").asText());
        assertEquals(h.get("os_build").asLong(), s.get("osBuild").asLong());
        assertEquals(h.get("pointer_size").asLong(), s.get("pointerSize").asLong());
        assertEquals(h.get("buffer_size").asLong(), s.get("bufferSize").asLong());
        assertEquals(h.get("buffers_written").asLong(), s.get("buffersWritten").asLong());
        assertEquals(h.get("log_file_mode").asText(), s.get("logFileMode").asText());
        assertEquals(h.get("session").asText(), s.get("sessionName").asText());
        assertEquals(expected.at("/records/total").asLong(), s.at("/records/total").asLong());
        expected.at("/records/by_header_kind").fields().forEachRemaining(e ->
                assertEquals(e.getValue().asLong(), s.at("/records/byHeaderKind/" + e.getKey()).asLong(), e.getKey()));
        assertEquals(expected.get("providers").size(), s.get("providers").size());
        for (JsonNode p : s.get("providers")) {
            for (String k : List.of("id", "name", "records", "byHeaderKind")) {
                assertTrue(p.has(k), "provider without " + k + ": " + p);
            }
            JsonNode e = expected.get("providers").get(p.get("id").asText());
            assertTrue(e != null, "unexpected provider " + p);
            long sum = 0;
            for (JsonNode n : e) {
                sum += n.asLong();
            }
            assertEquals(sum, p.get("records").asLong(), p.toString());
        }
    }

    @Test
    void severalFilesGiveAnArray() throws Exception {
        Path a = SharedData.resolve("etl-corpus/perfview__smallEtlFile.etl");
        Path b = SharedData.resolve("etl-corpus/krabsetw__powershell.etl");
        Cli.Result r = Cli.run("summary", "--json", a.toString(), b.toString());
        assertEquals(0, r.code(), r.toString());
        JsonNode arr = JSON.readTree(r.out());
        assertTrue(arr.isArray());
        assertEquals(2, arr.size());
        assertEquals("perfview__smallEtlFile.etl", arr.get(0).get("file").asText());
        assertEquals("krabsetw__powershell.etl", arr.get(1).get("file").asText());
        assertEquals(2, arr.get(0).at("/records/total").asLong());
    }

    @Test
    void textForm() {
        Path etl = SharedData.resolve("etl-corpus/perfview__smallEtlFile.etl");
        Cli.Result r = Cli.run("summary", etl.toString());
        assertEquals(0, r.code(), r.toString());
        List<String> lines = r.outLines();
        assertEquals("perfview__smallEtlFile.etl  (1061 bytes)", lines.get(0));
        assertTrue(r.out().contains("  session      PerfWatsonGCHeapETLSession688\n"), r.out());
        assertTrue(r.out().contains("  records      2 (SYSTEM_TRACE_HEADER 1, EVENT_HEADER 1)\n"), r.out());
        assertTrue(r.out().contains("  started      2016-08-17T23:30:22.037926+00:00\n"), r.out());
        assertTrue(r.out().contains("  providers (2)\n"), r.out());
        assertTrue(r.out().contains("a669021c-c450-4609-a035-5af59af4df18"), r.out());
    }

    @Test
    void undecodedEventsAreCountedPerKindWithWhy() throws Exception {
        // net.4.5.2.x64 with ClrEtwAll.man: four kernel classic events no table knows (one each), and the ImageID
        // "None" events whose payload neither the built-in layout (from TraceEvent's SymbolTraceEventParser) nor
        // TraceEvent reads; nothing else
        Path etl = SharedData.resolve("etl-corpus/perfview__net.4.5.2.x64.etl");
        Path man = SharedData.resolve("manifests/ClrEtwAll.man");
        Cli.Result r = Cli.run("summary", "--json", "--manifest", man.toString(), etl.toString());
        assertEquals(0, r.code(), r.toString());
        JsonNode u = JSON.readTree(r.out()).get("undecoded");
        assertTrue(u != null && u.isArray(), r.out());
        List<String> kinds = new java.util.ArrayList<>();
        for (JsonNode k : u) {
            kinds.add(k.get("event").asText() + " v" + k.get("version").asInt() + " x" + k.get("count").asLong());
            assertTrue(k.get("why").asText().contains("knows opcode " + k.get("opcode").asInt())
                    || k.get("why").asText().equals("the schema (KERNEL_MOF) has no field for the payload"), k.toString());
        }
        assertEquals(List.of("ImageID/None v2 x12", "SystemConfig/Opcode(18) v2 x1", "SystemConfig/Opcode(28) v2 x1", "Image/Opcode(34) v2 x1",
                "SysConfig/Opcode(37) v0 x1"), kinds);

        // the text form lists them under the providers; without the manifest the private CLR events are listed
        Cli.Result t = Cli.run("summary", etl.toString());
        assertEquals(0, t.code(), t.toString());
        assertTrue(t.out().contains("  undecoded events (1643 in 24 kinds)\n"), t.out());
        // the CLR private provider is named by the well-known table (issue 25.3; it was its GUID)
        assertTrue(t.out().contains("    264  Microsoft-Windows-DotNETRuntimePrivate/EventID(4)"), t.out());

        // --no-undecoded: headers only, no decoding pass, no undecoded section or member
        Cli.Result fast = Cli.run("summary", "--no-undecoded", etl.toString());
        assertEquals(0, fast.code(), fast.toString());
        assertTrue(!fast.out().contains("undecoded events"), fast.out());
        Cli.Result fastJson = Cli.run("summary", "--json", "--no-undecoded", etl.toString());
        assertTrue(!JSON.readTree(fastJson.out()).has("undecoded"), fastJson.out());
    }

    /**
     * A file's undecoded listing is its own, whatever other files the command line names: diaghub.diaghub.etl
     * carries the schema of DotNETRuntime event 187 (in-trace metadata), gcevents.etl does not. Failed before the
     * summary read each file through its own reader: one decoder served every file, so gcevents' event 187 was
     * counted as decoded after diaghub and as undecoded alone.
     */
    @Test
    void eachFilesUndecodedListingIsItsOwnInAMultiFileSummary() throws Exception {
        Path diaghub = SharedData.resolve("etl-corpus/perfview__diaghub.diaghub.etl");
        Path gcevents = SharedData.resolve("etl-corpus/perfview__gcevents.etl");
        Cli.Result both = Cli.run("summary", "--json", diaghub.toString(), gcevents.toString());
        Cli.Result alone = Cli.run("summary", "--json", gcevents.toString());
        assertEquals(0, both.code(), both.toString());
        assertEquals(0, alone.code(), alone.toString());
        JsonNode second = JSON.readTree(both.out()).get(1);
        assertEquals(JSON.readTree(alone.out()), second);
        assertTrue(second.get("undecoded").toString().contains("\"id\":187"), second.get("undecoded").toString());
    }
}
