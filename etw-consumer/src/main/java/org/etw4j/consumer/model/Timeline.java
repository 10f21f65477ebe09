package org.etw4j.consumer.model;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.ReadSetupException;
import org.etw4j.consumer.TraceFile;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.EventRecordAccess;
import org.etw4j.consumer.internal.ReadSettingsAccess;

/**
 * A trace as a timeline in the Trace Event Format that ui.perfetto.dev and chrome://tracing open (Google's "Trace
 * Event Format" document, the "JSON Object Format": {@code {"traceEvents":[...],"displayTimeUnit":"ms",
 * "stackFrames":{...},"otherData":{...}}}). Stateless; its methods are thread-safe (each call has its own state).
 *
 * <p>What is drawn, one track per process ({@code pid}) and thread ({@code tid}) named by metadata ({@code "ph":"M"})
 * events {@code process_name}, {@code thread_name}, {@code process_sort_index} and {@code thread_sort_index} (busiest
 * first):
 * <ul>
 *   <li>CPU samples (kernel PerfInfo/SampleProf): an instant event {@code "CPU sample"} (category {@code cpu}) on the
 *       sampled thread, in the process {@link CpuProfile} counts it for, with its stack
 *       ({@link TraceModel#stack}, else the sampled address alone, as {@link CpuProfile} counts it) as an
 *       {@code "sf"} reference into the {@code stackFrames} dictionary (root first through {@code parent}) and the
 *       sampled frame in {@code args.frame}; frames are named as in {@link StackFrame}.</li>
 *   <li>Activities: Start/Stop event pairs ({@link StartStopPairing} states the rule) as complete events
 *       ({@code "ph":"X"}, {@code dur} from Start to Stop) on the Start's thread, named {@code Provider/Task},
 *       {@code args} {@code start} and {@code stop} (each event's decoded fields) and {@code activityId}; the
 *       Start's stack as {@code sf}, the Stop's as {@code esf}, when the trace recorded them.</li>
 *   <li>Every other event: a thread-scoped instant event ({@code "ph":"i","s":"t"}) named
 *       {@code Provider/Task/Opcode} as TraceEvent names events, category the provider, {@code args} the decoded
 *       fields (as {@code etw dump --format jsonl} shows them), its stack as {@code sf} when the trace recorded
 *       one. Starts without a Stop and Stops without a Start are
 *       instants too, with category {@code unmatched-start} / {@code unmatched-stop}, and are counted.</li>
 * </ul>
 * Timestamps ({@code ts}, {@code dur}) are microseconds since the trace's start (the earliest of the files' start
 * times and first records), exact to the trace's 100 ns. The kernel's StackWalk events are stacks, not events, and are
 * not drawn. {@code otherData} holds the trace start and the counts of {@link Summary}.
 *
 * <p>Memory: the {@link TraceModel} (per process, thread, image, method, distinct stack), then per process and thread
 * drawn, per activity open and per distinct stack-frame node; events are written as they are read, never kept. The
 * files are read three times through one {@link TraceFile}: twice for the {@link TraceModel} (the reader's first
 * pass and one more), once to write.
 *
 * <p>Not done: durations carried by single events (e.g. DiskIo's response time) and Begin/End pairs with other
 * opcodes (the CLR's GCSuspendEEBegin/End): they are instants.
 */
public final class Timeline {

    /** Passes over the files: two for the model, one to write. */
    private static final int PASSES = 3;

    private Timeline() {
    }

    /**
     * What to draw. Immutable value; thread-safe.
     *
     * @param providers names or GUIDs of the providers whose events (instants and activities) to draw, as
     *                  {@code etw dump --provider} takes them (a GUID, a name, or a name the GUID is derived from,
     *                  matched without case); empty: every provider. CPU samples are governed by {@code samples}
     * @param samples   whether to draw CPU samples
     * @param instants  whether to draw events other than activities and samples as instants
     * @param from      start of the time range to draw, 100 ns units since the trace's start (0: from the start);
     *                  an activity is drawn when it overlaps the range
     * @param to        end of the range, inclusive ({@link Long#MAX_VALUE}: to the end)
     * @param manifests the manifests to decode with besides the trace's own schemas: those of these settings
     *                  ({@link ReadSettings.Builder#manifest(Path)} and its siblings; read when a write starts); its
     *                  other settings are not used here ({@code providers}, {@code from} and {@code to} select)
     * @param progress  told how far the write is (on the reading thread, every few thousand records): passes 1 and 2
     *                  build the {@link TraceModel}, pass 3 writes; {@code passes} is 3
     */
    public record Options(List<String> providers, boolean samples, boolean instants, long from, long to,
                          ReadSettings manifests, ReadProgress progress) {

        public Options {
            providers = List.copyOf(providers);
            Objects.requireNonNull(manifests, "manifests");
            Objects.requireNonNull(progress, "progress");
            if (from < 0 || to < from) {
                throw new IllegalArgumentException("time range must have 0 <= from <= to: " + from + ".." + to);
            }
        }

        /** Everything, the whole trace, no manifests beyond the trace's own schemas, no progress. */
        public static Options defaults() {
            return new Options(List.of(), true, true, 0, Long.MAX_VALUE, ReadSettings.DEFAULT, ReadProgress.NONE);
        }

        public Options withProviders(List<String> names) {
            return new Options(names, samples, instants, from, to, manifests, progress);
        }

        public Options withSamples(boolean draw) {
            return new Options(providers, draw, instants, from, to, manifests, progress);
        }

        public Options withInstants(boolean draw) {
            return new Options(providers, samples, draw, from, to, manifests, progress);
        }

        /** The time range, 100 ns units since the trace's start, both ends inclusive. */
        public Options withRange(long fromHundredNs, long toHundredNs) {
            return new Options(providers, samples, instants, fromHundredNs, toHundredNs, manifests, progress);
        }

        /** Decodes with the manifests of {@code settings} (only those: see {@code manifests} above). */
        public Options withManifests(ReadSettings settings) {
            return new Options(providers, samples, instants, from, to, settings, progress);
        }

        public Options withProgress(ReadProgress p) {
            return new Options(providers, samples, instants, from, to, manifests, p);
        }
    }

    /**
     * What a write drew. Immutable value.
     *
     * @param traceStart      FILETIME of {@code ts} 0
     * @param samples         CPU sample events written
     * @param slices          activity slices written ({@code "X"})
     * @param instants        instant events written for events (unmatched starts and stops included)
     * @param pairs           Start/Stop pairs matched among the selected providers' events; {@code slices} less
     *                        the pairs outside the time range
     * @param unmatchedStarts Starts no Stop closed by the end of the trace
     * @param unmatchedStops  Stops without an open Start
     * @param processes       process tracks (pids with events)
     * @param threads         thread tracks ((pid, tid) pairs with events)
     * @param stackFrames     entries of the {@code stackFrames} dictionary
     */
    public record Summary(long traceStart, long samples, long slices, long instants, long pairs,
                          long unmatchedStarts, long unmatchedStops, int processes, int threads, int stackFrames) {
    }

    /** Writes the timeline of {@code etl} to {@code out}. */
    public static Summary write(Path etl, Options options, Appendable out) throws IOException {
        try (EtlFile f = EtlFile.open(etl)) {
            return write(List.of(f), options, out);
        }
    }

    /**
     * Writes the timeline of {@code files}, merged in time order, to {@code out}; the files stay open. One reader
     * reads them three times: its first pass learns the context and the model's tables, the model reads them once
     * more, then the reader reads its events again to write them.
     *
     * @throws UncheckedIOException wrapping the {@link ReadSetupException} that names a manifest of
     *                              {@link Options#manifests()} that cannot be read (said before the trace is read)
     */
    public static Summary write(List<EtlFile> files, Options options, Appendable out) {
        try (TraceFile in = reader(files, options)) {
            TraceModel model = TraceModel.read(in, (pass, passes, f) -> options.progress().update(pass, PASSES, f),
                    (pass, record) -> { });
            in.rewind();
            return write(model, in, origin(files, in), options, out);
        }
    }

    /**
     * Writes the timeline of {@code files}, whose model {@code model} is, to {@code out}; the files stay open. For
     * tests: the reader makes a first pass of its own (its context describes the trace as the model's does).
     */
    static Summary write(TraceModel model, List<EtlFile> files, Options options, Appendable out) {
        try (TraceFile in = reader(files, options)) {
            return write(model, in, origin(files, in), options, out);
        }
    }

    /**
     * Writes the timeline of the records {@code pass} hands out (in time order), {@code ts} 0 at {@code origin},
     * each shown through the model's context as a reader shows its events. For tests and other record sources.
     */
    static Summary write(TraceModel model, Consumer<Consumer<RawEventRecord>> pass, long origin, Options options,
                         Appendable out) {
        Function<RawEventRecord, EventRecord> events;
        try {
            events = EventRecordAccess.records(options.manifests(), model.context());
        } catch (ReadSetupException e) {
            throw new UncheckedIOException(e);
        }
        TimelineWriter w = new TimelineWriter(model, origin, options, out);
        w.begin();
        pass.accept(r -> w.accept(r, events.apply(r)));
        return w.finish();
    }

    /** The writing pass: every event {@code in} delivers, from where it is. */
    private static Summary write(TraceModel model, TraceFile in, long origin, Options options, Appendable out) {
        TimelineWriter w = new TimelineWriter(model, origin, options, out);
        w.begin();
        long n = 0;
        while (in.hasMoreEvents()) {
            EventRecord e = in.readEvent();
            if ((++n & 0xFFF) == 0) {
                options.progress().update(PASSES, PASSES, in.progress());
            }
            w.accept(in.record().asRawEventRecord(), e);
        }
        options.progress().update(PASSES, PASSES, 1.0);
        return w.finish();
    }

    /**
     * A reader of {@code files} that decodes with the manifests of {@code options} and draws on its own first pass
     * (the selection of {@code options} is the writer's: every event is delivered).
     */
    private static TraceFile reader(List<EtlFile> files, Options options) {
        try {
            return TraceFile.over(ReadSettingsAccess.manifestsOnly(options.manifests()), files);
        } catch (ReadSetupException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The trace's start: the earliest of the files' header start times and first records (a record may precede its
     * file's start time, e.g. when the session's clock was read before the header was written). Reads the first
     * event of {@code in}, which stays to be read.
     */
    private static long origin(List<EtlFile> files, TraceFile in) {
        long origin = Long.MAX_VALUE;
        for (EtlFile f : files) {
            long start = f.header().startTime();
            if (start > 0) {
                origin = Math.min(origin, start);
            }
        }
        if (in.hasMoreEvents()) {
            origin = Math.min(origin, in.record().asRawEventRecord().timestamp()); // FILETIME, as the start time
        }
        return origin == Long.MAX_VALUE ? 0 : origin;
    }
}
