package org.etw4j.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.consumer.internal.decode.EventView;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.internal.EventFormatterAccess;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * The event formatter ({@code org.etw4j.consumer.output.EventFormatter}, issue 19 item 6, issue 20 target 1): one
 * operation is one record of a corpus file decoded into the reused {@link EventView} and written in one
 * {@link EventFormat} into the formatter's reused byte buffer (the stream discards the bytes), so ns/op is the time
 * per event and B/op ({@code gc.alloc.rate.norm}) the allocation per event. Peer in the same run:
 * {@code decodeOnly}, the same record decoded and its timestamp made, nothing written: the difference is what
 * formatting costs, in time and in bytes allocated. The cursor restarts at the end of the file.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class FormatterBenchmark {

    @Param({"airbus__ShutdownPerfDiagLogger.etl", "perfview__net.4.5.2.x64.etl"})
    public String file;

    @Param({"jsonl", "csv", "text"})
    public String format;

    @Param({"none", "ClrEtwAll.man"})
    public String manifest;

    private CorpusLoop loop;
    private EventView view;
    private EventFormatter formatter;

    @Setup
    public void open() throws IOException {
        view = new EventView(new EventDecoder(CorpusLoop.registry(manifest)));
        formatter = new EventFormatter(EventFormat.valueOf(format.toUpperCase(java.util.Locale.ROOT)),
                OutputStream.nullOutputStream());
        loop = CorpusLoop.open(file);
    }

    @TearDown
    public void close() {
        loop.close();
    }

    @Benchmark
    public void format() {
        RawEventRecord r = loop.next();
        EventFormatterAccess.write(formatter, r, view.decode(r), loop.view().timestampInstant());
    }

    /** The peer: the same decode and timestamp, nothing written. */
    @Benchmark
    public void decodeOnly(Blackhole bh) {
        RawEventRecord r = loop.next();
        bh.consume(view.decode(r).fieldCount());
        bh.consume(loop.view().timestampInstant());
    }
}
