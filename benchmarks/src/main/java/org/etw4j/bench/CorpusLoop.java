package org.etw4j.bench;

import java.io.IOException;
import java.util.List;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.ReadSetupException;
import org.etw4j.consumer.TraceFile;
import org.etw4j.consumer.internal.decode.ManifestRegistry;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.etl.EtlRecordView;

/**
 * One corpus file read over and over through the consumer's one read path ({@link TraceFile}, without a trace
 * context, so nothing is decoded unless a benchmark asks), for the per-record benchmarks: each call moves one record
 * on and starts the file over at its end ({@link TraceFile#rewind()}), allocating nothing. The benchmarks of one
 * stage (decode, format) run that stage on the record the reader presents ({@link TraceFile#record()}).
 * One per benchmark state, used by its thread only; {@link #close()} unmaps the file.
 */
final class CorpusLoop implements AutoCloseable {
    /** Headers only: no context pass, no manifests (a benchmark's decoder has its own). */
    private static final ReadSettings RAW = ReadSettings.builder().traceContext(ReadSettings.TraceContext.NONE).build();

    private final EtlFile etl;
    private final TraceFile in;

    private CorpusLoop(EtlFile etl) throws ReadSetupException {
        this.etl = etl;
        this.in = TraceFile.over(RAW, List.of(etl));
    }

    /** The corpus file {@code name} (see {@link Corpus#file}), opened. */
    static CorpusLoop open(String name) throws IOException {
        EtlFile etl = EtlFile.open(Corpus.file(name));
        try {
            return new CorpusLoop(etl);
        } catch (IOException | RuntimeException e) {
            etl.close();
            throw e;
        }
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
        if (!in.hasMoreEvents()) {
            in.rewind();
            in.hasMoreEvents();
        }
        in.readEvent();
        return in.record();
    }

    /** The next record as the decoder's input ({@code EVENT_RECORD} form), valid until the next call. */
    RawEventRecord next() {
        return nextView().asRawEventRecord();
    }

    /** The current record's view (the one {@link #next()} presented). */
    EtlRecordView view() {
        return in.record();
    }

    /** A reader of one whole pass over the file, for benchmarks that make whole passes (the caller closes it). */
    TraceFile pass() throws ReadSetupException {
        return TraceFile.over(RAW, List.of(etl));
    }

    @Override
    public void close() {
        in.close();
        etl.close();
    }
}
