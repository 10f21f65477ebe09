package org.etw4j.consumer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.etw4j.consumer.decode.ProviderSelection;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlRecordEvent;
import org.etw4j.consumer.internal.FilePass;

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
 */
public final class TraceFile implements AutoCloseable {
    private final ReadSettings settings;
    private final List<EtlFile> files;
    private final RecordDecoding decoding;
    private final ProviderSelection selection;
    private final EventRecord event;
    private final long[] openingWarnings;
    private long[] firstPassWarnings;
    private FilePass pass;
    private boolean pending;
    private boolean ended;
    private boolean closed;
    private long recordsRead;

    /** Per file: the problems the reader stepped over (each once, however many passes met it). */
    public record Warnings(String file, long count) {
    }

    private TraceFile(ReadSettings settings, RecordDecoding decoding, List<EtlFile> files, ProviderSelection selection) {
        this.settings = settings;
        this.decoding = decoding;
        this.files = files;
        this.selection = selection;
        this.event = new EventRecord(decoding);
        this.openingWarnings = files.stream().mapToLong(EtlFile::warningCount).toArray();
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
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("no files");
        }
        RecordDecoding decoding = new RecordDecoding();
        settings.registerManifests(decoding.decoder.manifests());
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
        return new TraceFile(settings, decoding, List.copyOf(opened), selection);
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
        if (closed) {
            throw new IllegalStateException("the trace file is closed");
        }
        if (pending) {
            return true;
        }
        if (ended) {
            return false;
        }
        if (pass == null) {
            start();
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
        return settings.reuse() ? event : event.copy();
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

    private void start() {
        if (settings.traceContext() == ReadSettings.TraceContext.TWO_PASSES) {
            decoding.learned(FilePass.learnContext(files, decoding.decoder, false));
        }
        // The first pass meets the same record problems as the second: they are counted once.
        firstPassWarnings = new long[files.size()];
        for (int i = 0; i < files.size(); i++) {
            firstPassWarnings[i] = files.get(i).warningCount() - openingWarnings[i];
        }
        decoding.presentWith(settings.traceContext() != ReadSettings.TraceContext.NONE);
        pass = FilePass.over(files);
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

    /** Unmaps the files; idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            files.forEach(EtlFile::close);
        }
    }

    @Override
    public String toString() {
        return "TraceFile" + files + (closed ? " (closed)" : "");
    }
}
