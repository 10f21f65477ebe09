package org.etw4j.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Expands the {@code path}/{@code paths} of a load into the .etl files to read: a file as is, a folder's
 * {@code *.etl} files (case-insensitive; recursively with {@code recursiveFileLookup}), a glob (Java's
 * {@link FileSystems#getPathMatcher glob syntax}, anywhere in the path). Local file system only.
 *
 * <p>Stateless; thread-safe.
 */
final class EtlFiles {
    private EtlFiles() {
    }

    static List<Path> expand(List<String> paths, boolean recursive) {
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("the etl source needs a path: spark.read.format(\"etl\").load(path)");
        }
        TreeSet<Path> out = new TreeSet<>();
        for (String p : paths) {
            Path path = local(p);
            List<Path> found = new ArrayList<>();
            try {
                if (isGlob(p)) {
                    glob(path, found);
                } else if (Files.isDirectory(path)) {
                    folder(path, recursive, found);
                } else if (Files.isRegularFile(path)) {
                    found.add(path);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("listing " + p, e);
            }
            if (found.isEmpty()) {
                throw new IllegalArgumentException("[PATH_NOT_FOUND] Path does not exist or matches no .etl file: " + p);
            }
            out.addAll(found);
        }
        return new ArrayList<>(out);
    }

    private static Path local(String p) {
        if (p.startsWith("file:")) {
            return Paths.get(URI.create(p)).toAbsolutePath().normalize();
        }
        if (p.matches("^[a-zA-Z][a-zA-Z0-9+.-]+://.*")) {
            throw new IllegalArgumentException("the etl source reads local files (the reader maps them); " + p
                    + " is not local: copy the files to a path every executor sees (e.g. a shared mount)");
        }
        return Paths.get(p).toAbsolutePath().normalize();
    }

    private static boolean isGlob(String p) {
        return p.indexOf('*') >= 0 || p.indexOf('?') >= 0 || p.indexOf('[') >= 0 || p.indexOf('{') >= 0;
    }

    private static void glob(Path pattern, List<Path> found) throws IOException {
        // Walk from the longest leading part without glob characters.
        Path base = pattern.getRoot();
        int depth = 0;
        for (Path part : pattern) {
            if (isGlob(part.toString())) {
                break;
            }
            base = base == null ? part : base.resolve(part);
            depth++;
        }
        int maxDepth = pattern.getNameCount() - depth;
        if (base == null || !Files.isDirectory(base)) {
            return;
        }
        PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + pattern.toString().replace("\\", "\\\\"));
        try (Stream<Path> s = Files.walk(base, pattern.toString().contains("**") ? Integer.MAX_VALUE : maxDepth)) {
            s.filter(Files::isRegularFile).filter(m::matches).forEach(found::add);
        }
    }

    private static void folder(Path dir, boolean recursive, List<Path> found) throws IOException {
        try (Stream<Path> s = Files.walk(dir, recursive ? Integer.MAX_VALUE : 1)) {
            s.filter(Files::isRegularFile)
                    .filter(f -> f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".etl"))
                    .forEach(found::add);
        }
    }
}
