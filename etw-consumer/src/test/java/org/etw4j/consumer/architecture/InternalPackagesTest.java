package org.etw4j.consumer.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.etw4j.testing.BuildSources;
import org.junit.jupiter.api.Test;

/**
 * No module reaches into another module's {@code internal} packages. JPMS enforces this only on the module path;
 * Spark (etw-spark), the benchmarks and any class-path user run without it, so this test reads the sources of
 * every module of the build (main and test) instead: a reference to {@code org.etw4j.consumer.internal} (or any
 * other {@code org.etw4j...internal...} package) is allowed only in the module that declares that package.
 */
class InternalPackagesTest {

    private static final Pattern INTERNAL = Pattern.compile("\\borg\\.etw4j(?:\\.[a-z0-9_]+)*\\.internal(?:\\.[a-z0-9_]+)*");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([a-z0-9_.]+)\\s*;");

    /** The internal packages each module declares in its main sources. */
    private static Map<Path, Set<String>> declared(List<Path> modules) {
        Map<Path, Set<String>> out = new TreeMap<>();
        for (Path m : modules) {
            Set<String> pkgs = new TreeSet<>();
            for (Path f : BuildSources.javaFiles(m)) {
                Matcher pm = PACKAGE.matcher(BuildSources.read(f));
                if (f.startsWith(m.resolve("src/main")) && pm.find() && INTERNAL.matcher(pm.group(1)).matches()) {
                    pkgs.add(pm.group(1));
                }
            }
            out.put(m, pkgs);
        }
        return out;
    }

    /**
     * The internal packages {@code source} names that its module does not own: a module owns the tree under each
     * {@code ...internal} package it declares (declaring {@code org.etw4j.consumer.internal.schema} owns
     * {@code org.etw4j.consumer.internal} and everything under it).
     */
    static List<String> foreignInternals(String source, Set<String> own) {
        List<String> out = new ArrayList<>();
        Matcher r = INTERNAL.matcher(source);
        while (r.find()) {
            String used = r.group();
            if (own.stream().noneMatch(p -> internalRoot(p).equals(internalRoot(used)))) {
                out.add(used);
            }
        }
        return out;
    }

    /** {@code pkg} up to and including its first {@code .internal} segment. */
    private static String internalRoot(String pkg) {
        int i = pkg.indexOf(".internal");
        return pkg.substring(0, i + ".internal".length());
    }

    @Test
    void noModuleReferencesAnotherModulesInternalPackages() {
        Path root = BuildSources.root("etw-consumer");
        List<Path> modules = BuildSources.modules(root);
        Map<Path, Set<String>> declared = declared(modules);
        List<String> offences = new ArrayList<>();
        Set<String> excepted = new TreeSet<>();
        for (Path m : modules) {
            for (Path f : BuildSources.javaFiles(m)) {
                String file = BuildSources.relative(root, f);
                for (String used : foreignInternals(BuildSources.read(f), declared.get(m))) {
                    if (NAMED_EXCEPTIONS.containsKey(file)) {
                        excepted.add(file);
                    } else {
                        offences.add(file + " uses " + used);
                    }
                }
            }
        }
        assertEquals(List.of(), offences, "internal packages are private to their module (class-path users such as"
                + " Spark are not stopped by JPMS)");
        assertEquals(NAMED_EXCEPTIONS.keySet(), excepted, "a named exception that no longer reaches into an internal"
                + " package leaves this list");
    }

    /**
     * Files allowed to reach into another module's {@code internal} package, each with why. Not among them: Spark's splits,
     * the benchmarks, the report's event rate and the summary's undecoded listing read through the public
     * {@code TraceFile} with {@code ReadSettings} (buffer range, learned context, tally; {@link OneReadPathTest});
     * the live command formats through {@code EventFormatter.write(EventRecord)} and the session tally reads the
     * record's own getters. A file added here needs a reason; a file that no longer needs its entry fails the test.
     */
    private static final Map<String, String> NAMED_EXCEPTIONS = Map.ofEntries(
            Map.entry("benchmarks/src/main/java/org/etw4j/bench/FormatterBenchmark.java",
                    "measures the formatter alone on a decoded view (its peer decodes only), which the public API no "
                            + "longer takes: EventFormatter's forms naming the decoder's types went behind "
                            + "EventFormatterAccess when decode was taken out of the public face (issue 19, item 7)"),
            Map.entry("benchmarks/src/main/java/org/etw4j/bench/ViewDecodeBenchmark.java",
                    "measures the decoder alone (into a view, into a value) on records TraceFile delivers: the stage "
                            + "the allocation gate's viewDecode entry holds to 0 B/op"),
            Map.entry("benchmarks/src/main/java/org/etw4j/bench/EtlScanBenchmark.java",
                    "measures the raw scan with and without the decoder's value path, the two stages apart"),
            Map.entry("benchmarks/src/main/java/org/etw4j/bench/CorpusLoop.java",
                    "builds the manifest registry the three stage benchmarks above hand to the decoder"),
            Map.entry("benchmarks/src/main/java/org/etw4j/bench/ManifestLoadBenchmark.java",
                    "measures the manifest cache against the XML parser, an internal stage ReadSettings hides"),
            Map.entry("benchmarks/src/main/java/org/etw4j/bench/ManifestLoadCold.java",
                    "measures the manifest cache's cold start in a fresh JVM, the same stage as ManifestLoadBenchmark"),
            Map.entry("etw-fuzz/src/test/java/org/etw4j/fuzz/ManifestFuzzTest.java",
                    "fuzzes the manifest parser and the decoder directly: Jazzer instruments the internal classes "
                            + "and a crash must point at the stage, not at the reading API above it"),
            Map.entry("etw-fuzz/src/test/java/org/etw4j/fuzz/TdhMetadataFuzzTest.java",
                    "fuzzes the in-trace TDH metadata parser and the decoder directly, as ManifestFuzzTest"),
            Map.entry("etw-fuzz/src/test/java/org/etw4j/consumer/etl/FuzzSeeds.java",
                    "builds the TDH metadata fuzzer's seeds with the parser's own record layout"),
            Map.entry("native-bindings/src/test/java/org/etw4j/nativebindings/windows/RealEtwFidelityTest.java",
                    "Windows only: decodes the native record inside the ProcessTrace callback with etw4j's decoder, "
                            + "while TdhGetProperty can still read the same EVENT_RECORD, to compare the two value "
                            + "by value; the public reader hands out only the decoded event, not the native record"),
            Map.entry("native-bindings/src/test/java/org/etw4j/nativebindings/windows/TdhProperties.java",
                    "the comparison RealEtwFidelityTest runs (TDH's bytes against the decoder's values)"));

    /** The scan sees the modules that run on the class path, and finds the consumer's own internal package. */
    @Test
    void theScanCoversTheBuild() {
        Path root = BuildSources.root("etw-consumer");
        List<Path> modules = BuildSources.modules(root);
        List<String> names = modules.stream().map(p -> p.getFileName().toString()).toList();
        assertTrue(names.containsAll(List.of("etw-consumer", "etw-spark", "etw-cli", "etw-junit", "benchmarks",
                "etw-api")), "modules found: " + names);
        Set<String> consumer = declared(modules).get(root.resolve("etw-consumer"));
        assertTrue(consumer.stream().anyMatch(p -> p.startsWith("org.etw4j.consumer.internal")),
                "etw-consumer declares org.etw4j.consumer.internal packages: " + consumer);
    }

    /**
     * The rule on made-up sources: Spark importing the consumer's internals is an offence, the consumer is not
     * (the other module's name is split so that the scan of this file does not see it).
     */
    @Test
    void aClassPathModuleImportingTheConsumersInternalsIsAnOffence() {
        String source = "package org.etw4j.spark;\nimport org.etw4j.consumer.internal.schema.SchemaQuery;\n"
                + "class X { org.etw4j.consumer.internal.FilePass pass; }\n";
        assertEquals(List.of("org.etw4j.consumer.internal.schema", "org.etw4j.consumer.internal"),
                foreignInternals(source, Set.of()));
        assertEquals(List.of(), foreignInternals(source, Set.of("org.etw4j.consumer.internal.schema")));
        assertEquals(List.of("org.etw4j.consumer.internal.schema", "org.etw4j.consumer.internal"),
                foreignInternals(source, Set.of("org.etw4j" + ".opentelemetry.internal")));
    }
}
