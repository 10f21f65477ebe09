package org.etw4j.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.etw4j.consumer.ProcessLifetime;
import org.etw4j.consumer.etl.EtlSummary;
import org.etw4j.consumer.model.CpuProfile;
import org.etw4j.consumer.model.StackFrame;
import org.etw4j.consumer.output.JsonWriter;

/**
 * Writes a {@link TraceReport} as one self-contained HTML file: header facts, provider table, events-per-second
 * chart, top processes by CPU samples and an interactive flame graph (click to zoom, hover for name and count).
 *
 * <p>Stateless utility; thread-safe. The page needs no network: its script and style are this module's resources
 * ({@code report.js}, {@code report.css}, written for etw4j, no third-party code), inlined; the data is embedded as
 * JSON in a {@code <script type="application/json">} element, with every {@code <} written as {@code \u003c} so no
 * text from the trace (file, provider, process or frame names) can close that element. The page builds every table
 * and label from that JSON with {@code textContent}, never as HTML.
 */
public final class HtmlReport {

    /** Processes listed in the top-processes table; the rest are summed in one row. */
    public static final int TOP_PROCESSES = 25;

    private static final String DATA_MARK = "/*@ETW4J_DATA@*/";
    private static final String SCRIPT_MARK = "/*@ETW4J_SCRIPT@*/";
    private static final String STYLE_MARK = "/*@ETW4J_STYLE@*/";
    private static final String TITLE_MARK = "@ETW4J_TITLE@";

    private HtmlReport() {
    }

    /** Writes the report page to {@code out} (not closed). */
    public static void write(TraceReport report, Writer out) throws IOException {
        String title = escapeHtml("etw4j report: " + report.summary().file());
        // Marks are found in the template only: the title comes last and its '@' are escaped, and the trace's
        // other text is in the JSON, written after the split.
        String page = resource("report.html")
                .replace(STYLE_MARK, resource("report.css"))
                .replace(SCRIPT_MARK, resource("report.js"))
                .replace(TITLE_MARK, title);
        StringBuilder json = new StringBuilder(1 << 16);
        writeData(report, new JsonWriter(json));
        int data = page.indexOf(DATA_MARK);
        out.write(page, 0, data);
        writeScriptSafe(json, out);
        out.write(page, data + DATA_MARK.length(), page.length() - data - DATA_MARK.length());
        out.flush();
    }

    /** Writes the report's data as the JSON the page reads (its shape: {@code report.js}). */
    static void writeData(TraceReport report, JsonWriter w) {
        EtlSummary s = report.summary();
        w.beginObject();
        w.member("generator", "etw4j");
        w.member("file", s.file());
        w.member("fileBytes", report.fileBytes());
        w.name("facts").beginArray();
        for (TraceFacts.Fact f : TraceFacts.of(s)) {
            w.beginArray().value(f.label()).value(f.value()).endArray();
        }
        w.endArray();
        // No FILETIMEs in the JSON: about 1.3e17, past the integers a JavaScript number holds exactly (2^53).
        w.member("durationHundredNs", s.totalRecords() == 0 ? 0 : s.lastFileTime() - s.firstFileTime());
        w.member("totalRecords", s.totalRecords());
        w.name("providers").beginArray();
        for (EtlSummary.ProviderSummary p : s.providers()) {
            w.beginObject();
            w.member("name", p.label() == null ? "" : p.label());
            w.member("id", p.id().toString());
            w.member("records", p.records());
            w.member("kinds", TraceFacts.kinds(p.byHeaderKind()).trim());
            w.endObject();
        }
        w.endArray();
        writeRate(report.rate(), w);
        writeCpu(report.cpu(), w);
        w.endObject();
    }

    private static void writeRate(EventRate rate, JsonWriter w) {
        w.name("rate").beginObject();
        w.member("bucketHundredNs", rate.bucketHundredNs());
        w.name("series").beginArray();
        for (EventRate.Series x : rate.series()) {
            w.beginObject().member("name", x.name());
            w.name("others").value(x.others());
            w.name("counts").beginArray();
            for (long c : x.counts()) {
                w.value(c);
            }
            w.endArray().endObject();
        }
        w.endArray();
        EventRate.Outliers out = rate.outliers();
        w.name("outliers").beginObject();
        w.member("count", out.count());
        if (out.count() > 0) {
            // As text: FILETIMEs are past the integers a JavaScript number holds exactly, and may be centuries away.
            w.member("earliest", EtlSummary.formatFileTime(out.earliestFileTime()));
            w.member("latest", EtlSummary.formatFileTime(out.latestFileTime()));
            w.member("rangeStart", EtlSummary.formatFileTime(out.rangeStartFileTime()));
            w.member("rangeEnd", EtlSummary.formatFileTime(out.rangeEndFileTime()));
        }
        w.endObject();
        w.endObject();
    }

    /**
     * The CPU part: totals, processes by samples, and the stacks as {@code [count, processFrame, frame...]} (root
     * first) over a table of distinct frame names, from which the page builds the flame graph.
     */
    private static void writeCpu(CpuProfile cpu, JsonWriter w) {
        w.name("cpu").beginObject();
        w.member("samples", cpu.sampleCount());
        w.member("samplesWithStack", cpu.samplesWithStack());
        w.member("intervalHundredNs", cpu.intervalHundredNs());
        Map<String, long[]> byProcess = new LinkedHashMap<>();
        Map<String, ProcessLifetime> lives = new LinkedHashMap<>();
        Map<String, Integer> frameIds = new LinkedHashMap<>();
        List<CpuProfile.StackCount> stacks = cpu.stacks();
        for (CpuProfile.StackCount sc : stacks) {
            String label = sc.processLabel();
            byProcess.computeIfAbsent(label, k -> new long[] {sc.processId(), 0})[1] += sc.count();
            lives.putIfAbsent(label, sc.process());
            frameIds.putIfAbsent(label, frameIds.size());
            for (StackFrame f : sc.frames()) {
                frameIds.putIfAbsent(f.name(), frameIds.size());
            }
        }
        List<Map.Entry<String, long[]>> procs = new ArrayList<>(byProcess.entrySet());
        procs.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
        w.name("processes").beginArray();
        long rest = 0;
        int restCount = 0;
        for (int i = 0; i < procs.size(); i++) {
            Map.Entry<String, long[]> p = procs.get(i);
            if (i >= TOP_PROCESSES) {
                rest += p.getValue()[1];
                restCount++;
                continue;
            }
            ProcessLifetime life = lives.get(p.getKey());
            w.beginObject();
            w.member("label", p.getKey());
            w.member("pid", p.getValue()[0]);
            w.member("samples", p.getValue()[1]);
            w.member("image", life == null || life.process().imagePath() == null ? "" : life.process().imagePath());
            w.member("commandLine", life == null ? "" : life.process().commandLine());
            w.endObject();
        }
        w.endArray();
        w.member("otherProcesses", restCount);
        w.member("otherProcessSamples", rest);
        w.name("frames").stringArray(frameIds.keySet());
        w.name("stacks").beginArray();
        for (CpuProfile.StackCount sc : stacks) {
            w.beginArray().value(sc.count()).value(frameIds.get(sc.processLabel()));
            for (StackFrame f : sc.frames()) {
                w.value(frameIds.get(f.name()));
            }
            w.endArray();
        }
        w.endArray();
        w.endObject();
    }

    /**
     * Writes JSON text so that it can stand inside a script element: {@code <} appears in JSON only inside strings,
     * where {@code \u003c} means the same character, so {@code </script>} and {@code <!--} cannot occur.
     */
    static void writeScriptSafe(CharSequence json, Writer out) throws IOException {
        int from = 0;
        for (int i = 0; i < json.length(); i++) {
            if (json.charAt(i) == '<') {
                out.append(json, from, i).append("\\u003c");
                from = i + 1;
            }
        }
        out.append(json, from, json.length());
    }

    /** Text for an HTML element or attribute ({@code @} too: the template's marks contain it). */
    static String escapeHtml(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                case '@' -> b.append("&#64;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    private static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("etw-report resource missing: " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
