package org.etw4j.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.TraceFile;
import org.etw4j.cli.EtwCommand;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@code etw dump} of a whole corpus file, in-process and JIT-warm, into a UTF-8 writer that discards the bytes:
 * one operation is one complete command (open, decode every record, format, encode). Peer in the same run:
 * {@code decodeOnly}, the same file decoded record by record with nothing written, so the ratio is what the
 * output path adds. Events per second = the file's event count / the time per operation (net.4.5.2: 179,474
 * events; ShutdownPerfDiagLogger: 17,078). The manifest case loads ClrEtwAll.man in every operation, as the
 * command does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class DumpBenchmark {

    @Param({"perfview__net.4.5.2.x64.etl", "airbus__ShutdownPerfDiagLogger.etl"})
    public String file;

    @Param({"jsonl", "csv", "text"})
    public String format;

    @Param({"none", "ClrEtwAll.man"})
    public String manifest;

    private final PrintWriter out = new PrintWriter(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
    private final PrintWriter err = new PrintWriter(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);

    @Benchmark
    public int dump() {
        List<String> args = new ArrayList<>(List.of("dump", "--format", format));
        if (!manifest.equals("none")) {
            args.addAll(List.of("--manifest", Corpus.manifest(manifest).toString()));
        }
        args.add(Corpus.file(file).toString());
        int code = EtwCommand.execute(out, err, args.toArray(String[]::new));
        if (code != 0) {
            throw new IllegalStateException("etw dump failed: " + code);
        }
        return code;
    }

    /**
     * The peer: every record decoded through the reader (its decoder, as {@code etw dump}'s, with the manifest),
     * without a trace context and with nothing written (format does not matter; run once per file).
     */
    @Benchmark
    public void decodeOnly(Blackhole bh) throws IOException {
        ReadSettings.Builder settings = ReadSettings.builder().traceContext(ReadSettings.TraceContext.NONE);
        if (!manifest.equals("none")) {
            settings.manifest(Corpus.manifest(manifest));
        }
        try (TraceFile in = TraceFile.open(settings.build(), Corpus.file(file))) {
            while (in.hasMoreEvents()) {
                bh.consume(in.readEvent().getFields());
            }
        }
    }
}
