package org.etw4j.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Finds the shared .etl corpus for the file benchmarks: {@code -Detw4j.shared=DIR}, {@code ETW4J_SHARED}, or
 * {@code ../shared} from the working directory (the repository root). Read in place, never copied.
 */
final class Corpus {
    private Corpus() {
    }

    static Path file(String name) {
        return shared("etl-corpus", name);
    }

    /** A manifest of {@code ../shared/manifests}. */
    static Path manifest(String name) {
        return shared("manifests", name);
    }

    private static Path shared(String dir, String name) {
        for (String c : new String[] {System.getProperty("etw4j.shared"), System.getenv("ETW4J_SHARED"), "../shared", "../../shared"}) {
            if (c != null) {
                Path p = Paths.get(c, dir, name);
                if (Files.isRegularFile(p)) {
                    return p;
                }
            }
        }
        throw new IllegalStateException(dir + " file " + name + " not found: run from the repository root with ../shared beside it, "
                + "or pass -Detw4j.shared=DIR");
    }
}
