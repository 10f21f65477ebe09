package org.etw4j.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.consumer.internal.decode.EventView;
import org.etw4j.consumer.TraceFile;
import org.etw4j.RawEventRecord;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decoding through the allocation-free {@link EventView} against the {@link DecodedEvent} it stands beside (issue
 * 11 target 4): one operation is one record of a corpus file, so B/op ({@code gc.alloc.rate.norm}) is the
 * allocation per event and ns/op the time per event. The cursor runs in time order and restarts at the end of the
 * file (that restart, amortised, is the ~0.3-0.5 B/record {@code EtlScanBenchmark.headerScan} shows). The manifest
 * (when given) is loaded once in the set-up, not per operation.
 * <ul>
 *   <li>{@code fullDecode}: the peer, {@link EventDecoder#decode} to a {@link DecodedEvent};</li>
 *   <li>{@code viewDecode}: {@link EventView#decode} (the fields are located, nothing read);</li>
 *   <li>{@code viewDecodeText}: the same, then every field's name and text appended to a reused builder (the
 *       values of the event's line; the line itself is {@code EventFormatter}'s, {@code FormatterBenchmark}).</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class ViewDecodeBenchmark {


    @Param({"airbus__ShutdownPerfDiagLogger.etl", "perfview__net.4.5.2.x64.etl"})
    public String file;

    @Param({"none", "ClrEtwAll.man"})
    public String manifest;

    private CorpusLoop loop;
    private EventDecoder decoder;
    private EventView view;
    private final StringBuilder line = new StringBuilder(4096);

    @Setup
    public void open() throws IOException {
        decoder = new EventDecoder(CorpusLoop.registry(manifest));
        view = new EventView(decoder);
        loop = CorpusLoop.open(file);
    }

    @TearDown
    public void close() {
        loop.close();
    }

    private RawEventRecord next() {
        return loop.next();
    }

    @Benchmark
    public DecodedEvent fullDecode() {
        return decoder.decode(next());
    }

    @Benchmark
    public void viewDecode(Blackhole bh) {
        EventView v = view.decode(next());
        bh.consume(v.fieldCount());
    }

    /**
     * A whole pass over the file through the view: B/op divided by the file's event count is the allocation per
     * event over every event of the file, whatever the machine's speed (the per-record benchmarks cover as much
     * of the file as an iteration reaches, which on a slow machine is part of a pass). Returns the event count.
     */
    @Benchmark
    public long viewDecodeFile(Blackhole bh) throws IOException {
        long n = 0;
        try (TraceFile in = loop.pass()) {
            while (in.hasMoreEvents()) {
                in.readEvent();
                bh.consume(view.decode(in.record().asRawEventRecord()).fieldCount());
                n++;
            }
        }
        return n;
    }

    /** The peer of {@link #viewDecodeFile}: the same pass decoding every record to a {@link DecodedEvent}. */
    @Benchmark
    public long fullDecodeFile(Blackhole bh) throws IOException {
        long n = 0;
        try (TraceFile in = loop.pass()) {
            while (in.hasMoreEvents()) {
                in.readEvent();
                bh.consume(decoder.decode(in.record().asRawEventRecord()));
                n++;
            }
        }
        return n;
    }

    @Benchmark
    public int viewDecodeText() {
        line.setLength(0);
        EventView v = view.decode(next());
        for (int i = 0, n = v.fieldCount(); i < n; i++) {
            v.appendText(i, line.append(' ').append(v.fieldName(i)).append('='));
        }
        return line.length();
    }
}
