package org.etw4j.opentelemetry.javaagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25: the ETW exporter under the real OpenTelemetry Java agent (io.opentelemetry.javaagent from Maven Central),
 * given as {@code -Dotel.javaagent.extensions=}. Each test starts a JVM: the agent, the extension, and
 * {@link AgentApp}, which sees only the OpenTelemetry API.
 *
 * <ul>
 *   <li>the shipped extension jar: the agent starts with {@code otel.traces.exporter=etw} and the application runs,
 *       no error in the agent's output;</li>
 *   <li>etw-opentelemetry's plain jar (what the README told users before): the agent fails with
 *       {@code NoClassDefFoundError: org/etw4j/...}, the report, so the first test would catch it;</li>
 *   <li>events arrive: the extension's classes plus an observer ({@link AgentObserver}, with etw-consumer) in one
 *       jar, so the observer reads the same simulated ETW the exporter writes to: the span arrives as a {@code Span}
 *       event with its name and attribute.</li>
 * </ul>
 */
class OtelJavaAgentIT {
    private static final String PROVIDER = "Etw4j-AgentTest";

    @Test
    void theExtensionJarLoadsInTheAgentAndTheApplicationRuns(@TempDir Path dir) throws Exception {
        Result r = runUnderAgent(Path.of(System.getProperty("etw4j.extension.jar")), dir);
        assertEquals(0, r.exit, r.output);
        assertTrue(r.output.contains("app done"), r.output);
        assertFalse(r.output.contains("NoClassDefFoundError"), r.output);
        assertFalse(r.output.contains("ConfigurationException"), r.output);
        assertFalse(r.output.contains("Exception in thread"), r.output);
    }

    @Test
    void thePlainExporterJarIsWhatFailedBefore(@TempDir Path dir) throws Exception {
        Path plain = Path.of(System.getProperty("etw4j.unshaded.jar"));
        assertTrue(Files.isRegularFile(plain), "etw-opentelemetry's jar is built first in the reactor: " + plain);
        Result r = runUnderAgent(plain, dir);
        assertTrue(r.output.contains("NoClassDefFoundError: org/etw4j/"), r.output);
    }

    @Test
    void spansArriveAsEtwEvents(@TempDir Path dir) throws Exception {
        Path observed = dir.resolve("observer-extension.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(observed))) {
            Set<String> seen = new HashSet<>();
            copyJar(Path.of(System.getProperty("etw4j.extension.jar")), out, seen);
            copyJar(classPathJar("etw-consumer-"), out, seen);
            List<Class<?>> observer = new ArrayList<>(List.of(AgentObserver.class));
            observer.addAll(List.of(AgentObserver.class.getDeclaredClasses())); // its flushing exporter
            for (Class<?> c : observer) {
                String name = c.getName().replace('.', '/') + ".class";
                try (InputStream in = c.getClassLoader().getResourceAsStream(name)) {
                    put(out, name, in.readAllBytes(), seen);
                }
            }
            put(out, "META-INF/services/io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizerProvider",
                    (AgentObserver.class.getName() + "\n").getBytes(StandardCharsets.UTF_8), seen);
        }
        Result r = runUnderAgent(observed, dir, "await");
        assertEquals(0, r.exit, r.output);
        Path events = dir.resolve("events.txt");
        assertTrue(Files.exists(events), "no event arrived, not even the session header; agent output:\n" + r.output);
        assertTrue(r.output.contains("span event seen"), "the child ended without the span's event: " + r.output
                + "\nevents:\n" + Files.readString(events));
        System.out.println(r.output.lines().filter(l -> l.startsWith("span event seen")).findFirst().orElseThrow());
        List<String> lines = Files.readAllLines(events);
        List<String> spans = lines.stream().filter(l -> l.startsWith("Span ")).toList();
        assertEquals(1, spans.size(), String.join("\n", lines) + "\nagent output:\n" + r.output);
        String span = spans.get(0);
        assertTrue(span.contains("Name=agent-test-span"), span);
        assertTrue(span.contains("order.id=42"), span);
        assertTrue(span.matches(".*TraceId=[0-9a-f]{32}.*"), span);
    }

    private record Result(int exit, String output) {
    }

    private static Result runUnderAgent(Path extension, Path dir, String... appArgs)
            throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String appClassPath = String.join(File.pathSeparator, System.getProperty("etw4j.test.classes",
                Path.of("target", "test-classes").toAbsolutePath().toString()),
                classPathJar("opentelemetry-api-").toString(), classPathJar("opentelemetry-context-").toString(),
                classPathJar("opentelemetry-common-").toString());
        List<String> command = new ArrayList<>(Arrays.asList(java,
                "-javaagent:" + classPathJar("opentelemetry-javaagent-"),
                "-Dotel.javaagent.extensions=" + extension,
                "-Dotel.traces.exporter=etw", "-Dotel.logs.exporter=etw", "-Dotel.metrics.exporter=none",
                "-Dotel.exporter.etw.provider.name=" + PROVIDER,
                "-Dotel.bsp.schedule.delay=100", "-Dotel.javaagent.debug=false",
                "-Detw4j.backend=simulated", "-Detw4j.test.events=" + dir.resolve("events.txt"),
                "-cp", appClassPath, AgentApp.class.getName()));
        command.addAll(List.of(appArgs));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out;
        try (InputStream in = p.getInputStream()) {
            out = in.readAllBytes();
        }
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the JVM under the agent did not end within 180 s");
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /** The jar on this test's class path whose file name starts with {@code prefix} (Maven resolved it). */
    private static Path classPathJar(String prefix) {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            String name = p.getFileName().toString();
            if (name.startsWith(prefix) && name.endsWith(".jar") && Character.isDigit(name.charAt(prefix.length()))) {
                return p;
            }
        }
        throw new IllegalStateException("no " + prefix + "*.jar on the test class path");
    }

    private static void copyJar(Path jar, JarOutputStream out, Set<String> seen) throws IOException {
        try (JarFile in = new JarFile(jar.toFile())) {
            Enumeration<JarEntry> entries = in.entries();
            while (entries.hasMoreElements()) {
                JarEntry e = entries.nextElement();
                if (e.isDirectory() || e.getName().endsWith("module-info.class")
                        || e.getName().startsWith("META-INF/services/io.opentelemetry.sdk.autoconfigure.spi.Auto")) {
                    continue;
                }
                try (InputStream s = in.getInputStream(e)) {
                    put(out, e.getName(), s.readAllBytes(), seen);
                }
            }
        }
    }

    private static void put(OutputStream jar, String name, byte[] bytes, Set<String> seen) throws IOException {
        if (!seen.add(name)) {
            return;   // LICENSE/NOTICE and services files of etw-api appear in both jars: the first wins
        }
        JarOutputStream out = (JarOutputStream) jar;
        out.putNextEntry(new JarEntry(name));
        out.write(bytes);
        out.closeEntry();
    }
}
