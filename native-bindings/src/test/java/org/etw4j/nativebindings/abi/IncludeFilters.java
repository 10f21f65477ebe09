package org.etw4j.nativebindings.abi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the jextract include filters in {@code native-bindings/jextract/include/}: the list of what the
 * generated bindings contain, which the ABI test compares one by one.
 *
 * <p>Test helper; stateless.
 */
final class IncludeFilters {

    /** One {@code --include-<kind> <name>} entry. */
    record Entry(String kind, String name) {
    }

    private IncludeFilters() {
    }

    static Path directory() {
        Path base = Path.of(System.getProperty("basedir", "."));
        Path dir = base.resolve("jextract/include");
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("jextract include filters not found at " + dir.toAbsolutePath());
        }
        return dir;
    }

    /** Entries of {@code file} (for example {@code structs.txt}), comments and blank lines dropped. */
    static List<Entry> read(String file) throws IOException {
        List<Entry> entries = new ArrayList<>();
        for (String raw : Files.readAllLines(directory().resolve(file))) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts.length != 2 || !parts[0].startsWith("--include-")) {
                throw new IllegalStateException(file + ": not an include filter: " + raw);
            }
            entries.add(new Entry(parts[0].substring("--include-".length()), parts[1]));
        }
        return entries;
    }
}
