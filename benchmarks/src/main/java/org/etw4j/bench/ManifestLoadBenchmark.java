package org.etw4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.etw4j.consumer.internal.decode.ManifestCache;
import org.etw4j.consumer.internal.decode.ManifestRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.w3c.dom.Document;

/**
 * Loading ClrEtwAll.man (510 KB, the CLR's instrumentation manifest) as {@code etw dump --manifest} does: parse
 * and register into a new {@link ManifestRegistry}. Peers in the same run: the same load answered by the
 * {@link ManifestCache} (an entry written in the set-up), and the JDK's DOM parse of the same bytes with the same
 * secure settings and nothing else, the floor of a DOM-based loader. One operation is one whole load. Warm
 * (average time, JIT-compiled) here; the CLI loads once per process, so the cold figures come from
 * {@link ManifestLoadCold} (fresh JVMs, one load each).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class ManifestLoadBenchmark {
    private final Path man = Corpus.manifest("ClrEtwAll.man");
    private final ManifestCache uncached = ManifestCache.disabled();
    private ManifestCache cache;
    private Path cacheDir;

    @Setup(Level.Trial)
    public void writeCacheEntry() throws IOException {
        cacheDir = Files.createTempDirectory("etw4j-manifest-cache-bench");
        cache = ManifestCache.at(cacheDir);
        cache.load(man);
    }

    @TearDown(Level.Trial)
    public void check() throws IOException {
        ManifestCache.Statistics s = cache.statistics();
        if (s.written() != 1 || s.misses() != 1 || s.rejected() != 0) {
            throw new IllegalStateException("the cached peer did not read its entry: " + s);
        }
        try (var files = Files.list(cacheDir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(cacheDir);
    }

    /** Parse the XML (no cache) and register, as before the cache. */
    @Benchmark
    public ManifestRegistry parseAndRegister() throws IOException {
        ManifestRegistry r = new ManifestRegistry();
        uncached.load(man).forEach(r::register);
        return r;
    }

    /** Read the cache entry and register. */
    @Benchmark
    public ManifestRegistry cachedAndRegister() throws IOException {
        ManifestRegistry r = new ManifestRegistry();
        cache.load(man).forEach(r::register);
        return r;
    }

    @Benchmark
    public Document jdkDomParseOnly() throws Exception {
        return ManifestLoadCold.domParse(man);
    }
}
