package org.etw4j.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlRecordView;
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
 * Reading real .etl files (the shared corpus, recorded on Windows): one operation is one record, so ns/op is the
 * time per record and B/op the allocation per record. The cursor runs in time order (records of all
 * per-processor buffers merged by timestamp) and restarts at the end of the file.
 * <ul>
 *   <li>{@code headerScan}: header fields only (kind, provider id, event id, opcode, timestamp) — the
 *       allocation-free path, through the public reader ({@link org.etw4j.consumer.TraceFile}).</li>
 *   <li>{@code cursorScan}: the same header fields straight off the raw tier's {@link EtlCursor}, the peer of
 *       {@code headerScan} in the same run: their difference is the reader's per-record cost.</li>
 *   <li>{@code fullDecode}: every record decoded to named fields (TraceLogging, manifest in-band or
 *       ClrEtwAll-free, kernel MOF classes).</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 3, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class EtlScanBenchmark {


    @Param({"airbus__ShutdownPerfDiagLogger.etl", "perfview__diaghub.diaghub.etl", "perfview__net.4.5.2.x64.etl",
            "krabsetw__powershell.etl", "airbus__AMSITrace.etl"})
    public String file;

    private CorpusLoop loop;
    private final EventDecoder decoder = new EventDecoder();
    /** The peer: the same file's raw time-ordered cursor, started over at its end. */
    private EtlFile raw;
    private EtlCursor cursor;

    @Setup
    public void open() throws IOException {
        loop = CorpusLoop.open(file);
        raw = EtlFile.open(Corpus.file(file));
        cursor = raw.cursor();
    }

    @TearDown
    public void close() {
        loop.close();
        raw.close();
    }

    private EtlRecordView nextView() {
        return loop.nextView();
    }

    private RawEventRecord next() {
        return loop.next();
    }

    @Benchmark
    public void headerScan(Blackhole bh) {
        EtlRecordView r = nextView();
        bh.consume(r.kind());
        bh.consume(r.providerIdMostSignificantBits() ^ r.providerIdLeastSignificantBits());
        bh.consume(r.eventId());
        bh.consume(r.opcode());
        bh.consume(r.timestamp());
    }

    /** The peer of {@link #headerScan}: the raw cursor, no reader between it and the view. */
    @Benchmark
    public void cursorScan(Blackhole bh) {
        if (!cursor.advance()) {
            cursor = raw.cursor();
            cursor.advance();
        }
        EtlRecordView r = cursor.record();
        bh.consume(r.kind());
        bh.consume(r.providerIdMostSignificantBits() ^ r.providerIdLeastSignificantBits());
        bh.consume(r.eventId());
        bh.consume(r.opcode());
        bh.consume(r.timestamp());
    }

    @Benchmark
    public DecodedEvent fullDecode() {
        return decoder.decode(next());
    }
}
