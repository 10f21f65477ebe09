package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code etw profile} on perfview__net.4.5.2.x64.etl, the corpus trace with CPU samples and stacks (79528
 * PerfInfo/SampleProf events; 5129 of them in Test.x64, pid 3676, as a plain count attributed by thread shows:
 * TraceModelCorpusTest).
 */
class ProfileCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SAMPLES = 79528;

    private static Path trace() {
        return SharedData.resolve("etl-corpus/perfview__net.4.5.2.x64.etl");
    }

    private static long collapsedSum(String out) {
        long sum = 0;
        for (String line : out.split("\n")) {
            int space = line.lastIndexOf(' ');
            assertTrue(space > 0 && line.indexOf(';') > 0, line);
            sum += Long.parseLong(line.substring(space + 1));
        }
        return sum;
    }

    /**
     * The model's two passes drive the progress line on stderr (as for {@code etw dump}): the bar, the file, the
     * pass, and the line erased at the end; stdout keeps only the folded stacks.
     */
    @Test
    void aLongReadDrawsAProgressLineOnStderrAndErasesIt() {
        EtwCommand.progressAllowed(true);
        Cli.Result r;
        try {
            r = Cli.run("profile", trace().toString(), "--format", "collapsed");
        } finally {
            EtwCommand.progressAllowed(false);
        }
        assertEquals(0, r.code(), r.toString());
        assertEquals(SAMPLES, collapsedSum(r.out()));
        java.util.regex.Matcher bar = java.util.regex.Pattern.compile(
                "\\r\\[[#.]{30}\\] +(\\d+)%  reading perfview__net\\.4\\.5\\.2\\.x64\\.etl  pass ([12])/2").matcher(r.err());
        java.util.List<Integer> percents = new java.util.ArrayList<>();
        java.util.Set<String> passes = new java.util.HashSet<>();
        while (bar.find()) {
            percents.add(Integer.parseInt(bar.group(1)));
            passes.add(bar.group(2));
        }
        assertTrue(!percents.isEmpty(), "a progress line: " + r.err());
        for (int i = 1; i < percents.size(); i++) {
            assertTrue(percents.get(i) >= percents.get(i - 1), "never goes back: " + percents);
        }
        assertTrue(percents.get(percents.size() - 1) > 50 && passes.contains("2"), "second pass shown: " + percents);
        assertTrue(r.err().matches("(?s).*\\r +\\r"), "the line erased at the end");
    }

    @Test
    void collapsedSumsToTheSampleCountAndSpeedscopeParsesBackToTheSameCount(@TempDir Path dir) throws Exception {
        Cli.Result collapsed = Cli.run("profile", trace().toString(), "--format", "collapsed");
        assertEquals(0, collapsed.code(), collapsed.toString());
        assertEquals(SAMPLES, collapsedSum(collapsed.out()));
        assertTrue(collapsed.out().contains("Idle (0);ntoskrnl!+0x"), "the idle process samples the kernel");

        Path json = dir.resolve("profile.speedscope.json");
        Cli.Result speedscope = Cli.run("profile", trace().toString(), "--format", "speedscope", "-o", json.toString());
        assertEquals(0, speedscope.code(), speedscope.toString());
        JsonNode root = JSON.readTree(json.toFile());
        assertEquals("https://www.speedscope.app/file-format-schema.json", root.get("$schema").asText());
        int frames = root.get("shared").get("frames").size();
        long weights = 0;
        for (JsonNode p : root.get("profiles")) {
            assertEquals("sampled", p.get("type").asText());
            assertEquals(p.get("samples").size(), p.get("weights").size());
            long profileSum = 0;
            for (JsonNode w : p.get("weights")) {
                profileSum += w.asLong();
            }
            assertEquals(profileSum, p.get("endValue").asLong());
            for (JsonNode stack : p.get("samples")) {
                for (JsonNode id : stack) {
                    assertTrue(id.asInt() >= 0 && id.asInt() < frames, "frame index " + id);
                }
            }
            weights += profileSum;
        }
        assertEquals(collapsedSum(collapsed.out()), weights);
    }

    @Test
    void processSelectionByNameOrId() {
        Cli.Result byName = Cli.run("profile", trace().toString(), "--process", "Test.x64.exe");
        Cli.Result byId = Cli.run("profile", trace().toString(), "--process", "3676", "--per-thread");
        assertEquals(0, byName.code(), byName.toString());
        assertEquals(5129, collapsedSum(byName.out()));
        assertEquals(5129, collapsedSum(byId.out()));
        for (String line : byId.out().split("\n")) {
            assertTrue(line.startsWith("Test.x64 (3676);Thread ("), line);
        }
        Cli.Result none = Cli.run("profile", trace().toString(), "--process", "nosuch");
        // the trace has samples, the selection none: a distinct status, as dump's --provider (exit 0 before)
        assertEquals(EtwCommand.NO_MATCH, none.code(), none.toString());
        assertEquals("", none.out());
        assertTrue(none.err().contains("no CPU samples of the selected processes"), none.toString());
        assertTrue(none.err().contains("no process matched --process nosuch"), none.toString());
    }

    @Test
    void aTraceWithoutSamplesSaysSo() {
        Cli.Result r = Cli.run("profile", SharedData.resolve("etl-corpus/krabsetw__powershell.etl").toString());
        assertEquals(0, r.code(), r.toString());
        assertEquals("", r.out());
        assertTrue(r.err().contains("no CPU samples in the trace"), r.toString());
    }
}
