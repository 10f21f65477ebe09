package org.etw4j.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The checks of the .etl files a command reads, before it reads any: a missing path, a directory and a device
 * are each said as what they are.
 *
 * <p>Stateless; thread-safe.
 */
final class InputFiles {
    private InputFiles() {
    }

    /** Throws a {@link CliException} for the first of {@code files} that is not a readable regular file. */
    static void check(List<Path> files) {
        for (Path f : files) {
            String problem = problem(f);
            if (problem != null) {
                throw new CliException(problem);
            }
        }
    }

    /** What is wrong with {@code f} as an .etl file to read, or null when it is a readable regular file. */
    static String problem(Path f) {
        if (Files.isRegularFile(f)) {
            return Files.isReadable(f) ? null : "permission denied: cannot read " + f;
        }
        if (Files.isDirectory(f)) {
            return f + " is a directory, not an .etl file";
        }
        if (Files.exists(f)) {
            return f + " is not a regular file (a device, pipe or socket), not an .etl file";
        }
        return Files.isSymbolicLink(f) ? f + " is a symbolic link to nothing" : "no such file: " + f;
    }
}
