package org.etw4j.junit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.TraceFile;

/**
 * The .etl file a private in-process capture's session writes (a private session has no real-time consumers: MS
 * Learn, "Configuring and Starting a Private Logger Session"), read through the consumer's one read path
 * ({@link TraceFile}) each time the capture waits.
 *
 * <p>Not thread-safe: used under the capture's lock. Each {@link #readAll()} reads the whole file again (after the
 * session flushed it), so a capture sees the file as it is now, in time order; cost grows with the file, which suits
 * tests, not long recordings. While the session runs the file's header is provisional (BuffersWritten), which the
 * reader reports as a warning: only the read after the session stopped has its warnings counted.
 */
final class PrivateSessionFile {
    private final Path file;
    private final ReadSettings settings;

    PrivateSessionFile(Path file, List<String> manifests) {
        this.file = file;
        ReadSettings.Builder b = ReadSettings.builder().traceContext(ReadSettings.TraceContext.ONE_PASS);
        for (String m : manifests) {
            Manifests.addTo(b, m);
        }
        this.settings = b.build();
    }

    /** A new temporary file for a session named {@code sessionName}. */
    static Path createFor(String sessionName) {
        try {
            Path f = Files.createTempFile(sessionName.replaceAll("[^A-Za-z0-9._-]", "_") + "-", ".etl");
            Files.delete(f); // the session creates it
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a temporary file for the private session " + sessionName, e);
        }
    }

    Path path() {
        return file;
    }

    /** What the file holds now, read in time order (copies); the warnings the reader counted go to {@code warnings}. */
    List<EventRecord> readAll(long[] warnings) {
        List<EventRecord> out = new ArrayList<>();
        if (!Files.exists(file)) {
            return out;
        }
        try (TraceFile in = TraceFile.open(settings, file)) {
            while (in.hasMoreEvents()) {
                out.add(in.readEvent().copy());
            }
            warnings[0] = in.warnings().stream().mapToLong(TraceFile.Warnings::count).sum();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the private session's file " + file, e);
        }
        return out;
    }

    /** Deletes the file (the events were copied). */
    void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a file another process holds open (Windows) stays in the temporary directory
        }
    }
}
