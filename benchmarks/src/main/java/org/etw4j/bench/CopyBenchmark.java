package org.etw4j.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.TraceFile;
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
 * What {@link EventRecord#copy()} costs a reader that keeps every event (as etw-junit's {@code PrivateSessionFile}
 * does): one operation is one event of a corpus file read with the default settings (two passes, presented through
 * the trace context), so ns/op and B/op ({@code gc.alloc.rate.norm}) are per event. The reader starts over at the
 * end of the file ({@link TraceFile#rewind()}; the context pass is made once, in the set-up).
 * <ul>
 *   <li>{@code read}: the header's event id only, the floor;</li>
 *   <li>{@code eventName}: the event decoded into the reader's reused view and presented (what a reader that does
 *       not keep the event pays);</li>
 *   <li>{@code copy}: the kept copy: the same decoding, then copied out as a value with the record's bytes.</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class CopyBenchmark {

    @Param({"perfview__net.4.5.2.x64.etl", "airbus__ShutdownPerfDiagLogger.etl"})
    public String file;

    private TraceFile in;

    @Setup
    public void open() throws IOException {
        in = TraceFile.open(ReadSettings.DEFAULT, Corpus.file(file));
        if (!in.hasMoreEvents()) { // makes the context pass
            throw new IllegalStateException(file + " has no events");
        }
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
    public int read() {
        return next().eventId();
    }

    @Benchmark
    public String eventName() {
        return next().eventName();
    }

    @Benchmark
    public EventRecord copy() {
        return next().copy();
    }
}
