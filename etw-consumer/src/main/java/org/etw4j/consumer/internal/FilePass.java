package org.etw4j.consumer.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.etw4j.Guid;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.consumer.internal.decode.ManifestRegistry;
import org.etw4j.consumer.internal.decode.TdhMetadata;
import org.etw4j.consumer.internal.decode.TraceContext;
import org.etw4j.consumer.etl.EtlBufferFilter;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlOrder;
import org.etw4j.consumer.etl.EtlReadOptions;
import org.etw4j.consumer.etl.EtlRecordCounts;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.format.EventHeaderLayout;

/**
 * The consumer's one read loop over .etl files: opens them, merges them in time order (one cursor over all their
 * per-processor buffers), presents each record as an {@code EVENT_RECORD} for the decoder, says how far the pass
 * is, and makes the optional first pass that learns the trace's context (as TraceEvent's TraceLog reads a trace
 * twice; a {@link TraceLearner} learns the trace model's tables in the same pass). {@code org.etw4j.consumer.TraceFile}
 * runs it, and through it every client that reads files (streams, commands, the trace model and timeline, Spark,
 * the benchmarks); besides it only the relogger, which writes the records back raw.
 *
 * <p>Not thread-safe: one thread advances a pass. The view and the record describe the current record only until
 * the next {@link #advance()}. A pass holds no resources; the files are the caller's to close ({@link #open} closes
 * the ones it opened when a later one fails). Advancing allocates nothing per record.
 */
public final class FilePass {
    /** Progress is reported every this many records + 1 (a power of two minus one, a mask). */
    private static final long PROGRESS_MASK = 0xFFF;

    private final List<EtlFile> files;
    private final EtlCursor cursor;
    /** The one place records are presented as {@code EVENT_RECORD}s: re-pointed at the cursor's current view. */
    private final EtlRecordEvent event = new EtlRecordEvent();
    private ReadFraction fraction;

    private FilePass(List<EtlFile> files, EtlCursor cursor) {
        this.files = files;
        this.cursor = cursor;
    }

    /**
     * Opens {@code paths} in order with {@code options}; when one fails, the ones opened before it are closed.
     *
     * @throws IOException as {@link EtlFile#open(Path, EtlReadOptions)} throws it
     */
    public static List<EtlFile> open(List<Path> paths, EtlReadOptions options) throws IOException {
        List<EtlFile> opened = new ArrayList<>(paths.size());
        try {
            for (Path p : paths) {
                opened.add(EtlFile.open(p, options));
            }
        } catch (IOException | RuntimeException e) {
            opened.forEach(EtlFile::close);
            throw e;
        }
        return List.copyOf(opened);
    }

    /** A pass over every record of {@code files}, merged in time order. */
    public static FilePass over(List<EtlFile> files) {
        return new FilePass(files, files.size() == 1 ? files.get(0).cursor() : EtlFile.merge(files));
    }

    /** A pass over the records of {@code file}'s buffers {@code [firstBuffer, endBuffer)} that {@code filter} takes. */
    public static FilePass over(EtlFile file, long firstBuffer, long endBuffer, EtlBufferFilter filter) {
        return new FilePass(List.of(file), file.cursor(EtlOrder.TIME, firstBuffer, endBuffer, filter));
    }

    /**
     * Moves to the next record; false at the end.
     *
     * @throws org.etw4j.consumer.etl.EtlFormatException with strict files, at the first malformed buffer or record
     */
    public boolean advance() {
        return cursor.advance();
    }

    /** The reader's view of the current record. */
    public EtlRecordView view() {
        return cursor.record();
    }

    /** The current record as an {@code EVENT_RECORD}, the decoder's input. */
    public EtlRecordEvent record() {
        return event.of(cursor.record());
    }

    /** How far the pass is (0 to 1) once the current record is read (per file, weighted by size). */
    public double fraction() {
        if (fraction == null) {
            fraction = new ReadFraction(files);
        }
        return fraction.at(cursor.record());
    }

    /** The record accounting of the pass so far. */
    public EtlRecordCounts counts() {
        return cursor.recordCounts();
    }

    /**
     * The first of two passes, as TraceEvent's TraceLog reads a trace: the volume mapping, processes, threads and
     * file names of {@code files}, so that events logged before the rundown that describes their process show it.
     * With {@code harvestSchemas} the schemas the trace carries (EventSource manifests, TDH metadata events) are
     * registered with {@code decoder} as well, for a read that starts in the middle of the trace.
     */
    public static TraceContext learnContext(List<EtlFile> files, EventDecoder decoder, boolean harvestSchemas) {
        return learnContext(files, decoder, harvestSchemas, TraceLearner.NONE);
    }

    /**
     * {@link #learnContext(List, EventDecoder, boolean)}, with {@code learner} learning from the same pass what it
     * needs besides the context (the trace model's tables), and told how far the pass is.
     */
    public static TraceContext learnContext(List<EtlFile> files, EventDecoder decoder, boolean harvestSchemas,
                                            TraceLearner learner) {
        ContextLearning step = new ContextLearning(decoder, harvestSchemas, learner);
        FilePass pass = over(files);
        long n = 0;
        while (pass.advance()) {
            if ((++n & PROGRESS_MASK) == 0) {
                learner.progress(pass.fraction());
            }
            step.accept(pass.record());
        }
        learner.progress(1.0);
        return step.context();
    }

    /**
     * Whether decoding {@code r} may teach the decoder schemas for later records: EventSource manifest events (id
     * 0xFFFE) and KernelTraceControl MetaData events, which the decoder harvests. Cheap, header only.
     */
    public static boolean carriesSchemas(org.etw4j.RawEventRecord r) {
        if ((r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) != 0) {
            Guid g = TdhMetadata.METADATA_CLASS;
            return r.providerIdMsb() == g.mostSignificantBits() && r.providerIdLsb() == g.leastSignificantBits();
        }
        return r.id() == ManifestRegistry.MANIFEST_EVENT_ID;
    }

    /** The files of this pass. */
    public List<EtlFile> files() {
        return files;
    }

    @Override
    public String toString() {
        return "FilePass" + Objects.toString(files);
    }
}
