package org.etw4j.bench;

import java.io.IOException;
import org.etw4j.consumer.decode.ManifestRegistry;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlRecordEvent;
import org.etw4j.consumer.etl.EtlRecordView;

/**
 * One corpus file read over and over through its public cursor (what the read path runs for one file), for the
 * per-record benchmarks: each call moves one record on and starts the file over at its end, allocating nothing.
 * One per benchmark state, used by its thread only; {@link #close()} unmaps the file.
 */
final class CorpusLoop implements AutoCloseable {
    private final EtlFile etl;
    private EtlCursor cursor;
    /** Presents the cursor's record as the decoder's EVENT_RECORD input (one, reused). */
    private final EtlRecordEvent adapter = new EtlRecordEvent();

    private CorpusLoop(EtlFile etl) {
        this.etl = etl;
        this.cursor = etl.cursor();
    }

    /** The corpus file {@code name} (see {@link Corpus#file}), opened. */
    static CorpusLoop open(String name) throws IOException {
        return new CorpusLoop(EtlFile.open(Corpus.file(name)));
    }

    /** The registry a benchmark's {@code manifest} parameter names: empty for {@code "none"}. */
    static ManifestRegistry registry(String manifest) throws IOException {
        ManifestRegistry registry = new ManifestRegistry();
        if (!manifest.equals("none")) {
            registry.register(Corpus.manifest(manifest));
        }
        return registry;
    }

    /** The next record's view, valid until the next call. */
    EtlRecordView nextView() {
        if (!cursor.advance()) {
            cursor = etl.cursor();
            cursor.advance();
        }
        return cursor.record();
    }

    /** The next record as the decoder's input, valid until the next call. */
    EtlRecordEvent next() {
        return adapter.of(nextView());
    }

    /** The current record's view (the one {@link #next()} presented). */
    EtlRecordView view() {
        return cursor.record();
    }

    /** The open file, for benchmarks that make whole passes of their own. */
    EtlFile file() {
        return etl;
    }

    /** {@code r} presented as the decoder's input through this loop's adapter (for whole passes). */
    EtlRecordEvent present(EtlRecordView r) {
        return adapter.of(r);
    }

    @Override
    public void close() {
        etl.close();
    }
}
