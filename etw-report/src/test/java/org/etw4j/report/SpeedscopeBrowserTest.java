package org.etw4j.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.model.CpuProfile;
import org.etw4j.consumer.model.Timeline;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our profile and timeline files opened in a viewer nobody here wrote: speedscope 1.25.0 (jlfwong/speedscope, MIT,
 * the npm package's built web app, fetched and integrity-checked by {@code .ci/fetch-speedscope.sh} into
 * {@code target/ci-tools/speedscope}), run from {@code file://} in headless Chromium ({@link HeadlessChromium}) and
 * given each file through its own file input ({@code DOM.setFileInputFiles}), as a user's "Browse" would.
 *
 * <p>What speedscope accepts, read from its importer in the 1.25.0 bundle: its own file format (our
 * {@code etw profile --format speedscope}, one profile per process); and the Chrome trace-event format when every
 * event has {@code ph} and every B/E/X event a {@code ts}, of which it draws only the B/E/X events (our slices), one
 * profile per (pid, tid), naming it from the {@code process_name}/{@code thread_name} metadata; instants and the
 * samples' {@code sf} stacks it ignores. Unbalanced or overlapping slices it repairs with a console warning, which
 * fails this test as any error does.
 *
 * <p>Skipped with a message without Chromium, speedscope or ../shared; failed instead when {@code CI=true}.
 * Screenshots go to {@code target/report-screenshots/} (README pictures: docs/images/).
 */
@Timeout(120)
class SpeedscopeBrowserTest {
    private static final int WIDTH = 1280;
    private static final int HEIGHT = 720;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;

    private static HeadlessChromium browser;

    /** Starts the browser when speedscope and Chromium are there; each test says why it cannot run otherwise. */
    @BeforeAll
    static void startBrowser() throws Exception {
        if (HeadlessChromium.find() == null || !Files.isRegularFile(speedscopePath())) {
            return;
        }
        // speedscope draws with WebGL; --disable-gpu leaves Chromium's software renderer (SwiftShader), which newer
        // Chromium uses only when asked (else a deprecation warning, then no WebGL): asked for here, for a local page.
        browser = HeadlessChromium.start(WIDTH, HEIGHT, "--enable-unsafe-swiftshader");
        browser.enableEvents();
    }

    /** The browser: each test's first call, skipped (or failed when CI=true) with the reason when it cannot run. */
    private static HeadlessChromium browser() {
        speedscope();
        HeadlessChromium.executable();
        assertTrue(browser != null, "the browser started");
        return browser;
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    /**
     * speedscope's index.html: system property {@code etw4j.speedscope} (the pom points it at
     * target/ci-tools/speedscope), skipped without it unless {@code CI=true}.
     */
    static Path speedscope() {
        Path index = speedscopePath();
        if (Files.isRegularFile(index)) {
            return index;
        }
        String msg = "speedscope not found at " + index + " (bash .ci/fetch-speedscope.sh fetches it)";
        if (org.etw4j.testing.LinuxCi.proofsRequired()) {
            throw new AssertionError(msg + "; CI must have it (.ci/run fetches it)");
        }
        org.junit.jupiter.api.Assumptions.abort(msg);
        return null;
    }

    private static Path speedscopePath() {
        String named = System.getProperty("etw4j.speedscope",
                "../target/ci-tools/speedscope/package/dist/release/index.html");
        return Path.of(named).toAbsolutePath().normalize();
    }

    @Test
    void profileOfTraceWithSamplesOpensInSpeedscope() throws Exception {
        browser(); // first: without speedscope and a browser nothing else is worth doing
        // The busiest process but Idle, as `etw profile ... --process Test.x64` selects it (ProfileCommand filters
        // the same way): speedscope opens a file at its first profile, and Idle's is one frame deep.
        CpuProfile all = CorpusReports.net452().cpu();
        int pid = all.countsByProcessId().entrySet().stream().filter(e -> e.getKey() != 0)
                .max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        CpuProfile cpu = all.filter(c -> c.processId() == pid);
        assertEquals("Test.x64 (3676)", cpu.stacks().get(0).processLabel(), "the .NET test program");
        String name = "perfview__net.4.5.2.x64.etl"; // what etw profile FILE --format speedscope names it
        Path file = tmp.resolve("net.4.5.2.speedscope.json");
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            cpu.writeSpeedscope(w, name);
        }
        JsonNode written = JSON.readTree(file.toFile());
        JsonNode first = written.path("profiles").get(0);
        long total = 0;
        for (JsonNode p : written.path("profiles")) {
            total += p.path("endValue").asLong();
        }
        assertEquals(cpu.sampleCount(), total, "the file's profiles hold every sample");

        open(file, "left-heavy");
        assertEquals(name + " - speedscope", browser.evaluate("document.title").asText());
        JsonNode s = state();
        System.out.println("SpeedscopeBrowserTest profile: " + s);
        String toolbar = s.path("toolbar").asText();
        int profiles = written.path("profiles").size();
        assertTrue(toolbar.contains(" | " + first.path("name").asText() + (profiles > 1 ? " (1/" + profiles + ")" : "")
                + " | "),
                "toolbar names the first profile of " + profiles + ": " + toolbar);
        assertCanvas(s);
        assertNoProblems();
        shoot("speedscope-net.4.5.2-profile.png", 600);

        // Speedscope's own arithmetic: its Sandwich table lists functions with total and self weight (samples here,
        // unit "none"); every row it renders must hold the counts our profile gives that frame: total = samples whose
        // stack holds it (once per stack), self = samples where it is the leaf.
        browser.evaluate("[...document.querySelectorAll('div,button,span')].find(e => e.children.length <= 1"
                + " && e.textContent.endsWith('Sandwich')).click()");
        browser.waitFor(() -> browser.evaluate("document.querySelectorAll('tr').length > 5").asBoolean(),
                "speedscope's sandwich table");
        JsonNode rows = browser.evaluate("[...document.querySelectorAll('tr')].map(r => [...r.cells]"
                + ".map(c => c.innerText.trim())).filter(c => c.length === 3 && /^[0-9]/.test(c[0]))");
        assertTrue(rows.size() >= 5, "sandwich rows: " + rows);
        for (JsonNode row : rows) {
            String frame = row.get(2).asText();
            long withFrame = 0;
            long self = 0;
            for (CpuProfile.StackCount c : cpu.stacks()) {
                if (c.frames().stream().anyMatch(f -> f.name().equals(frame))) {
                    withFrame += c.count();
                }
                if (!c.frames().isEmpty() && c.frames().get(c.frames().size() - 1).name().equals(frame)) {
                    self += c.count();
                }
            }
            assertEquals(withFrame, weight(row.get(0).asText()), "total of " + frame + ": " + row);
            assertEquals(self, weight(row.get(1).asText()), "self of " + frame + ": " + row);
        }
        System.out.println("SpeedscopeBrowserTest: " + rows.size() + " sandwich rows equal our counts, first "
                + rows.get(0));
        assertNoProblems();
    }

    @Test
    void timelineOfTraceWithSlicesOpensInSpeedscope() throws Exception {
        // etw timeline perfview__gcevents.etl --manifest ClrEtwAll.man
        timeline("perfview__gcevents.etl", Timeline.Options.defaults(), "speedscope-gcevents-timeline.png", 180);
    }

    @Test
    void clrTimelineOfTraceWithSamplesOpensInSpeedscope() throws Exception {
        // etw timeline perfview__net.4.5.2.x64.etl --manifest ClrEtwAll.man --providers Microsoft-Windows-DotNETRuntime
        //     --no-samples --no-instants: the GCs of the .NET test program as slices (the README's picture)
        timeline("perfview__net.4.5.2.x64.etl", Timeline.Options.defaults()
                .withProviders(List.of("Microsoft-Windows-DotNETRuntime")).withSamples(false).withInstants(false),
                "speedscope-net.4.5.2-clr-timeline.png", HEIGHT);
    }

    private static void timeline(String trace, Timeline.Options options, String screenshot, int shotHeight)
            throws Exception {
        browser(); // first: without speedscope and a browser nothing else is worth doing
        ReadSettings clr = ReadSettings.builder().manifest(SharedData.resolve("manifests/ClrEtwAll.man")).build();
        Path file = tmp.resolve(trace + ".timeline.json");
        Timeline.Summary summary;
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            summary = Timeline.write(SharedData.resolve("etl-corpus/" + trace),
                    options.withManifests(clr), w);
        }
        assertTrue(summary.slices() > 0, "the trace has slices: " + summary);

        open(file, "time-ordered");
        JsonNode s = state();
        System.out.println("SpeedscopeBrowserTest timeline: " + s + " (ours: " + summary + ")");
        // The thread speedscope shows first: the smallest "pid:tid" key (it sorts its profiles by that string) among
        // the threads with slices, named from our process_name/thread_name metadata as its importer names them.
        JsonNode events = JSON.readTree(file.toFile()).path("traceEvents");
        java.util.TreeMap<String, JsonNode> threads = new java.util.TreeMap<>();
        Map<String, String> names = new java.util.HashMap<>();
        for (JsonNode e : events) {
            String ph = e.path("ph").asText();
            if (ph.equals("X") || ph.equals("B") || ph.equals("E")) {
                threads.putIfAbsent(e.path("pid").asText() + ":" + e.path("tid").asText(), e);
            } else if (ph.equals("M") && e.path("name").asText().equals("process_name")) {
                names.put("p" + e.path("pid").asText(), e.path("args").path("name").asText());
            } else if (ph.equals("M") && e.path("name").asText().equals("thread_name")) {
                names.put(e.path("pid").asText() + ":" + e.path("tid").asText(), e.path("args").path("name").asText());
            }
        }
        JsonNode firstSlice = threads.firstEntry().getValue();
        String pidText = firstSlice.path("pid").asText();
        String label = names.get("p" + pidText) + " (pid " + pidText + "), "
                + names.get(threads.firstKey()) + " (tid " + firstSlice.path("tid").asText() + ")";
        String toolbar = s.path("toolbar").asText();
        assertTrue(toolbar.contains(" | " + label + (threads.size() > 1 ? " (1/" + threads.size() + ")" : "") + " | "),
                "toolbar names " + label + " of " + threads.size() + " threads with slices: " + toolbar);
        assertCanvas(s);
        assertNoProblems();
        shoot(screenshot, shotHeight);
    }

    /** The count of a speedscope table cell such as "1,627 (12%)". */
    private static long weight(String cell) {
        return Long.parseLong(cell.substring(0, cell.indexOf(" (")).replace(",", ""));
    }

    /** Opens speedscope, hands it {@code file} through its file input, waits until it shows the file. */
    private static void open(Path file, String view) throws Exception {
        browser.navigate("about:blank"); // a new document each time: the same page with another #view would not load
        browser.clearEvents();
        browser.navigate(speedscope().toUri() + "#view=" + view);
        JsonNode root = browser.send("DOM.getDocument", Map.of()).path("root");
        int input = browser.send("DOM.querySelector", Map.of("nodeId", root.path("nodeId").asInt(),
                "selector", "input[type=file]")).path("nodeId").asInt();
        assertTrue(input != 0, "speedscope's file input");
        browser.send("DOM.setFileInputFiles", Map.of("nodeId", input, "files", List.of(file.toString())));
        browser.waitFor(() -> browser.evaluate("document.title").asText().endsWith(" - speedscope")
                && browser.evaluate("document.querySelectorAll('canvas').length > 0").asBoolean(),
                "speedscope to show " + file.getFileName());
        Thread.sleep(300); // a frame or two for the canvas to be painted
    }

    /** The page's title, toolbar text and canvases' sizes. */
    private static JsonNode state() {
        return browser.evaluate("(() => ({title: document.title,"
                + " toolbar: document.body.innerText.split('\\n').slice(0, 6).join(' | '),"
                + " canvases: [...document.querySelectorAll('canvas')].map(c => ({w: c.getBoundingClientRect().width,"
                + " h: c.getBoundingClientRect().height}))}))()");
    }

    private static void assertCanvas(JsonNode s) {
        boolean sized = false;
        for (JsonNode c : s.path("canvases")) {
            sized |= c.path("w").asDouble() > 600 && c.path("h").asDouble() > 300;
        }
        assertTrue(sized, "a canvas of the page's size: " + s.path("canvases"));
    }

    /** No console error or warning, no uncaught exception, no request outside speedscope's own folder. */
    private static void assertNoProblems() {
        String home = speedscope().getParent().toUri().toString();
        List<String> problems = browser.problems(url -> url.startsWith(home) || url.startsWith("data:")
                || url.startsWith("blob:"), SpeedscopeBrowserTest::softwareGlNote);
        assertTrue(problems.isEmpty(), "problems in the browser: " + problems);
    }

    /**
     * Tolerated: the software GL driver's performance notes, e.g. "[.WebGL-0x...]GL Driver Message (OpenGL,
     * Performance, GL_CLOSE_PATH_NV, High): GPU stall due to ReadPixels" (seen when the screenshot reads the canvas):
     * they are about the renderer of this headless host, not about speedscope or our file.
     */
    private static boolean softwareGlNote(String text) {
        return text.startsWith("[.WebGL-") && text.contains("GL Driver Message (OpenGL, Performance,");
    }

    /** A PNG of the page's top {@code height} CSS pixels (speedscope fills the viewport; the rest may be empty). */
    private static void shoot(String name, int height) throws IOException {
        Path dir = Files.createDirectories(Path.of(System.getProperty("etw4j.report.screenshots",
                "target/report-screenshots")));
        Files.write(dir.resolve(name), browser.screenshot(0, 0, WIDTH, height));
    }
}
