package org.etw4j.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The build's own source tree, for architecture tests that read every module's Java sources (JPMS does not stop
 * class-path modules such as Spark or the benchmarks, so rules on who may use what are checked in the sources):
 * the build's root, its module directories and their Java files.
 *
 * <p>Stateless; thread-safe. Tests run with their module's directory as the working directory (Surefire's
 * default), so the root is its parent; a layout that does not match fails the test with a message rather than
 * scanning nothing.
 */
public final class BuildSources {
    private BuildSources() {
    }

    /**
     * The build's root: the parent of the running module's directory, holding the root {@code pom.xml} and
     * {@code module} (the module the caller expects beside it, e.g. {@code etw-consumer}).
     */
    public static Path root(String module) {
        Path root = Path.of("").toAbsolutePath().getParent();
        if (root == null || !Files.isRegularFile(root.resolve("pom.xml")) || !Files.isDirectory(root.resolve(module))) {
            throw new AssertionError("the build's root is beside " + module + ": " + root);
        }
        return root;
    }

    /** The module directories of the build below {@code root}, in name order: those with a pom.xml and a src folder. */
    public static List<Path> modules(Path root) {
        try (Stream<Path> dirs = Files.list(root)) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("pom.xml")) && Files.isDirectory(d.resolve("src")))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every Java file of {@code module}'s sources (main, test and any other source set), in path order. */
    public static List<Path> javaFiles(Path module) {
        return javaFilesUnder(module.resolve("src"));
    }

    /** The Java files of one source set of {@code module} ({@code main}, {@code test}): empty when it has none. */
    public static List<Path> javaFiles(Path module, String sourceSet) {
        Path dir = module.resolve("src").resolve(sourceSet).resolve("java");
        return Files.isDirectory(dir) ? javaFilesUnder(dir) : List.of();
    }

    private static List<Path> javaFilesUnder(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code file}'s path from {@code root} with forward slashes (as the tests name files, on any OS). */
    public static String relative(Path root, Path file) {
        return root.relativize(file).toString().replace('\\', '/');
    }

    /** The file's text (UTF-8). */
    public static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
