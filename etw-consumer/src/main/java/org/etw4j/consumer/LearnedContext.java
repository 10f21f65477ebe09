package org.etw4j.consumer;

import java.util.List;
import java.util.Objects;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.consumer.internal.decode.ManifestRegistry;
import org.etw4j.consumer.internal.decode.TraceContext;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.FilePass;

/**
 * What one first pass over a trace learned, to be shared by several readers of it instead of each making its own
 * (the splits of one file in Spark): the trace's processes, threads, volume mapping and file names, and the schemas
 * it carries (EventSource manifests, TDH metadata events) on top of the manifests the settings gave. A reader
 * opened with {@link ReadSettings.Builder#learnedContext} decodes and attributes every event of any part of the
 * trace exactly as a whole-file read with {@link ReadSettings.TraceContext#TWO_PASSES} does.
 *
 * <p>Immutable once made, and thread-safe: each reader takes its own presenter of the context and its own copy of
 * the schemas (what one reader harvests later reaches no other). It holds no file: the files the pass read may be
 * closed. Publish it to other threads through a synchronizing action (a lock, a concurrent map, a thread start).
 */
public final class LearnedContext {
    private final TraceContext context;
    private final ManifestRegistry schemas;

    private LearnedContext(TraceContext context, ManifestRegistry schemas) {
        this.context = context;
        this.schemas = schemas;
    }

    /**
     * Reads every record of {@code files} once (whatever buffer range {@code settings} names: the context is the
     * whole trace's), with the manifests of {@code settings} registered, and learns the context and the schemas the
     * trace carries. Problems the reader steps over go to the files' own listener, as the files were opened.
     *
     * @throws ReadSetupException naming a manifest of {@code settings} that cannot be read
     * @throws org.etw4j.consumer.etl.EtlFormatException a problem the reader cannot step over (strict files: the
     *                                                   first malformed buffer or record)
     * @throws IllegalArgumentException when {@code files} is empty
     */
    public static LearnedContext learn(ReadSettings settings, List<EtlFile> files) throws ReadSetupException {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no files");
        }
        ManifestRegistry registry = new ManifestRegistry();
        settings.registerManifests(registry);
        TraceContext context = FilePass.learnContext(files, new EventDecoder(registry), true);
        // Freeze the tables now, on this thread: each reader takes a presenter of them.
        context.presenter();
        return new LearnedContext(context, registry);
    }

    /** A decoding state for one reader: its own presenter of the context and decoder over a copy of the schemas. */
    RecordDecoding take() {
        RecordDecoding d = new RecordDecoding(new EventDecoder(schemas.copy()));
        synchronized (this) {
            d.learned(context.presenter());
        }
        return d;
    }

    @Override
    public String toString() {
        return "LearnedContext[" + Objects.toString(context.processes()) + "]";
    }
}
