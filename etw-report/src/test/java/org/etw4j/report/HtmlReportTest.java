package org.etw4j.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.etw4j.consumer.etl.EtlSummary;
import org.etw4j.consumer.model.CpuProfile;
import org.etw4j.consumer.model.StackFrame;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The page {@link HtmlReport} writes, read back without a browser: one file with nothing to fetch, its embedded JSON
 * (parsed by Jackson) says what the trace's summary and CPU profile say, and text from the trace cannot end the
 * script element. The browser's side: {@link ReportBrowserTest}.
 */
class HtmlReportTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static TraceReport report;
    private static String html;

    @BeforeAll
    static void write() throws IOException {
        report = CorpusReports.net452();
        html = page(report);
    }

    private static String page(TraceReport r) throws IOException {
        StringWriter w = new StringWriter();
        HtmlReport.write(r, w);
        return w.toString();
    }

    private static JsonNode data(String page) throws IOException {
        Matcher m = Pattern.compile("<script id=\"etw4j-data\" type=\"application/json\">(.*?)</script>",
                Pattern.DOTALL).matcher(page);
        assertTrue(m.find(), "the data element");
        return JSON.readTree(m.group(1));
    }

    @Test
    void oneFileThatFetchesNothing() {
        assertTrue(html.startsWith("<!DOCTYPE html>"));
        // The one URL in the page is the SVG namespace (a name, never fetched).
        String page = html.replace("'http://www.w3.org/2000/svg'", "'svg-namespace'");
        // Nothing that makes a browser fetch: no src/href to a URL, no import, no url() in the style; and a CSP
        // that forbids it anyway.
        for (String bad : List.of(" src=", "http://", "https://", "@import", "url(", "<link", "fetch(",
                "XMLHttpRequest", "import(")) {
            assertFalse(page.contains(bad), "page contains " + bad);
        }
        assertTrue(html.contains("content=\"default-src 'none';"), "CSP");
        assertFalse(html.contains("/*@ETW4J_"), "every mark replaced");
        assertTrue(html.contains("no third-party code is included"), "says whose code it is");
    }

    @Test
    void dataSaysWhatTheSummaryAndTheProfileSay() throws IOException {
        JsonNode d = data(html);
        EtlSummary s = report.summary();
        assertEquals(s.file(), d.path("file").asText());
        assertEquals(report.fileBytes(), d.path("fileBytes").asLong());
        assertEquals(s.lastFileTime() - s.firstFileTime(), d.path("durationHundredNs").asLong());
        // etw summary: first 07:00.623616, last 07:13.205181 (microseconds, rounded down): 12.581565 s, +-1 us.
        assertTrue(Math.abs(d.path("durationHundredNs").asLong() - 125_815_650L) < 10, d.path("durationHundredNs")
                .toString());
        List<TraceFacts.Fact> facts = TraceFacts.of(s);
        assertEquals(facts.size(), d.path("facts").size());
        for (int i = 0; i < facts.size(); i++) {
            assertEquals(facts.get(i).label(), d.path("facts").get(i).get(0).asText());
            assertEquals(facts.get(i).value(), d.path("facts").get(i).get(1).asText());
        }
        assertEquals(s.providers().size(), d.path("providers").size());
        for (int i = 0; i < s.providers().size(); i++) {
            assertEquals(s.providers().get(i).id().toString(), d.path("providers").get(i).path("id").asText());
            assertEquals(s.providers().get(i).records(), d.path("providers").get(i).path("records").asLong());
        }
        long rateSum = 0;
        for (JsonNode x : d.path("rate").path("series")) {
            for (JsonNode c : x.path("counts")) {
                rateSum += c.asLong();
            }
        }
        assertEquals(s.totalRecords(), rateSum);

        CpuProfile cpu = report.cpu();
        JsonNode c = d.path("cpu");
        assertEquals(79528, cpu.sampleCount(), "SampleProf events in the trace (TraceModelCorpusTest)");
        assertEquals(cpu.sampleCount(), c.path("samples").asLong());
        // The stacks rebuilt from the JSON are the profile's, count for count, frame for frame.
        List<String> frames = new ArrayList<>();
        c.path("frames").forEach(f -> frames.add(f.asText()));
        Map<List<String>, Long> fromJson = new HashMap<>();
        long sum = 0;
        for (JsonNode st : c.path("stacks")) {
            List<String> names = new ArrayList<>();
            for (int i = 1; i < st.size(); i++) {
                names.add(frames.get(st.get(i).asInt()));
            }
            fromJson.merge(names, st.get(0).asLong(), Long::sum);
            sum += st.get(0).asLong();
        }
        assertEquals(cpu.sampleCount(), sum, "the flame graph's root");
        Map<List<String>, Long> fromProfile = new HashMap<>();
        for (CpuProfile.StackCount sc : cpu.stacks()) {
            List<String> names = new ArrayList<>();
            names.add(sc.processLabel());
            sc.frames().stream().map(StackFrame::name).forEach(names::add);
            fromProfile.merge(names, sc.count(), Long::sum);
        }
        assertEquals(fromProfile, fromJson);
        // Processes: most samples first, sums as countsByProcessId.
        long listed = c.path("otherProcessSamples").asLong();
        long previous = Long.MAX_VALUE;
        for (JsonNode p : c.path("processes")) {
            assertTrue(p.path("samples").asLong() <= previous);
            previous = p.path("samples").asLong();
            listed += previous;
        }
        assertEquals(cpu.sampleCount(), listed);
    }

    @Test
    void textFromTheTraceCannotEndTheScriptElement() throws IOException {
        String evil = "</script><script>alert(1)</script><!-- @ETW4J_TITLE@ /*@ETW4J_DATA@*/";
        EtlSummary s = report.summary();
        List<EtlSummary.ProviderSummary> providers = new ArrayList<>(s.providers());
        EtlSummary.ProviderSummary p0 = providers.get(0);
        providers.set(0, new EtlSummary.ProviderSummary(p0.id(), evil, p0.records(), p0.byHeaderKind()));
        TraceReport bad = new TraceReport(new EtlSummary(evil, s.header(), s.totalRecords(), s.recordsByHeaderKind(),
                providers, s.firstFileTime(), s.lastFileTime(), s.warnings()), 1, report.rate(), report.cpu());
        String page = page(bad);
        assertFalse(page.contains(evil), "the text appears only escaped");
        assertFalse(page.contains("<script>alert"));
        assertEquals(2, page.split("<script", -1).length - 1, "the page's two script elements only");
        JsonNode d = data(page);
        assertEquals(evil, d.path("file").asText(), "the JSON still says it exactly");
        assertEquals(evil, d.path("providers").get(0).path("name").asText());
        assertTrue(page.contains("<title>etw4j report: &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- "
                + "&#64;ETW4J_TITLE&#64; /*&#64;ETW4J_DATA&#64;*/</title>"), "title escaped");
    }

    @Test
    void scriptSafeJsonEscapesEveryLessThan() throws IOException {
        StringWriter w = new StringWriter();
        HtmlReport.writeScriptSafe("{\"a\":\"<</script>\"}", w);
        assertEquals("{\"a\":\"\\u003c\\u003c/script>\"}", w.toString());
        assertEquals("<</script>", JSON.readTree(w.toString()).path("a").asText());
    }
}
