package org.etw4j.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.etw4j.consumer.decode.ManifestRegistry;
import org.etw4j.consumer.decode.ProviderManifest;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.w3c.dom.Document;

/**
 * Loading ClrEtwAll.man (510 KB, the CLR's instrumentation manifest) as {@code etw dump --manifest} does: parse
 * and register into a new {@link ManifestRegistry}. Peer in the same run: the JDK's DOM parse of the same bytes
 * with the same secure settings and nothing else, the floor of a DOM-based loader. One operation is one whole
 * load. Warm (average time, JIT-compiled) by default; the CLI loads once per process, so the cold figure is
 * {@code -bm ss -wi 0 -i 1 -f 20} (one load in each of 20 fresh JVMs).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class ManifestLoadBenchmark {
    private final Path man = Corpus.manifest("ClrEtwAll.man");

    @Benchmark
    public List<ProviderManifest> parseAndRegister() throws IOException {
        return new ManifestRegistry().register(man);
    }

    @Benchmark
    public Document jdkDomParseOnly() throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        try (InputStream in = Files.newInputStream(man)) {
            return f.newDocumentBuilder().parse(in);
        }
    }
}
