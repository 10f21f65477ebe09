package org.etw4j.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.TraceFile;
import org.etw4j.consumer.output.EventFormat;
import org.etw4j.consumer.output.EventFormatter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What an application pays per event when it reads a file through the public API only: {@link TraceFile} with the
 * default settings (reuse on; two passes, the context pass made in the set-up; or no context, {@link #context}) and
 * {@link EventRecord}'s getters.
 * One operation is one event, so B/op ({@code gc.alloc.rate.norm}) is the allocation per event; the reader starts
 * the file over at its end ({@link TraceFile#rewind()}, amortised over the file's events). Nothing here names an
 * internal type: this is the figure the README's "Reading many events" section quotes.
 * <ul>
 *   <li>{@code header}: the peer, the event's header facts (id, process id, timestamp), nothing decoded;</li>
 *   <li>{@code eventName}: the event's name (decoded into the record's reused view, presented);</li>
 *   <li>{@code getLong}: one integer field by name, {@link EventRecord#getLong(String)} (after
 *       {@link EventRecord#hasField}), the field the file's events nearly all carry ({@link #FIELD});</li>
 *   <li>{@code writeJsonl}: the event written by {@link EventFormatter} as {@code etw dump --format jsonl} writes
 *       it, to a stream that drops the bytes;</li>
 *   <li>{@code copy}: the event kept, {@link EventRecord#copy()}: the same decoding as {@code eventName}, then copied
 *       out as a value with the record's bytes (was {@code CopyBenchmark.copy}, whose {@code read} and
 *       {@code eventName} were this class's {@code header} and {@code eventName}).</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class RecordReadBenchmark {
    /**
     * Per file, an integer field most of its events have: the kernel file's {@code ProcessID} (17,007 of 17,078
     * events), the CLR file's {@code ClrInstanceID} (65,741 of 179,474; the others are read up to
     * {@link EventRecord#hasField}).
     */
    static final Map<String, String> FIELD = Map.of(
            "airbus__ShutdownPerfDiagLogger.etl", "ProcessID",
            "perfview__net.4.5.2.x64.etl", "ClrInstanceID");

    @Param({"airbus__ShutdownPerfDiagLogger.etl", "perfview__net.4.5.2.x64.etl"})
    public String file;

    /**
     * The trace context: {@code TWO_PASSES}, the default for files (every event presented: process, drive-letter
     * file names), or {@code NONE} (decoded, not presented), which tells the two stages' allocation apart.
     */
    @Param({"TWO_PASSES", "NONE"})
    public String context;

    private TraceFile in;
    private String field;
    private EventFormatter jsonl;

    @Setup
    public void open() throws IOException {
        field = FIELD.get(file);
        jsonl = new EventFormatter(EventFormat.JSONL, OutputStream.nullOutputStream());
        ReadSettings settings = ReadSettings.builder().traceContext(ReadSettings.TraceContext.valueOf(context)).build();
        in = TraceFile.open(settings, Corpus.file(file));
        in.hasMoreEvents(); // the context pass, outside the measurement
    }

    @TearDown
    public void close() {
        in.close();
    }

    private EventRecord next() {
        if (!in.hasMoreEvents()) {
            in.rewind();
            in.hasMoreEvents();
        }
        return in.readEvent();
    }

    @Benchmark
    public long header() {
        EventRecord e = next();
        return e.eventId() + e.processId() + e.fileTime();
    }

    @Benchmark
    public String eventName() {
        return next().eventName();
    }

    @Benchmark
    public long getLong() {
        EventRecord e = next();
        return e.hasField(field) ? e.getLong(field) : -1;
    }

    @Benchmark
    public void writeJsonl() throws IOException {
        jsonl.write(next());
    }

    @Benchmark
    public EventRecord copy() {
        return next().copy();
    }
}
