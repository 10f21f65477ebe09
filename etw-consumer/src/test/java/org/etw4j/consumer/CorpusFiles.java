package org.etw4j.consumer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.etw4j.testing.SharedData;

/**
 * The shared .etl corpus, read in place (skipped locally when absent, failing on CI: {@link SharedData}).
 *
 * <p>Stateless; thread-safe.
 */
public final class CorpusFiles {
    private CorpusFiles() {
    }

    /** Every .etl file of {@code ../shared/etl-corpus}, sorted by name. */
    public static List<Path> all() {
        try (Stream<Path> s = Files.list(SharedData.resolve("etl-corpus"))) {
            return s.filter(p -> p.getFileName().toString().endsWith(".etl")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One corpus file by name. */
    public static Path file(String name) {
        return SharedData.resolve("etl-corpus/" + name);
    }
}
