package org.etw4j.nativebindings.windows;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.etw4j.Guid;

/**
 * Starts {@code org.etw4j.jna.JnaProviderChild} (etw-jna's test-jar) on a JDK 17, as a Java 17 service using
 * etw-jna would run (issue 21, item 14), and collects what it prints.
 *
 * <p>The JDK 17 is found as the build finds its JDKs (maven-toolchains-plugin's discovery and
 * {@code .mvn/select-jdk.sh}): system property {@code etw4j.jdk17.home}, then the environment variables
 * {@code JAVA17_HOME} (the Windows workflow sets it) and {@code JAVA_HOME_17_X64} (actions/setup-java), then the
 * usual install folders; a JDK is the one its {@code release} file says is 17. The child's class path is this
 * test JVM's (surefire's {@code surefire.test.class.path}): JDK 17 loads only what the child uses (etw-api,
 * etw-jna, JNA, compiled for 17).
 *
 * <p>Test helper; stateless.
 */
final class JnaChildProcess {
    static final String CHILD_CLASS = "org.etw4j.jna.JnaProviderChild";

    /** What the child printed, its exit code and process id. */
    record Result(long pid, int exitCode, List<String> lines) {
        List<String> linesStartingWith(String prefix) {
            return lines.stream().filter(l -> l.startsWith(prefix)).toList();
        }
    }

    private JnaChildProcess() {
    }

    /** The first JDK 17 found by the rules in the class comment. */
    static Optional<Path> jdk17() {
        List<Path> candidates = new ArrayList<>();
        String property = System.getProperty("etw4j.jdk17.home");
        if (property != null && !property.isBlank()) {
            candidates.add(Path.of(property));
        }
        for (String env : List.of("JAVA17_HOME", "JAVA_HOME_17_X64", "JAVA_HOME")) {
            String v = System.getenv(env);
            if (v != null && !v.isBlank()) {
                candidates.add(Path.of(v));
            }
        }
        String home = System.getProperty("user.home");
        for (String root : List.of("/usr/lib/jvm", "/usr/java", "/opt/java", home + "/.jdks",
                home + "/.sdkman/candidates/java", "/Library/Java/JavaVirtualMachines", "C:\\Program Files\\Eclipse Adoptium",
                "C:\\Program Files\\Java", "C:\\Program Files\\Microsoft")) {
            candidates.addAll(children(Path.of(root)));
        }
        for (Path c : candidates) {
            for (Path jdk : List.of(c, c.resolve("Contents").resolve("Home"))) {
                if (featureVersion(jdk) == 17 && Files.isRegularFile(javaLauncher(jdk))) {
                    return Optional.of(jdk);
                }
            }
        }
        return Optional.empty();
    }

    private static List<Path> children(Path dir) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            s.forEach(out::add);
        } catch (IOException e) {
            // an unreadable install folder holds no JDK we can use
        }
        out.sort(null);
        return out;
    }

    /** The feature version in {@code jdk/release} ({@code JAVA_VERSION="17.0.13"} is 17), or 0. */
    static int featureVersion(Path jdk) {
        Path release = jdk.resolve("release");
        if (!Files.isRegularFile(release)) {
            return 0;
        }
        try {
            for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    String feature = v.startsWith("1.") ? v.substring(2) : v;
                    int end = 0;
                    while (end < feature.length() && Character.isDigit(feature.charAt(end))) {
                        end++;
                    }
                    return end == 0 ? 0 : Integer.parseInt(feature.substring(0, end));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    private static Path javaLauncher(Path jdk) {
        boolean windows = System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("windows");
        return jdk.resolve("bin").resolve(windows ? "java.exe" : "java");
    }

    /** This test JVM's class path (surefire passes it in a property when it runs the tests from a manifest jar). */
    static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp == null || cp.isBlank() ? System.getProperty("java.class.path") : cp;
    }

    /**
     * Runs the child on {@code jdk}: registers {@code provider}, writes {@code count} events; with
     * {@code standInLibrary} non-null, against the stand-in and its own simulated session (see the child's class
     * comment). Waits at most {@code timeoutSeconds}; a child still running then is destroyed and reported with
     * exit code -1.
     */
    static Result run(Path jdk, Guid provider, int count, String standInLibrary, long timeoutSeconds)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(javaLauncher(jdk).toString(), "-cp", classPath(), CHILD_CLASS,
                provider.toString(), Integer.toString(count)));
        if (standInLibrary != null) {
            command.add("--standin");
            command.add(standInLibrary);
        }
        Path out = Files.createTempFile("etw4j-jna-child", ".txt");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            boolean exited = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (!exited) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
            return new Result(p.pid(), exited ? p.exitValue() : -1, lines);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The class path entries, one per line (for failure messages). */
    static String describeClassPath() {
        return String.join(System.lineSeparator(), classPath().split(File.pathSeparator));
    }
}
