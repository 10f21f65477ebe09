package org.etw4j.samples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 (documentation that cannot rot): every {@code ```java} block of README.md and docs/*.md is compiled
 * against the current modules, and the README's quick starts are run on the simulated ETW.
 *
 * <p>A block with a top-level {@code class} is compiled as it is (with {@link #IMPORTS} in front when it has no
 * imports of its own); any other block is a fragment, compiled as the body of a method, after the declarations
 * {@link #CONTEXT} gives the variables it uses (keyed by a line of the block: a new fragment that needs variables
 * fails here until it gets its context). Blocks that run: those {@link #RUN} names, with what they must print.
 * Named exceptions, each with its reason: {@link #NOT_COMPILED}.
 */
class DocSnippetsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** The imports a fragment gets (the packages the docs' snippets use). */
    static final String IMPORTS = String.join("\n",
            "import java.io.*;", "import java.nio.file.*;", "import java.time.*;", "import java.util.*;",
            "import org.etw4j.*;", "import org.etw4j.controller.*;", "import org.etw4j.provider.*;",
            "import org.etw4j.tracelogging.*;", "import org.etw4j.RawEventRecord;", "import org.etw4j.consumer.*;",
            "import org.etw4j.consumer.etl.*;", "import org.etw4j.consumer.model.*;", "import org.etw4j.consumer.output.*;", "import org.etw4j.jfr.*;",
            "import org.etw4j.junit.*;", "import org.etw4j.report.*;", "import org.etw4j.opentelemetry.*;",
            "import io.opentelemetry.sdk.OpenTelemetrySdk;", "import io.opentelemetry.sdk.trace.SdkTracerProvider;",
            "import io.opentelemetry.sdk.logs.SdkLoggerProvider;",
            "import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;", "import org.junit.jupiter.api.Test;",
            "");

    /** Declarations of the variables a fragment uses but does not declare, keyed by one of its lines. */
    static final Map<String, String> CONTEXT = Map.of(
            "model.process(pid, time);", "int pid = 4; int tid = 8; long time = 0; long address = 0; RawEventRecord record = null;"
                    + " Writer out = new StringWriter(); List<EtlFile> files = List.of();"
                    + " java.util.function.DoubleConsumer barSet = f -> { }; class Bar { void set(double f) { } }"
                    + " Bar bar = new Bar();",
            "Timeline.Summary s = Timeline.write(", "StringBuilder writer = new StringBuilder();",
            "try (JfrToEtw bridge = JfrToEtw.start(", "",
            ".timeRange(from, to)", "Instant from = null; Instant to = null;",
            "service.handle(\"/index\");", "static class Service { void handle(String path) { } } Service service = new Service();");

    /** Blocks that are run, by one of their lines, with a line their output must contain. */
    static final Map<String, String> RUN = Map.of(
            "public class ReadBack {", "RequestDone ",
            "try (EtwProvider provider = EtwProvider.register(\"MyCompany-MyService\")) {", "",
            "try (TraceSession session = TraceSession.start(SessionConfig.realTime(\"my-session\").build())) {", "");

    /** Blocks not compiled, by one of their lines, and why. */
    static final Map<String, String> NOT_COMPILED = Map.of(
            "Dataset<Row> events = spark.read().format(\"etl\")",
            "docs/spark.md: needs Spark (400 MB) on this module's class path; etw-spark's own tests run the data source",
            "// SPDX-License-Identifier: Apache-2.0", "docs/contributing.md: a source header, not code");

    record Snippet(Path file, int line, String code) {
        String where() {
            return ROOT.relativize(file) + ":" + line;
        }

        boolean has(String key) {
            return code.lines().anyMatch(l -> l.strip().equals(key.strip()) || l.contains(key));
        }
    }

    static List<Snippet> snippets() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<Snippet> out = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).strip().equals("```java")) {
                    int start = i + 1;
                    StringBuilder code = new StringBuilder();
                    for (i = start; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
                        code.append(lines.get(i)).append('\n');
                    }
                    out.add(new Snippet(f, start + 1, code.toString()));
                }
            }
        }
        return out;
    }

    @Test
    void everyJavaSnippetCompilesAndTheQuickStartsRun(@TempDir Path dir) throws Exception {
        List<Snippet> all = snippets();
        assertTrue(all.size() >= 10, "found only " + all.size() + " java blocks");
        Map<String, Snippet> units = new LinkedHashMap<>();   // class name -> snippet
        Map<String, String> runs = new LinkedHashMap<>();     // class name -> expected output
        List<Path> sources = new ArrayList<>();
        Set<String> usedKeys = new java.util.HashSet<>();
        int n = 0;
        for (Snippet s : all) {
            String skip = NOT_COMPILED.keySet().stream().filter(s::has).findFirst().orElse(null);
            if (skip != null) {
                usedKeys.add(skip);
                continue;
            }
            n++;
            String source;
            String className;
            Matcher m = Pattern.compile("(?m)^(?:public\\s+)?class\\s+(\\w+)").matcher(s.code());
            if (m.find()) {
                className = m.group(1);
                String code = s.code();
                for (Map.Entry<String, String> c : CONTEXT.entrySet()) {
                    if (s.has(c.getKey())) {   // a class snippet's context: members at the start of its body
                        int body = code.indexOf('{', m.end());
                        code = code.substring(0, body + 1) + "\n" + c.getValue() + "\n" + code.substring(body + 1);
                        usedKeys.add(c.getKey());
                    }
                }
                source = (code.contains("import ") ? "" : IMPORTS) + code;
                if (!s.code().contains("import ")) {
                    source = source.replaceFirst("(?m)^public class", "class");
                }
            } else {
                className = "Snippet" + n;
                String context = "";
                for (Map.Entry<String, String> c : CONTEXT.entrySet()) {
                    if (s.has(c.getKey())) {
                        context = c.getValue();
                        usedKeys.add(c.getKey());
                    }
                }
                source = IMPORTS + "class " + className + " {\n    static void run() throws Exception {\n" + context
                        + "\n" + s.code().replace("    ... //", "    //") + "\n    }\n}\n";
            }
            for (Map.Entry<String, String> r : RUN.entrySet()) {
                if (s.has(r.getKey())) {
                    runs.put(className, r.getValue());
                    usedKeys.add(r.getKey());
                }
            }
            Path file = dir.resolve(className + ".java");
            Files.writeString(file, source);
            sources.add(file);
            units.put(className, s);
        }
        for (String key : concat(CONTEXT.keySet(), RUN.keySet(), NOT_COMPILED.keySet())) {
            assertTrue(usedKeys.contains(key), "no snippet has the line '" + key + "' any more: update the test");
        }

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Path classes = Files.createDirectories(dir.resolve("classes"));
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            boolean ok = javac.getTask(null, fm, diagnostics, List.of("-proc:none", "-d", classes.toString(),
                    "-cp", System.getProperty("java.class.path"), "-Xlint:none"), null,
                    fm.getJavaFileObjectsFromPaths(sources)).call();
            if (!ok) {
                StringBuilder report = new StringBuilder("documentation snippets that do not compile:\n");
                for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                    if (d.getKind() == Diagnostic.Kind.ERROR) {
                        String cls = Path.of(d.getSource().toUri()).getFileName().toString().replace(".java", "");
                        report.append(units.get(cls).where()).append(" (").append(cls).append(".java line ")
                                .append(d.getLineNumber()).append("): ").append(d.getMessage(Locale.ROOT)).append('\n');
                    }
                }
                fail(report.toString());
            }
        }

        assertEquals(RUN.size(), runs.size(), "runnable snippets: " + runs.keySet());
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                DocSnippetsTest.class.getClassLoader())) {
            for (Map.Entry<String, String> r : runs.entrySet()) {
                Class<?> c = loader.loadClass(r.getKey());
                ByteArrayOutputStream captured = new ByteArrayOutputStream();
                PrintStream saved = System.out;
                System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
                try {
                    Method main = findMain(c);
                    if (main.getParameterCount() == 1) {
                        main.invoke(null, (Object) new String[0]);
                    } else {
                        main.invoke(null);
                    }
                } finally {
                    System.setOut(saved);
                }
                String printed = captured.toString(StandardCharsets.UTF_8);
                assertTrue(printed.contains(r.getValue()), units.get(r.getKey()).where() + " printed:\n" + printed);
            }
        }
    }

    private static Method findMain(Class<?> c) throws NoSuchMethodException {
        try {
            Method m = c.getDeclaredMethod("main", String[].class);
            m.setAccessible(true);
            return m;
        } catch (NoSuchMethodException e) {
            Method m = c.getDeclaredMethod("run");
            m.setAccessible(true);
            return m;
        }
    }

    @SafeVarargs
    private static List<String> concat(Set<String>... sets) {
        List<String> all = new ArrayList<>();
        for (Set<String> s : sets) {
            all.addAll(s);
        }
        return all;
    }
}
