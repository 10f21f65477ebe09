package org.etw4j.consumer.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.etw4j.testing.BuildSources;
import org.junit.jupiter.api.Test;

/**
 * One read path: no main-code file of the build loops over .etl records or chains decoder calls of its own; every
 * client reads through the consumer's pipeline ({@code TraceFile}: source, decode, present, event; then the
 * formatter). The sources of every module are read (as {@link InternalPackagesTest} does, since class-path
 * modules such as Spark are not stopped by JPMS), comments and string literals left out, and a file is an offence
 * when it
 * <ul>
 *   <li>walks records itself: it calls {@code .cursor(...)} (an {@code EtlFile}'s cursor), {@code EtlFile.merge},
 *       names {@code MergingCursor} or {@code FilePass}, makes an {@code EtlRecordEvent} adapter, or runs a first
 *       pass ({@code firstPass(...)}); or</li>
 *   <li>decodes records itself: it names {@code EventDecoder} or {@code EventView} and calls {@code .decode(...)}.</li>
 * </ul>
 * The pipeline's own classes are the exceptions, each named with why ({@link #PIPELINE}); an exception that no
 * longer matches fails the test too, so the list only shrinks with the code.
 */
class OneReadPathTest {

    private static final Pattern LOOP = Pattern.compile(
            "\\.cursor\\(|EtlFile\\.merge\\(|\\bMergingCursor\\b|\\bFilePass\\b|\\bnew EtlRecordEvent\\b|\\bfirstPass\\(");
    private static final Pattern DECODER = Pattern.compile("\\b(?:EventDecoder|EventView)\\b");
    private static final Pattern DECODE_CALL = Pattern.compile("\\.decode\\(");

    /**
     * The pipeline's classes (and the stage benchmarks), by path from the build's root, each with why it may walk
     * records or call the decoder. Everything else reads through {@code TraceFile}.
     */
    private static final Map<String, String> PIPELINE = Map.ofEntries(
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/internal/FilePass.java",
                    "the one read loop: opens, merges (one cursor over all buffers), adapts, learns the context"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/TraceFile.java",
                    "the public pull reader: runs FilePass and hands each record to decode and present"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/internal/ContextLearning.java",
                    "a first pass's per-record step: decodes a record once for the context, the schemas it harvests"
                            + " and a TraceLearner's tables (the trace model's)"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/LearnedContext.java",
                    "a reader's first pass, made once through FilePass.learnContext and shared"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/EventRecord.java",
                    "the event stage: decodes its record on first use, into its reused view"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/RecordDecoding.java",
                    "the reader's decoding state: the decode and present stages of a reader or stream"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/internal/decode/EventView.java",
                    "the decode stage itself"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/internal/decode/TraceLoggingSchemas.java",
                    "the decode stage itself (TraceLogging schemas)"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/internal/decode/TraceLoggingSupport.java",
                    "the decode stage itself (TraceLogging)"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/internal/decode/TraceContext.java",
                    "the present stage: learns from and presents records with the pipeline's decoder"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/etl/EtlFile.java",
                    "the source stage: the raw tier's cursors"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/etl/EtlRecordView.java",
                    "the raw tier's record view makes its one EVENT_RECORD adapter (asRawEventRecord), walks nothing"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/etl/MergingCursor.java",
                    "the source stage: the one merge"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/etl/EtlSummary.java",
                    "the raw tier's header-only count (EtlSummary.of): a file-order pass over headers, nothing"
                            + " adapted or decoded; the tier below the pipeline cannot read through it"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/etl/Relogger.java",
                    "reads through FilePass (the one loop) and writes the records back raw"),
            Map.entry("etw-consumer/src/main/java/org/etw4j/consumer/ParallelFormatting.java",
                    "TraceFile.writeEvents' workers: FilePass reads batches, each worker decodes with a copy of the"
                            + " reader's decoder and formats, in order"),
            Map.entry("benchmarks/src/main/java/org/etw4j/bench/EtlScanBenchmark.java",
                    "measures the decode stage alone (JMH) on the records CorpusLoop reads through TraceFile, and the"
                            + " raw cursor as headerScan's peer (the reader's per-record cost is their difference)"),
            Map.entry("benchmarks/src/main/java/org/etw4j/bench/ViewDecodeBenchmark.java",
                    "measures the decode stage alone (JMH) on the records TraceFile reads"),
            Map.entry("benchmarks/src/main/java/org/etw4j/bench/FormatterBenchmark.java",
                    "measures the decode and format stages alone (JMH) on the records CorpusLoop reads through"
                            + " TraceFile"));

    /** The main Java sources of every module of the build, by path from the root. */
    private static Map<String, Path> mainSources(Path root) {
        Map<String, Path> out = new TreeMap<>();
        for (Path m : BuildSources.modules(root)) {
            for (Path p : BuildSources.javaFiles(m, "main")) {
                out.put(BuildSources.relative(root, p), p);
            }
        }
        return out;
    }

    /**
     * The source without comments, string and character literals (a Javadoc naming {@code cursor()} is no loop);
     * text blocks count as strings.
     */
    static String code(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int n = source.length();
        int i = 0;
        while (i < n) {
            char c = source.charAt(i);
            if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
                while (i < n && source.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < n && source.charAt(i) != c && source.charAt(i) != '\n') {
                    i += source.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
                out.append(c).append(c);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** What {@code source} does that only the pipeline may: empty when nothing. */
    static List<String> ownReadPath(String source) {
        String s = code(source);
        List<String> out = new ArrayList<>();
        Matcher m = LOOP.matcher(s);
        TreeSet<String> loops = new TreeSet<>();
        while (m.find()) {
            loops.add(m.group());
        }
        if (!loops.isEmpty()) {
            out.add("walks records: " + String.join(" ", loops));
        }
        if (DECODER.matcher(s).find() && DECODE_CALL.matcher(s).find()) {
            out.add("calls the decoder");
        }
        return out;
    }

    @Test
    void noMainFileOutsideThePipelineReadsRecordsOrDecodesOnItsOwn() {
        Path root = BuildSources.root("etw-consumer");
        List<String> offences = new ArrayList<>();
        TreeSet<String> used = new TreeSet<>();
        for (Map.Entry<String, Path> f : mainSources(root).entrySet()) {
            List<String> what = ownReadPath(BuildSources.read(f.getValue()));
            if (what.isEmpty()) {
                continue;
            }
            if (PIPELINE.containsKey(f.getKey())) {
                used.add(f.getKey());
            } else {
                offences.add(f.getKey() + ": " + what);
            }
        }
        assertEquals(List.of(), offences, "read through TraceFile (a ReadSettings for what the client needs), or add"
                + " the file to PIPELINE with why");
        assertEquals(new TreeSet<>(PIPELINE.keySet()), used, "an exception that no longer walks records or decodes"
                + " leaves PIPELINE");
    }

    /** The scan reaches the client modules that used to read on their own. */
    @Test
    void theScanCoversTheClients() {
        Map<String, Path> sources = mainSources(BuildSources.root("etw-consumer"));
        for (String client : List.of("etw-cli/src/main/java/org/etw4j/cli/SummaryCommand.java",
                "etw-spark/src/main/java/org/etw4j/spark/EtlPartitionReader.java",
                "etw-report/src/main/java/org/etw4j/report/EventRate.java",
                "benchmarks/src/main/java/org/etw4j/bench/CorpusLoop.java",
                "benchmarks/src/main/java/org/etw4j/bench/DumpBenchmark.java")) {
            assertTrue(sources.containsKey(client), client + " is scanned");
        }
    }

    /** The rule on made-up sources: the loops the clients had are offences; reading through TraceFile is not. */
    @Test
    void aClientsOwnLoopOrDecoderChainIsAnOffenceAndTheReaderIsNot() {
        String ownLoop = "class X { void f(EtlFile file) { EtlCursor c = file.cursor(); EtlRecordEvent a ="
                + " new EtlRecordEvent(); while (c.advance()) { use(a.of(c.record())); } } }";
        assertEquals(List.of("walks records: .cursor( new EtlRecordEvent"), ownReadPath(ownLoop));
        String ownDecode = "class X { EventView v = new EventView(d); void f(RawEventRecord r) { v.decode(r); } }";
        assertEquals(List.of("calls the decoder"), ownReadPath(ownDecode));
        String firstPass = "class X { Object c = TraceContext.firstPass(files, decoder, true); }";
        assertEquals(List.of("walks records: firstPass("), ownReadPath(firstPass));
        // what the trace model and the timeline did before they read through TraceFile
        String internalLoop = "class X { void f(List<EtlFile> files, EventDecoder d) { FilePass p = FilePass.over(files);"
                + " while (p.advance()) { learn(d.decode(p.record())); } } }";
        assertEquals(List.of("walks records: FilePass", "calls the decoder"), ownReadPath(internalLoop));
        String reader = "/** Not file.cursor() but: */ class X { void f(TraceFile in) { while (in.hasMoreEvents())"
                + " { in.readEvent(); String s = \"x.cursor()\"; } } }";
        assertEquals(List.of(), ownReadPath(reader));
    }
}
