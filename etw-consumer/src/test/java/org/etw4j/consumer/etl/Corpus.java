package org.etw4j.consumer.etl;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.etw4j.testing.SharedData;

/**
 * The shared .etl corpus ({@code ../shared/etl-corpus}) and its expected facts, read in place.
 *
 * <p>Stateless; thread-safe. Missing corpus: tests skip locally and fail on CI ({@link SharedData}).
 */
final class Corpus {
    private Corpus() {
    }

    static Path dir() {
        return SharedData.resolve("etl-corpus");
    }

    /** Every .etl file of the corpus, sorted by name. */
    static List<Path> files() {
        try (Stream<Path> s = Files.list(dir())) {
            return s.filter(p -> p.getFileName().toString().endsWith(".etl")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path file(String name) {
        return SharedData.resolve("etl-corpus/" + name);
    }

    /** The expected-facts JSON of a corpus file, parsed. */
    static java.util.Map<String, Object> expected(Path etl) throws IOException {
        Path json = etl.resolveSibling("expected").resolve(etl.getFileName() + ".json");
        return MiniJson.object(MiniJson.parse(Files.readString(json)));
    }
}
