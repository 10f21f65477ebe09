package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;

/** {@code etw dump} on corpus files: every format, the provider filter, manifests. */
class DumpCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static List<JsonNode> jsonLines(Cli.Result r) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : r.outLines()) {
            JsonNode n = JSON.readTree(line);
            assertTrue(n.isObject(), line);
            for (String k : List.of("timestamp", "provider", "event", "pid", "tid", "cpu", "activityId", "fields")) {
                assertTrue(n.has(k), "no " + k + " in " + line);
            }
            for (String k : List.of("id", "name")) {
                assertTrue(n.get("provider").has(k), "no provider." + k + " in " + line);
            }
            for (String k : List.of("id", "version", "opcode", "level", "task", "keyword", "name")) {
                assertTrue(n.get("event").has(k), "no event." + k + " in " + line);
            }
            assertTrue(n.get("fields").isObject(), line);
            out.add(n);
        }
        return out;
    }

    @Test
    void jsonlHasOneParsableObjectPerRecord() throws Exception {
        Path etl = SharedData.resolve("etl-corpus/krabsetw__powershell.etl");
        JsonNode expected = JSON.readTree(SharedData.resolve("etl-corpus/expected/krabsetw__powershell.etl.json").toFile());
        Cli.Result r = Cli.run("dump", "--format", "jsonl", etl.toString());
        assertEquals(0, r.code(), r.toString());
        List<JsonNode> events = jsonLines(r);
        assertEquals(expected.at("/records/total").asLong(), events.size());
        // per-provider counts as the independent parsers found them
        long ps = events.stream().filter(e -> e.at("/provider/id").asText().equals("a0c1853b-5c40-4b15-8766-3cf1c58f985a")).count();
        assertEquals(expected.at("/providers/a0c1853b-5c40-4b15-8766-3cf1c58f985a/EVENT_HEADER").asLong(), ps);
        // time order, and the first and last timestamps of the file
        String first = events.get(0).get("timestamp").asText();
        assertTrue(first.startsWith("2023-03-29T15:12:38.017544"), first);
        for (int i = 1; i < events.size(); i++) {
            Instant before = Instant.parse(events.get(i - 1).get("timestamp").asText());
            Instant now = Instant.parse(events.get(i).get("timestamp").asText());
            assertTrue(!now.isBefore(before), "out of time order at line " + (i + 1));
        }
        String last = events.get(events.size() - 1).get("timestamp").asText();
        assertTrue(last.startsWith("2023-03-29T15:14:55.43894"), last); // expected max 15:14:55.438942 (+-1 us)
        // the header record decodes with the built-in kernel layout
        assertEquals("usermode_trace", events.get(0).at("/fields/SessionName").asText());
        assertTrue(events.get(0).get("activityId").isNull());
    }

    @Test
    void providerFilterAndMaxEvents() throws Exception {
        Path etl = SharedData.resolve("etl-corpus/krabsetw__powershell.etl");
        Cli.Result r = Cli.run("dump", "--format", "jsonl", "--provider", "{a0c1853b-5c40-4b15-8766-3cf1c58f985a}", etl.toString());
        assertEquals(0, r.code(), r.toString());
        List<JsonNode> events = jsonLines(r);
        assertEquals(112, events.size());
        assertTrue(events.stream().allMatch(e -> e.at("/provider/id").asText().equals("a0c1853b-5c40-4b15-8766-3cf1c58f985a")));

        Cli.Result three = Cli.run("dump", "--format", "jsonl", "--max-events", "3", etl.toString());
        assertEquals(3, jsonLines(three).size());
    }

    @Test
    void manifestDecodesClrEventsAndNameFilterWorks() throws Exception {
        Path etl = SharedData.resolve("etl-corpus/perfview__gcevents.etl");
        Path man = SharedData.resolve("manifests/ClrEtwAll.man");
        Cli.Result r = Cli.run("dump", "--format", "jsonl", "--manifest", man.toString(),
                "--provider", "Microsoft-Windows-DotNETRuntime", etl.toString());
        assertEquals(0, r.code(), r.toString());
        List<JsonNode> events = jsonLines(r);
        assertTrue(events.size() > 10, "only " + events.size() + " CLR events");
        assertTrue(events.stream().allMatch(e -> e.at("/provider/name").asText().equals("Microsoft-Windows-DotNETRuntime")));
        assertTrue(events.stream().allMatch(e -> e.at("/provider/id").asText().equals("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4")));
        JsonNode segment = events.stream().filter(e -> e.at("/event/name").asText().equals("GC/CreateSegment"))
                .findFirst().orElseThrow(() -> new AssertionError("no GC/CreateSegment event"));
        assertTrue(segment.at("/fields/Address").asText().startsWith("0x"), segment.toString());
        assertTrue(segment.at("/fields").has("ClrInstanceID"), segment.toString());
    }

    /**
     * Integers print with the sign their schema declares, alike in text, CSV and JSON Lines (issue 10, defect 3).
     * The trace's TraceLogging metadata declares int16_type and int32_type signed but int64_type TlgInUINT64
     * (byte 0x0a at file offset 0x2133, after "int64_type\0"); TraceEvent prints it -204 only because it reads every
     * UInt64 as a .NET long. So int64_type prints 18446744073709551412, as TDH would.
     */
    @Test
    void integersFollowTheSchemaSignInEveryFormat() throws Exception {
        Path etl = SharedData.resolve("etl-corpus/perfview__primitive-types.etl");
        String mercury = "int16_type=-51; int32_type=-102; uint16_type=51; uint32_type=102; "
                + "int64_type=18446744073709551412; uint64_type=204;";
        Cli.Result text = Cli.run("dump", etl.toString());
        assertEquals(0, text.code(), text.toString());
        assertTrue(text.outLines().stream().anyMatch(l -> l.contains(mercury)), text.out());

        Cli.Result csv = Cli.run("dump", "--format", "csv", etl.toString());
        assertEquals(0, csv.code(), csv.toString());
        assertTrue(csv.outLines().stream().anyMatch(l -> l.contains(mercury)), csv.out());

        Cli.Result jsonl = Cli.run("dump", "--format", "jsonl", etl.toString());
        assertEquals(0, jsonl.code(), jsonl.toString());
        JsonNode first = jsonLines(jsonl).stream()
                .filter(e -> e.at("/event/name").asText().endsWith("PrimitiveTypesTest")).findFirst()
                .orElseThrow(() -> new AssertionError("no PrimitiveTypesTest event: " + jsonl.out()));
        assertEquals("-51", first.at("/fields/int16_type").asText());
        assertEquals("-102", first.at("/fields/int32_type").asText());
        assertTrue(first.at("/fields/int64_type").isBigInteger() || first.at("/fields/int64_type").isNumber(), first.toString());
        assertEquals("18446744073709551412", first.at("/fields/int64_type").bigIntegerValue().toString());
        assertEquals("204", first.at("/fields/uint64_type").asText());
    }

    @Test
    void textAndCsv() throws Exception {
        Path etl = SharedData.resolve("etl-corpus/perfview__smallEtlFile.etl");
        Cli.Result text = Cli.run("dump", etl.toString());
        assertEquals(0, text.code(), text.toString());
        assertEquals(2, text.outLines().size(), text.out());
        assertTrue(text.outLines().get(0).contains("EventTrace"), text.out());
        assertTrue(text.outLines().get(0).contains("SessionName=PerfWatsonGCHeapETLSession688;"), text.out());

        Cli.Result csv = Cli.run("dump", "--format", "csv", etl.toString());
        assertEquals(0, csv.code(), csv.toString());
        List<String> lines = csv.outLines();
        assertEquals(3, lines.size(), csv.out());
        assertEquals("timestamp,provider_id,provider,event,id,version,opcode,opcode_name,level,task,keyword,pid,tid,cpu,"
                + "activity_id,related_activity_id,process,process_image,fields", lines.get(0));
        assertTrue(lines.get(2).startsWith("2016-08-17T23:30:22.0688637"), lines.get(2));
        assertTrue(lines.get(2).contains(",a669021c-c450-4609-a035-5af59af4df18,"), lines.get(2));
    }

    /**
     * Issue 25, item 5: every format shows the related activity id, and the opcode by name. net.4.5.2's three
     * TplEventSource TaskScheduled/Send events carry one (EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID); .NET's
     * TplEventSource.TaskScheduled writes the scheduled task's activity id there, a GUID its ActivityTracker builds
     * from the task id (first group), the AppDomain id (1) and the process id (3988 = 0x0f94, little-endian
     * "940f"), so each id is checked against the event's own TaskID field. Before: no format showed it.
     */
    @Test
    void relatedActivityIdsAndOpcodeNamesShowInEveryFormat() throws Exception {
        Path etl = SharedData.resolve("etl-corpus/perfview__net.4.5.2.x64.etl");
        String tpl = "System.Threading.Tasks.TplEventSource";
        Cli.Result jsonl = Cli.run("dump", "--format", "jsonl", "--provider", tpl, etl.toString());
        assertEquals(0, jsonl.code(), jsonl.toString());
        List<JsonNode> scheduled = jsonLines(jsonl).stream()
                .filter(e -> e.at("/event/name").asText().equals("TaskScheduled/Send")).toList();
        assertEquals(3, scheduled.size(), jsonl.out());
        for (JsonNode e : scheduled) {
            String related = String.format("%08x-0001-0000-940f-0000ffdcd7b5", e.at("/fields/TaskID").asInt());
            assertEquals(related, e.get("relatedActivityId").asText(), e.toString());
            assertEquals(9, e.at("/event/opcode").asInt());
            assertEquals("Send", e.at("/event/opcodeName").asText());
        }

        Cli.Result text = Cli.run("dump", "--provider", tpl, etl.toString());
        assertEquals(0, text.code(), text.toString());
        for (int task = 6; task <= 8; task++) {
            String id = String.format("%08x-0001-0000-940f-0000ffdcd7b5", task);
            assertTrue(text.outLines().stream().anyMatch(l -> l.contains("  level 4  opcode Send  related " + id
                    + "  System.Threading.Tasks.TplEventSource/TaskScheduled/Send ")), text.out());
        }

        Cli.Result csv = Cli.run("dump", "--format", "csv", "--provider", tpl, etl.toString());
        assertEquals(0, csv.code(), csv.toString());
        List<String> header = List.of(csv.outLines().get(0).split(","));
        int related = header.indexOf("related_activity_id");
        int opcodeName = header.indexOf("opcode_name");
        long withRelated = csv.outLines().stream().skip(1).map(l -> l.split(","))
                .filter(c -> c[related].endsWith("-0001-0000-940f-0000ffdcd7b5") && c[opcodeName].equals("Send"))
                .count();
        assertEquals(3, withRelated, csv.out());
    }

    /** Kernel event classes (classic events are filtered by their event-class GUID). */
    static final String DISK_IO = "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c";
    static final String PROCESS = "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c";
    static final String IMAGE = "2cb15d1d-5fc1-11d2-abe1-00a0c911f518";

    @Test
    void kernelEventsShowDriveLetterPathsFlagNamesAndTheirProcessInEveryFormat() throws Exception {
        Path etl = SharedData.resolve("etl-corpus/perfview__net.4.5.2.x64.etl");
        Cli.Result r = Cli.run("dump", "--format", "jsonl", "--provider", DISK_IO, "--provider", PROCESS, etl.toString());
        assertEquals(0, r.code(), r.toString());
        List<JsonNode> events = jsonLines(r);
        // TraceEvent baseline net.4.5.2.x64 line 14: Process/DCStart PID=4 PName=System Flags=Protected
        JsonNode system = events.stream().filter(e -> e.at("/event/name").asText().equals("Process/DCStart")
                && e.at("/fields/ProcessID").asLong() == 4).findFirst().orElseThrow();
        assertEquals("System", system.at("/process/name").asText(), system.toString());
        assertEquals(JSON.readTree("{\"names\":[\"Protected\"],\"value\":4}"), system.at("/fields/Flags"));
        // line 113: the DiskIO/Write of Irp 0xfffffa830047e8f0, FileName=C:\Windows\System32\..., PName=System
        JsonNode write = events.stream().filter(e -> e.at("/event/name").asText().equals("DiskIO/Write")
                && e.at("/fields/Irp").asText().equals("0xfffffa830047e8f0")).findFirst().orElseThrow();
        assertEquals(JSON.readTree("{\"names\":[\"Nocache\",\"MountCompletion\",\"SynchronousPagingIO\"],"
                + "\"value\":\"0x20043\"}"), write.at("/fields/IrpFlags"), write.toString());
        assertEquals("Verylow", write.at("/fields/Priority").asText());
        String dos = write.at("/fields/FileName").asText();
        String nt = write.at("/ntPaths/FileName").asText();
        assertTrue(dos.startsWith("C:\\Windows\\System32\\"), write.toString());
        assertEquals("\\Device\\HarddiskVolume2\\" + dos.substring(3), nt, write.toString());
        assertEquals("System", write.at("/process/name").asText(), write.toString());

        Cli.Result text = Cli.run("dump", "--provider", IMAGE, "--max-events", "3", etl.toString());
        assertEquals(0, text.code(), text.toString());
        // line 18: Image/DCStart PID=4 PName=System FileName=C:\Windows\SysWOW64\... (the header's pid is -1)
        String image = text.outLines().get(0);
        assertTrue(image.contains("  pid -1 (4 System)  "), image);
        assertTrue(image.contains(" FileName=C:\\Windows\\SysWOW64\\ntdll.dll;"), image);

        Cli.Result csv = Cli.run("dump", "--format", "csv", "--provider", IMAGE, "--max-events", "1", etl.toString());
        assertEquals(0, csv.code(), csv.toString());
        assertTrue(csv.outLines().get(1).contains(",System,,"), csv.out());
        assertTrue(csv.outLines().get(1).contains(" FileName=C:\\Windows\\SysWOW64\\ntdll.dll;"), csv.out());
    }

    @Test
    void aTraceWithoutVolumeMappingKeepsNtPathsAndSaysSo() throws Exception {
        // a kernel trace as Windows wrote it, before any merge: no SysConfig VolumeMapping events
        Path etl = SharedData.resolve("etl-corpus/perfview__diaghub.diaghub.kernel.1.etl");
        Cli.Result text = Cli.run("dump", "--provider", IMAGE, "--max-events", "200", etl.toString());
        assertEquals(0, text.code(), text.toString());
        String line = text.outLines().stream().filter(l -> l.contains("HarddiskVolume")).findFirst().orElseThrow();
        assertTrue(line.matches(".* FileName=\\\\Device\\\\HarddiskVolume\\d+\\\\.* \\(no volume mapping recorded\\);"),
                line);
        List<JsonNode> events = jsonLines(Cli.run("dump", "--format", "jsonl", "--provider", IMAGE, "--max-events", "200",
                etl.toString()));
        JsonNode e = events.stream().filter(j -> j.at("/fields/FileName").asText().contains("HarddiskVolume"))
                .findFirst().orElseThrow();
        assertTrue(e.at("/fields/FileName").asText().startsWith("\\Device\\HarddiskVolume"), e.toString());
        assertEquals(e.at("/fields/FileName").asText(), e.at("/ntPaths/FileName").asText());
        assertEquals("FileName: NT path; the trace recorded no volume mapping for it", e.at("/notes/0").asText(),
                e.toString());
    }
}
