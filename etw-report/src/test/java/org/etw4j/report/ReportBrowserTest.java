package org.etw4j.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.etw4j.consumer.etl.EtlSummary;
import org.etw4j.consumer.model.CpuProfile;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report opened in a real headless Chromium (DevTools protocol, {@link HeadlessChromium}): the page of
 * {@code perfview__net.4.5.2.x64.etl} (the corpus's trace with CPU samples and stacks) renders without console
 * errors, uncaught exceptions or any request beyond its own file; the chart and the flame graph exist with a size;
 * the flame graph's root holds as many samples as {@link org.etw4j.consumer.model.CpuProfile} counts; hover shows a
 * frame's name and count, a click zooms. Screenshots go to {@code target/report-screenshots/}.
 *
 * <p>Skipped with a message without Chromium or ../shared, failed instead when {@code CI=true}.
 */
@Timeout(120)
class ReportBrowserTest {
    private static final int WIDTH = 1280;

    @TempDir
    static Path tmp;

    private static CompletableFuture<HeadlessChromium> starting;
    private static HeadlessChromium browser;

    /** Starts the browser on another thread: its start-up (seconds on a busy machine) overlaps reading the trace. */
    @BeforeAll
    static void startBrowser() {
        if (HeadlessChromium.find() == null) {
            return; // each test skips (or fails on CI) with the reason: browser()
        }
        long t0 = System.nanoTime();
        starting = CompletableFuture.supplyAsync(() -> {
            try {
                HeadlessChromium b = HeadlessChromium.start(WIDTH, 900);
                b.enableEvents();
                System.out.printf("ReportBrowserTest: browser started in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
                return b;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
    }

    /** The started browser (waits for the start-up). */
    private static HeadlessChromium browser() throws Exception {
        if (starting == null) {
            HeadlessChromium.executable(); // none: skipped with the reason, or failed when CI=true
        }
        if (browser == null) {
            browser = starting.get(HeadlessChromium.START_TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS);
        }
        return browser;
    }

    @AfterAll
    static void stopBrowser() {
        if (browser == null && starting != null) { // no test used it (they failed first): still end it
            browser = starting.handle((b, e) -> b).orTimeout(HeadlessChromium.START_TIMEOUT.toSeconds() + 10,
                    TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
        if (browser != null) {
            long t0 = System.nanoTime();
            browser.close();
            System.out.printf("ReportBrowserTest: browser stopped in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        }
    }

    @Test
    void reportOfTraceWithSamplesRendersWithoutErrors() throws Exception {
        if (starting == null) {
            browser(); // skipped (or failed on CI) before reading the trace
        }
        long t0 = System.nanoTime();
        TraceReport report = CorpusReports.net452(); // read while the browser starts (see startBrowser)
        long t1 = System.nanoTime();
        long samples = report.cpu().sampleCount();
        assertTrue(samples > 0, "the corpus trace has CPU samples");
        Path html = write(report, "net.4.5.2.html");
        open(html);

        JsonNode s = browser.evaluate("(() => { const r = e => { const b = document.getElementById(e)"
                + ".getBoundingClientRect(); return {w: b.width, h: b.height}; };"
                + " return {flame: r('flame'), chart: r('rate-svg'), rootSamples: document.getElementById('flame')"
                + ".dataset.rootSamples, drawn: window.etw4jReport.drawnFrames, buckets: window.etw4jReport.chartBuckets,"
                + " paths: document.querySelectorAll('#rate-svg path').length,"
                + " providers: document.querySelectorAll('#providers tr').length - 1,"
                + " processes: document.querySelectorAll('#processes tr').length - 1,"
                + " facts: document.getElementById('facts').innerText}; })()");
        assertTrue(s.path("flame").path("w").asDouble() > 100 && s.path("flame").path("h").asDouble() > 100,
                "flame graph size " + s.path("flame"));
        assertTrue(s.path("chart").path("w").asDouble() > 100 && s.path("chart").path("h").asDouble() > 100,
                "chart size " + s.path("chart"));
        assertEquals(Long.toString(samples), s.path("rootSamples").asText(), "flame graph root samples");
        assertTrue(s.path("drawn").asInt() > 10, "flame graph boxes drawn: " + s.path("drawn"));
        assertEquals(report.rate().buckets(), s.path("buckets").asInt());
        assertEquals(report.rate().series().size(), s.path("paths").asInt(), "one area per series");
        assertEquals(report.summary().providers().size(), s.path("providers").asInt(), "provider rows");
        assertTrue(s.path("processes").asInt() > 0, "process rows");
        String facts = s.path("facts").asText();
        for (TraceFacts.Fact f : TraceFacts.of(report.summary())) {
            assertTrue(facts.contains(f.value()), "facts show " + f);
        }

        // Hover over the first process box (row 1 of the icicle, left edge): a tooltip with its name and count.
        JsonNode box = browser.evaluate("(() => { const b = document.getElementById('flame').getBoundingClientRect();"
                + " window.scrollTo(0, window.scrollY + b.top - 100); const c = document.getElementById('flame')"
                + ".getBoundingClientRect(); return {x: c.left, y: c.top}; })()");
        double x = box.path("x").asDouble() + 5;
        double y = box.path("y").asDouble() + 18 + 9;
        browser.mouse(x, y, false);
        String tip = browser.evaluate("document.getElementById('tooltip').hidden ? ''"
                + " : document.getElementById('tooltip').innerText").asText();
        List<java.util.Map.Entry<String, Long>> byProcess = report.cpu().stacks().stream()
                .collect(java.util.stream.Collectors.groupingBy(CpuProfile.StackCount::processLabel,
                        java.util.stream.Collectors.summingLong(CpuProfile.StackCount::count)))
                .entrySet().stream().sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed()).toList();
        String top = byProcess.get(0).getKey();
        assertTrue(tip.contains(top) && tip.contains(String.format(java.util.Locale.ROOT, "%,d",
                byProcess.get(0).getValue())), "tooltip names the busiest process " + byProcess.get(0) + ": " + tip);
        browser.mouse(x, y, true);
        String path = browser.evaluate("document.getElementById('flame-path').textContent").asText();
        assertEquals("zoomed: all samples \u203a " + top, path);
        browser.evaluate("document.getElementById('flame-reset').click()");

        // Zoom into the second busiest process (the box right of the first one): the picture of the README.
        double width = browser.evaluate("document.getElementById('flame').getBoundingClientRect().width").asDouble();
        double second = box.path("x").asDouble() + width * byProcess.get(0).getValue() / samples + 3;
        browser.mouse(second, y, true);
        path = browser.evaluate("document.getElementById('flame-path').textContent").asText();
        assertEquals("zoomed: all samples \u203a " + byProcess.get(1).getKey(), path);
        browser.mouse(1, 1, false); // no tooltip in the pictures
        shoot("net.4.5.2-flame-zoomed.png", "flame-section");
        browser.evaluate("document.getElementById('flame-reset').click()");

        // One box per address instead of per module: the same samples, more boxes; search marks a share of them.
        int moduleBoxes = browser.evaluate("window.etw4jReport.drawnFrames").asInt();
        browser.evaluate("document.getElementById('flame-addresses').click()");
        assertEquals(samples, browser.evaluate("window.etw4jReport.rootSamples").asLong());
        assertTrue(browser.evaluate("window.etw4jReport.drawnFrames").asInt() > moduleBoxes, "address boxes");
        browser.evaluate("document.getElementById('flame-addresses').click()");
        assertEquals(moduleBoxes, browser.evaluate("window.etw4jReport.drawnFrames").asInt(), "back to modules");
        String match = browser.evaluate("(() => { const s = document.getElementById('flame-search');"
                + " s.value = 'ntoskrnl'; s.dispatchEvent(new Event('input'));"
                + " return document.getElementById('flame-match').textContent; })()").asText();
        assertTrue(match.matches("matched: \\d+(\\.\\d+)?% of the shown samples"), match);
        browser.evaluate("(() => { const s = document.getElementById('flame-search'); s.value = '';"
                + " s.dispatchEvent(new Event('input')); })()");

        assertNoProblems(html);
        long t2 = System.nanoTime();
        shootPage("net.4.5.2.png");
        shoot("net.4.5.2-rate.png", "rate-section");
        System.out.printf("ReportBrowserTest: reading the trace %d ms, writing and checking the page %d ms (page"
                + " ready %d ms after navigation start), screenshots %d ms%n", (t1 - t0) / 1_000_000,
                (t2 - t1) / 1_000_000, browser.evaluate("window.etw4jReport.readyMs").asLong(),
                (System.nanoTime() - t2) / 1_000_000);
    }

    @Test
    void reportOfTraceWithoutSamplesSaysSo() throws Exception {
        browser(); // first: without a browser nothing else is worth doing
        TraceReport report = TraceReport.read(SharedData.resolve("etl-corpus/perfview__gcevents.etl"));
        assertEquals(0, report.cpu().sampleCount());
        Path html = write(report, "gcevents.html");
        open(html);
        String text = browser.evaluate("document.getElementById('flame-empty').textContent").asText();
        assertTrue(text.startsWith("no CPU samples"), text);
        assertEquals(0, browser.evaluate("window.etw4jReport.rootSamples").asInt());
        assertTrue(browser.evaluate("document.getElementById('flame') === null").asBoolean(), "no flame canvas");
        JsonNode chart = browser.evaluate("(() => { const b = document.getElementById('rate-svg')"
                + ".getBoundingClientRect(); return {w: b.width, h: b.height}; })()");
        assertTrue(chart.path("w").asDouble() > 100 && chart.path("h").asDouble() > 100, "chart " + chart);
        assertNoProblems(html);
        shootPage("gcevents.png");
    }

    @Test
    void textFromTheTraceCannotCloseTheScriptOrRunAsHtml() throws Exception {
        browser(); // first: without a browser nothing else is worth doing
        TraceReport real = TraceReport.read(SharedData.resolve("etl-corpus/perfview__gcevents.etl"));
        String evil = "</script><script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\">@ETW4J_TITLE@";
        EtlSummary s = real.summary();
        List<EtlSummary.ProviderSummary> providers = new ArrayList<>(s.providers());
        EtlSummary.ProviderSummary p0 = providers.get(0);
        providers.set(0, new EtlSummary.ProviderSummary(p0.id(), evil, p0.records(), p0.byHeaderKind()));
        EtlSummary bad = new EtlSummary(evil, s.header(), s.totalRecords(), s.recordsByHeaderKind(), providers,
                s.firstFileTime(), s.lastFileTime(), s.warnings());
        Path html = write(new TraceReport(bad, real.fileBytes(), real.rate(), real.cpu()), "evil.html");
        open(html);
        assertEquals("undefined", browser.evaluate("typeof window.pwned").asText());
        assertEquals(evil, browser.evaluate("document.getElementById('file-name').textContent").asText());
        assertEquals(evil, browser.evaluate("document.querySelector('#providers tr:nth-child(2) td:nth-child(2)')"
                + ".textContent").asText());
        assertEquals("etw4j report: " + evil, browser.evaluate("document.title").asText());
        assertNoProblems(html);
    }

    private static Path write(TraceReport report, String name) throws IOException {
        Path html = tmp.resolve(name);
        try (Writer w = Files.newBufferedWriter(html, StandardCharsets.UTF_8)) {
            HtmlReport.write(report, w);
        }
        return html;
    }

    private static void open(Path html) throws Exception {
        browser().clearEvents();
        browser.navigate(html.toUri().toString());
        browser.waitFor(() -> browser.evaluate("!!(window.etw4jReport && window.etw4jReport.ready)").asBoolean(),
                "the report script to finish");
    }

    /** No console error, no uncaught exception, no error log entry, no request other than the page's own file. */
    private static void assertNoProblems(Path html) {
        String self = html.toUri().toString();
        List<String> problems = browser.problems(self::equals, text -> false);
        assertTrue(problems.isEmpty(), "problems in the browser: " + problems);
        assertFalse(browser.events().isEmpty(), "the browser reported events (Page.loadEventFired at least)");
    }

    private static Path screenshots() throws IOException {
        String dir = System.getProperty("etw4j.report.screenshots", "target/report-screenshots");
        return Files.createDirectories(Path.of(dir));
    }

    private static void shootPage(String name) throws IOException {
        browser.evaluate("window.scrollTo(0, 0)");
        double h = browser.evaluate("document.documentElement.scrollHeight").asDouble();
        Files.write(screenshots().resolve(name), browser.screenshot(0, 0, WIDTH, Math.min(h, 8000)));
    }

    private static void shoot(String name, String elementId) throws IOException {
        browser.evaluate("window.scrollTo(0, 0)"); // the sticky navigation bar at the top, where it belongs
        JsonNode b = browser.evaluate("(() => { const b = document.getElementById('" + elementId
                + "').getBoundingClientRect(); return {x: b.left + window.scrollX, y: b.top + window.scrollY,"
                + " w: b.width, h: b.height}; })()");
        Files.write(screenshots().resolve(name), browser.screenshot(0, Math.max(0, b.path("y").asDouble() - 8), WIDTH,
                Math.min(b.path("h").asDouble() + 16, 4000)));
    }
}
