package org.etw4j.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Assumptions;

/**
 * Locates the team's shared truth material ({@code ../shared}: seeds, .etl corpus, format notes, manifests)
 * for tests, which read it in place and never copy it.
 *
 * <p>Stateless; thread-safe. The folder comes from the system property {@code etw4j.shared} (set by the
 * build to {@code <repo>/../shared}) or the environment variable {@code ETW4J_SHARED}. When it is absent a
 * test is skipped with a message saying so (a fresh clone without it); on CI ({@code CI=true}) it fails
 * instead ({@link LinuxCi#proofsRequired()}), because CI always has the folder and a skip there would hide a
 * broken setup.
 */
public final class SharedData {
    private SharedData() {
    }

    /** The shared folder, or a skipped (locally) / failed (CI) test when it is missing. */
    public static Path root() {
        Path root = locate();
        if (root == null) {
            String msg = "../shared not found: set -Detw4j.shared=DIR or ETW4J_SHARED=DIR "
                    + "(it holds the seeds, the .etl corpus and the format notes these tests check against)";
            if (LinuxCi.proofsRequired()) {
                throw new AssertionError(msg + "; CI must always have it");
            }
            Assumptions.abort(msg);
        }
        return root;
    }

    /** A path below the shared folder; the same skip/fail rule applies when it does not exist. */
    public static Path resolve(String relative) {
        Path p = root().resolve(relative);
        if (!Files.exists(p)) {
            String msg = "shared file missing: " + p;
            if (LinuxCi.proofsRequired()) {
                throw new AssertionError(msg);
            }
            Assumptions.abort(msg);
        }
        return p;
    }

    /** The shared folder if it can be found, else {@code null}. */
    public static Path locate() {
        for (String candidate : new String[] {System.getProperty("etw4j.shared"), System.getenv("ETW4J_SHARED")}) {
            if (candidate != null && !candidate.isBlank()) {
                Path p = Paths.get(candidate);
                if (Files.isDirectory(p)) {
                    return p.toAbsolutePath().normalize();
                }
            }
        }
        return null;
    }
}
