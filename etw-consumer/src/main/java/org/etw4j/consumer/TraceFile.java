package org.etw4j.consumer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.etw4j.consumer.internal.decode.EventView;
import org.etw4j.consumer.internal.decode.ProviderSelection;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.internal.DecodedKinds;
import org.etw4j.consumer.internal.FilePass;
import org.etw4j.consumer.internal.TraceFileAccess;
import org.etw4j.consumer.internal.TraceLearner;

/**
 * Reads the events of one or more .etl files, merged in time order and decoded, one at a time (the model of JDK
 * Flight Recorder's {@code jdk.jfr.consumer.RecordingFile}):
 *
 * <pre>{@code
 * ReadSettings settings = ReadSettings.builder().manifest(Path.of("MyProvider.man")).build();
 * try (TraceFile in = TraceFile.open(settings, Path.of("trace.etl"))) {
 *     while (in.hasMoreEvents()) {
 *         EventRecord e = in.readEvent();
 *         System.out.println(e.eventName() + " " + e.process());
 *     }
 * }
 * }</pre>
 *
 * <p>Threading, reuse and close contract: not thread-safe; one thread reads. With {@link ReadSettings#reuse()} (the
 * default) {@link #readEvent()} returns the same {@link EventRecord} each time, re-pointed at the next event and
 * valid until the next {@link #hasMoreEvents()}; {@link EventRecord#copy()} keeps one. {@link #close()} is
 * idempotent and unmaps the files; events read from them are invalid afterwards (copies stay valid).
 *
 * <p>What it does is what every file reader of etw4j does ({@code etw dump}, {@link EventStream#openFiles}): the
 * files are opened now (lenient: malformed buffers and records are stepped over and counted, see
 * {@link #warnings()}); with {@link ReadSettings.TraceContext#TWO_PASSES} the first {@link #hasMoreEvents()} reads
 * the whole trace once to learn its processes, threads, volume mapping and file names, then every event is
 * attributed through them.
 *
 * <p>Every client of etw4j that reads .etl records reads through this class (the streams, {@code etw dump} and
 * {@code etw summary}, the Spark reader, the report's event rate, the trace model and the timeline, the benchmarks)
 * or, inside the consumer, through the same internal file pass it runs (the relogger, which writes records back
 * raw): what a client needs beyond "every event, decoded" is a setting, not a loop of its own.
 * A range of one file's buffers ({@link ReadSettings.Builder#buffers}), a context another reader's first pass
 * learned ({@link LearnedContext}), the tally of events no schema describes ({@link #undecoded()}), files the
 * caller opened itself ({@link #over}), the raw record of each event ({@link #record()}) for header-only readers,
 * and reading again from the start ({@link #rewind()}).
 */
public final class TraceFile implements AutoCloseable {
    static {
        TraceFileAccess.install(TraceFile::learnWith);
    }

    private final ReadSettings settings;
    private final List<EtlFile> files;
    private final RecordDecoding decoding;
    private final ProviderSelection selection;
    private final EventRecord event;
    private final long[] openingWarnings;
    /** Whether {@link #close()} closes the files ({@link #open}) or leaves them to the caller ({@link #over}). */
    private final boolean ownsFiles;
    /** The tally of {@link ReadSettings#tallyUndecoded()}, and the kinds known to decode; else null. */
    private final UndecodedEvents undecoded;
    private final DecodedKinds decodedKinds;
    /** The record of the event last delivered (null before the first). */
    private EtlRecordEvent current;
    private long[] firstPassWarnings;
    private FilePass pass;
    /** Learns what the trace model needs in the first pass besides the context ({@link TraceFileAccess}). */
    private TraceLearner learner = TraceLearner.NONE;
    private boolean pending;
    private boolean ended;
    private boolean closed;
    private long recordsRead;
    /**
     * Every record is delivered as read (no one-pass context to observe, no time range, no provider selection, no
     * tally): set when the pass starts; then {@link #readNextPlain()} reads instead of {@link #readNext()}.
     */
    private boolean plain;
    /** {@link ReadSettings#reuse()}, read once. */
    private final boolean reuse;

    /** Per file: the problems the reader stepped over (each once, however many passes met it). */
    public record Warnings(String file, long count) {
    }

    private TraceFile(ReadSettings settings, RecordDecoding decoding, List<EtlFile> files, ProviderSelection selection,
                      boolean ownsFiles) {
        this.settings = settings;
        this.decoding = decoding;
        this.files = files;
        this.selection = selection;
        this.ownsFiles = ownsFiles;
        this.event = new EventRecord(decoding);
        this.openingWarnings = files.stream().mapToLong(EtlFile::warningCount).toArray();
        this.undecoded = settings.tallyUndecoded() ? new UndecodedEvents() : null;
        this.decodedKinds = settings.tallyUndecoded() ? new DecodedKinds() : null;
        this.reuse = settings.reuse();
    }

    /**
     * A reader over {@code files}, opened by the caller (who closes them: {@link #close()} leaves them open), with
     * {@code settings}; their reading options (lenient or strict, the warning listener) are the ones they were
     * opened with, not the settings'. For clients that need the files themselves too (their headers, a summary).
     *
     * @throws ReadSetupException naming the manifest that cannot be read
     * @throws IllegalArgumentException when no file is given, a provider selection is blank, or the settings name
     *                                  a buffer range and there is more than one file
     */
    public static TraceFile over(ReadSettings settings, List<EtlFile> files) throws ReadSetupException {
        Objects.requireNonNull(settings, "settings");
        checkFiles(settings, files.size());
        ProviderSelection selection = new ProviderSelection(settings.providers());
        return new TraceFile(settings, decoding(settings), List.copyOf(files), selection, false);
    }

    private static void checkFiles(ReadSettings settings, int count) {
        if (count == 0) {
            throw new IllegalArgumentException("no files");
        }
        if (settings.isSplit() && count != 1) {
            throw new IllegalArgumentException("a buffer range is read from one file, not " + count);
        }
    }

    /** The decoding state of a reader: from the learned context, or a new decoder with the settings' manifests. */
    private static RecordDecoding decoding(ReadSettings settings) throws ReadSetupException {
        if (settings.learnedContext() != null) {
            return settings.learnedContext().take();
        }
        RecordDecoding decoding = new RecordDecoding();
        settings.registerManifests(decoding.decoder.manifests());
        return decoding;
    }

    /** Opens {@code paths} with the default settings ({@link ReadSettings#DEFAULT}). */
    public static TraceFile open(Path... paths) throws IOException {
        return open(ReadSettings.DEFAULT, paths);
    }

    /**
     * Opens {@code paths} (merged in time order) with {@code settings}: registers the manifests, then maps the
     * files.
     *
     * @throws ReadSetupException naming the manifest or file that cannot be read (its cause is the reader's or
     *                            parser's exception)
     * @throws IllegalArgumentException when no path is given or a provider selection is blank
     */
    public static TraceFile open(ReadSettings settings, Path... paths) throws IOException {
        return open(settings, List.of(paths));
    }

    /** {@link #open(ReadSettings, Path...)} with a list. */
    public static TraceFile open(ReadSettings settings, List<Path> paths) throws IOException {
        Objects.requireNonNull(settings, "settings");
        checkFiles(settings, paths.size());
        RecordDecoding decoding = decoding(settings);
        ProviderSelection selection = new ProviderSelection(settings.providers());
        List<EtlFile> opened = new ArrayList<>(paths.size());
        try {
            for (Path p : paths) {
                try {
                    opened.add(EtlFile.open(p, settings.readOptions()));
                } catch (IOException | RuntimeException e) {
                    throw new ReadSetupException(p.toString(), e);
                }
            }
        } catch (ReadSetupException e) {
            opened.forEach(EtlFile::close);
            throw e;
        }
        return new TraceFile(settings, decoding, List.copyOf(opened), selection, true);
    }

    // ------------------------------------------------------------------------------------------ reading

    /**
     * Whether another event is there: reads on to the next record the settings let through (the first call
     * makes the context pass of {@link ReadSettings.TraceContext#TWO_PASSES}).
     *
     * @throws IllegalStateException when closed
     * @throws org.etw4j.consumer.etl.EtlFormatException a problem the reader cannot step over
     */
    public boolean hasMoreEvents() {
        // A small front (closed, pending, then the plain or the filtering read): the reading itself is in
        // readNextPlain/readNext, so readEvent's check stays cheap (PERFORMANCE.md, round 5, the reader's cost).
        if (closed) {
            throw closedException();
        }
        return pending || (plain ? readNextPlain() : readNext());
    }

    private static IllegalStateException closedException() {
        return new IllegalStateException("the trace file is closed");
    }

    /** Reads on to the next record the settings let through; false (and ended) at the end. */
    private boolean readNext() {
        if (ended) {
            return false;
        }
        if (pass == null) {
            start();
            if (plain) {
                return readNextPlain();
            }
        }
        boolean observe = settings.traceContext() == ReadSettings.TraceContext.ONE_PASS;
        boolean byName = selection.hasNames();
        while (pass.advance()) {
            recordsRead++;
            EtlRecordEvent r = pass.record();
            if (observe) {
                decoding.observe(r); // every record, filtered or not: the context is the trace's
            }
            if (settings.hasTimeRange()) {
                long t = r.timestamp();
                if (t < settings.fromFileTime() || t >= settings.toFileTime()) {
                    continue;
                }
            }
            if (!selection.isEmpty()) {
                if (!selection.acceptsId(r.providerId()) && !byName) {
                    continue;
                }
                event.resetFile(r);
                if (!selection.accepts(event.view())) {
                    continue;
                }
            } else {
                event.resetFile(r);
            }
            if (undecoded != null) {
                tally(r);
            }
            current = r;
            pending = true;
            return true;
        }
        ended = true;
        return false;
    }

    /** {@link #readNext()} when every record is delivered as it is ({@link #plain}): the same, without the tests. */
    private boolean readNextPlain() {
        if (!ended && pass.advance()) {
            recordsRead++;
            EtlRecordEvent r = pass.record();
            event.resetFile(r);
            if (current != r) { // the same adapter every time: no write barrier per record
                current = r;
            }
            pending = true;
            return true;
        }
        ended = true;
        return false;
    }

    /**
     * The next event (see the class comment for how long it is valid).
     *
     * @throws java.util.NoSuchElementException when there is none ({@link #hasMoreEvents()} is false)
     */
    public EventRecord readEvent() {
        if (!hasMoreEvents()) {
            throw new java.util.NoSuchElementException("no more events");
        }
        pending = false;
        return reuse ? event : event.copy();
    }

    /**
     * Writes the remaining events (at most {@code limit}) to {@code out} in {@code format}, byte for byte as one
     * {@link org.etw4j.consumer.output.EventFormatter} writing each {@link #readEvent()} does ({@code etw dump}),
     * and flushes it; returns how many were written. With {@code threads} above 0 (and the default two passes,
     * without provider names to match), this thread reads and copies the events and {@code threads} others decode
     * and format them in batches, written in order ({@link ParallelFormatting}): worth it when a core is free,
     * more CPU in all (the copies). {@code progress} hears the number of events written so far now and then, on
     * this thread.
     *
     * @throws IOException as {@code out} throws it
     * @throws org.etw4j.consumer.etl.EtlFormatException a problem the reader cannot step over
     */
    public long writeEvents(org.etw4j.consumer.output.EventFormat format, java.io.OutputStream out, long limit,
                            int threads, java.util.function.LongConsumer progress) throws IOException {
        return writeEvents(format, out, limit, threads, ParallelFormatting.BATCH, progress);
    }

    /** {@link #writeEvents(org.etw4j.consumer.output.EventFormat, java.io.OutputStream, long, int,
     * java.util.function.LongConsumer)} with threaded batches of {@code batchSize} events (tests). */
    long writeEvents(org.etw4j.consumer.output.EventFormat format, java.io.OutputStream out, long limit, int threads,
                     int batchSize, java.util.function.LongConsumer progress) throws IOException {
        if (threads > 0 && settings.traceContext() == ReadSettings.TraceContext.TWO_PASSES && !selection.hasNames()
                && limit > 0 && hasMoreEvents()) { // the first pass is made: its context and registry are final
            return ParallelFormatting.run(this, format, out, limit, threads, batchSize, decoding.presentingContext(),
                    decoding.decoder.manifests(), progress);
        }
        org.etw4j.consumer.output.EventFormatter formatter = new org.etw4j.consumer.output.EventFormatter(format, out);
        long written = 0;
        while (written < limit && hasMoreEvents()) {
            formatter.write(readEvent());
            if ((++written & 0xFFF) == 0) {
                progress.accept(written);
            }
        }
        formatter.flush();
        return written;
    }

    /** Counts the event in {@link #event} (of record {@code r}) when no schema describes it; a known kind is not decoded. */
    private void tally(EtlRecordEvent r) {
        if (decodedKinds.contains(r)) {
            return;
        }
        EventView e = event.view();
        undecoded.add(e);
        if (e.source() != SchemaSource.NONE && e.fieldCount() > 0 && DecodedKinds.cacheable(r)) {
            decodedKinds.add(r);
        }
    }

    private void start() {
        if (settings.learnedContext() == null && settings.traceContext() == ReadSettings.TraceContext.TWO_PASSES) {
            decoding.learned(FilePass.learnContext(files, decoding.decoder, false, learner));
        }
        // The first pass meets the same record problems as the second: they are counted once.
        firstPassWarnings = new long[files.size()];
        for (int i = 0; i < files.size(); i++) {
            firstPassWarnings[i] = files.get(i).warningCount() - openingWarnings[i];
        }
        decoding.presentWith(settings.traceContext() != ReadSettings.TraceContext.NONE);
        plain = settings.traceContext() != ReadSettings.TraceContext.ONE_PASS && !settings.hasTimeRange()
                && selection.isEmpty() && undecoded == null;
        pass = newPass();
    }

    /** See {@link TraceFileAccess#learnWith}. */
    private void learnWith(TraceLearner l) {
        if (settings.learnedContext() != null || settings.traceContext() != ReadSettings.TraceContext.TWO_PASSES) {
            throw new IllegalStateException("no first pass to learn from: " + settings);
        }
        if (pass != null) {
            throw new IllegalStateException("the first pass is made already");
        }
        learner = Objects.requireNonNull(l, "learner");
    }

    private FilePass newPass() {
        return settings.isSplit()
                ? FilePass.over(files.get(0), settings.firstBuffer(), settings.endBuffer(), settings.bufferFilter())
                : FilePass.over(files);
    }

    /**
     * Reads again from the first event the settings deliver (the context pass is not repeated; a one-pass context
     * keeps what it learned, and the {@link #undecoded()} tally goes on counting). The event and record last read
     * are invalid afterwards.
     *
     * @throws IllegalStateException when closed
     */
    public void rewind() {
        if (closed) {
            throw new IllegalStateException("the trace file is closed");
        }
        if (pass != null) {
            pass = newPass();
        }
        pending = false;
        ended = false;
        current = null;
    }

    /**
     * The raw record of the event last returned by {@link #readEvent()}, as stored (valid as long as that event):
     * the raw tier's view ({@link EtlRecordView}: header kind, buffer index, offset, stored timestamp, bytes; its
     * {@link EtlRecordView#asRawEventRecord()} is the {@code EVENT_RECORD} form the decoder reads), for clients that
     * read headers only or measure a stage of the pipeline on the record it presents.
     *
     * @throws IllegalStateException when no event was read yet
     */
    public EtlRecordView record() {
        if (current == null) {
            throw new IllegalStateException("no event read yet");
        }
        return current.view();
    }

    /**
     * Per event kind, the delivered events no schema describes, with why ({@code etw summary}'s listing), so far.
     *
     * @throws IllegalStateException when the settings did not ask for it ({@link ReadSettings.Builder#tallyUndecoded})
     */
    public UndecodedEvents undecoded() {
        if (undecoded == null) {
            throw new IllegalStateException("the settings did not ask for the tally of undecoded events");
        }
        return undecoded;
    }

    // ------------------------------------------------------------------------------------------ state

    /** How far the read is (0 to 1), by the time of the last record read in each file, weighted by size. */
    public double progress() {
        if (ended) {
            return 1.0;
        }
        return pass == null || recordsRead == 0 ? 0.0 : pass.fraction();
    }

    /** Records read so far (delivered or not), in the reading pass. */
    public long recordsRead() {
        return recordsRead;
    }

    /** Per file, in the order given, the problems the reader stepped over so far (each counted once). */
    public List<Warnings> warnings() {
        List<Warnings> out = new ArrayList<>(files.size());
        for (int i = 0; i < files.size(); i++) {
            long first = firstPassWarnings == null ? 0 : firstPassWarnings[i];
            out.add(new Warnings(files.get(i).name(), files.get(i).warningCount() - first));
        }
        return out;
    }

    /** Events the sessions lost, as the files' headers say (summed), and buffers lost. */
    long[] headerLosses() {
        long lost = 0;
        long buffersLost = 0;
        for (EtlFile f : files) {
            lost += f.header().eventsLost();
            buffersLost += f.header().buffersLost();
        }
        return new long[] {lost, buffersLost};
    }

    /** The decoding state (for a stream over this reader, which registers manifests on it). */
    RecordDecoding decoding() {
        return decoding;
    }

    /** The settings. */
    public ReadSettings settings() {
        return settings;
    }

    /** Unmaps the files the reader opened ({@link #over}: the caller's stay open); idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (ownsFiles) {
                files.forEach(EtlFile::close);
            }
        }
    }

    @Override
    public String toString() {
        return "TraceFile" + files + (closed ? " (closed)" : "");
    }
}
