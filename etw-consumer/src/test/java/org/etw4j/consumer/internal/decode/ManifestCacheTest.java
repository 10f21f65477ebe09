package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manifest cache: what it returns is exactly what the XML parses to, whatever state its directory is in.
 */
class ManifestCacheTest {

    /** Every manifest the tests use: name to (bytes, source). */
    static Map<String, Object[]> manifests() throws IOException {
        Map<String, Object[]> m = new LinkedHashMap<>();
        m.put("ClrEtwAll.man", new Object[] {Files.readAllBytes(SharedData.resolve("manifests/ClrEtwAll.man")),
                SchemaSource.MANIFEST});
        try (Stream<Path> s = Files.list(SharedData.resolve("manifests"))) {
            for (Path p : s.sorted().toList()) {
                String n = p.getFileName().toString();
                if (!n.equals("ClrEtwAll.man") && (n.endsWith(".man") || n.endsWith(".xml"))) {
                    m.put(n, new Object[] {Files.readAllBytes(p), SchemaSource.MANIFEST});
                }
            }
        }
        try (InputStream in = ManifestCacheTest.class.getResourceAsStream("clr-supplement.man")) {
            m.put("clr-supplement.man", new Object[] {in.readAllBytes(), SchemaSource.BUILT_IN});
        }
        Path demo = Path.of("..", "etw-cli", "src", "main", "resources", "org", "etw4j", "cli", "etw4j-demo.man");
        assertTrue(Files.isRegularFile(demo), "the CLI's bundled manifest is at " + demo.toAbsolutePath());
        m.put("etw4j-demo.man", new Object[] {Files.readAllBytes(demo), SchemaSource.MANIFEST});
        m.put("EventDecoderTest.MANIFEST", new Object[] {bytes(EventDecoderTest.MANIFEST), SchemaSource.MANIFEST});
        m.put("ClrSupplementTest.OLD_MANIFEST", new Object[] {bytes(ClrSupplementTest.OLD_MANIFEST),
                SchemaSource.EVENT_SOURCE_MANIFEST});
        return m;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void cachedSchemasEqualParsedSchemasForEveryManifestTheTestsUse(@TempDir Path dir) throws IOException {
        for (Map.Entry<String, Object[]> e : manifests().entrySet()) {
            byte[] xml = (byte[]) e.getValue()[0];
            SchemaSource source = (SchemaSource) e.getValue()[1];
            List<ProviderManifest> parsed = ManifestParser.parse(xml, source);

            ManifestCache writer = ManifestCache.at(dir);
            List<ProviderManifest> first = writer.load(xml, source);
            assertEquals(new ManifestCache.Statistics(0, 1, 0, 1, 0), writer.statistics(), e.getKey());
            ManifestCache reader = ManifestCache.at(dir); // as a new process would
            List<ProviderManifest> cached = reader.load(xml, source);
            assertEquals(new ManifestCache.Statistics(1, 0, 0, 0, 0), reader.statistics(), e.getKey());

            assertEquals(render(parsed), render(first), e.getKey() + ": first load");
            assertEquals(render(parsed), render(cached), e.getKey() + ": the whole structure, from the cache");
            assertEquals(parsed, cached, e.getKey() + ": record equality");
        }
    }

    @Test
    void clrEtwAllIsLargeEnoughToMatter(@TempDir Path dir) throws IOException {
        Path man = SharedData.resolve("manifests/ClrEtwAll.man");
        List<ProviderManifest> parsed = ManifestParser.parse(Files.readAllBytes(man), SchemaSource.MANIFEST);
        int events = parsed.stream().mapToInt(ProviderManifest::size).sum();
        assertTrue(events > 300, "ClrEtwAll.man has " + events + " events");
        ManifestCache cache = ManifestCache.at(dir);
        cache.load(man);
        cache.load(man);
        assertEquals(1, cache.statistics().hits());
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> files = s.filter(f -> !f.getFileName().toString().equals(ManifestCache.KEY_FILE)).toList();
            assertEquals(1, files.size(), "one entry (beside the key), no temporary file left: " + files);
            assertTrue(Files.size(files.get(0)) < Files.size(man), "the entry is smaller than the XML");
        }
    }

    /** A canonical text of the complete structure, every map sorted, so that a difference shows where it is. */
    static String render(List<ProviderManifest> providers) {
        StringBuilder sb = new StringBuilder();
        for (ProviderManifest p : providers) {
            sb.append("provider ").append(p.guid()).append(' ').append(p.name()).append(' ').append(p.source())
                    .append('\n');
            p.keywords().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(k -> sb.append("  keyword ").append(k.getKey()).append('=').append(k.getValue())
                            .append('\n'));
            p.events().entrySet().stream()
                    .sorted((a, b) -> a.getKey().id() != b.getKey().id()
                            ? Integer.compare(a.getKey().id(), b.getKey().id())
                            : Integer.compare(a.getKey().version(), b.getKey().version()))
                    .forEach(e -> {
                        EventSchema s = e.getValue();
                        sb.append("  event ").append(e.getKey()).append(": ").append(s.providerId()).append('|')
                                .append(s.providerName()).append('|').append(s.eventId()).append('|')
                                .append(s.version()).append('|').append(s.task()).append('|').append(s.opcode())
                                .append('|').append(s.taskName()).append('|').append(s.opcodeName()).append('|')
                                .append(s.eventName()).append('|').append(s.message()).append('|')
                                .append(s.source()).append('\n');
                        fields(sb, s.fields(), "    ");
                        s.maps().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(m -> {
                            ValueMap v = m.getValue();
                            sb.append("    map ").append(m.getKey()).append(" -> ").append(v.name()).append(' ')
                                    .append(v.bitMap()).append(' ').append(v.entries()).append('\n');
                        });
                    });
        }
        return sb.toString();
    }

    private static void fields(StringBuilder sb, List<FieldSpec> fields, String indent) {
        for (FieldSpec f : fields) {
            if (f instanceof DataSpec d) {
                sb.append(indent).append("data ").append(d.name()).append(' ').append(d.inType()).append(' ')
                        .append(d.outType()).append(" map=").append(d.mapName()).append(" length=")
                        .append(d.length().literal()).append('/').append(d.length().fieldName()).append(" count=")
                        .append(d.count().literal()).append('/').append(d.count().fieldName()).append(" optional=")
                        .append(d.optional()).append('\n');
            } else {
                StructSpec s = (StructSpec) f;
                sb.append(indent).append("struct ").append(s.name()).append(" count=").append(s.count().literal())
                        .append('/').append(s.count().fieldName()).append('\n');
                fields(sb, s.members(), indent + "  ");
            }
        }
    }

    // ------------------------------------------------------------------------------ damaged entries

    private static final byte[] SMALL = bytes(EventDecoderTest.MANIFEST);

    private static Path goodEntry(Path dir) throws IOException {
        ManifestCache c = ManifestCache.at(dir);
        c.load(SMALL, SchemaSource.MANIFEST);
        Path entry = c.entryFor(SMALL, SchemaSource.MANIFEST);
        assertTrue(Files.isRegularFile(entry));
        return entry;
    }

    /** Loads with a damaged entry in place: the XML's schemas come back, and the entry is rewritten. */
    private static void assertIgnoredAndRewritten(Path dir, Path entry, byte[] good, byte[] damaged, String what)
            throws IOException {
        Files.write(entry, damaged);
        ManifestCache c = ManifestCache.at(dir);
        List<ProviderManifest> loaded = c.load(SMALL, SchemaSource.MANIFEST);
        assertEquals(ManifestParser.parse(SMALL, SchemaSource.MANIFEST), loaded, what);
        ManifestCache.Statistics s = c.statistics();
        assertEquals(0, s.hits(), what);
        assertEquals(1, s.misses(), what);
        assertEquals(1, s.written(), what + ": rewritten");
        assertArrayEquals(good, Files.readAllBytes(entry), what + ": the rewritten entry is the good one");
    }

    @Test
    void truncatedEntriesAreIgnoredAndRewritten(@TempDir Path dir) throws IOException {
        Path entry = goodEntry(dir);
        byte[] good = Files.readAllBytes(entry);
        // Every cut inside the header and the first payload bytes, then every 7th length.
        for (int length = 0; length < good.length; length += length < ManifestCacheCodec.HEADER_SIZE + 64 ? 1 : 7) {
            assertIgnoredAndRewritten(dir, entry, good, Arrays.copyOf(good, length), "cut to " + length + " bytes");
        }
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        assertIgnoredAndRewritten(dir, entry, good, longer, "one byte appended");
    }

    @Test
    void everySingleByteCorruptionIsIgnoredAndRewritten(@TempDir Path dir) throws IOException {
        Path entry = goodEntry(dir);
        byte[] good = Files.readAllBytes(entry);
        assertTrue(good.length > ManifestCacheCodec.HEADER_SIZE + 200, "a payload worth corrupting");
        // Every byte of the header and of the first payload bytes, then every 5th byte.
        for (int i = 0; i < good.length; i += i < ManifestCacheCodec.HEADER_SIZE + 64 ? 1 : 5) {
            byte[] bad = good.clone();
            bad[i] ^= (byte) (1 << (i % 8));
            assertIgnoredAndRewritten(dir, entry, good, bad, "bit " + (i % 8) + " of byte " + i + " flipped");
        }
    }

    @Test
    void anEntryOfAnotherManifestOrBuildIsNeverUsed(@TempDir Path dir) throws IOException {
        byte[] other = bytes(ClrSupplementTest.OLD_MANIFEST);
        byte[] code = ManifestCache.fingerprint();
        assertNotNull(code, "the class files are readable, so the cache is on");
        byte[] digest = ManifestCacheCodec.sha256(SMALL);
        Path entry = goodEntry(dir);
        byte[] key = ManifestCache.at(dir).keyForTests();
        assertNotNull(key);
        // Another manifest's valid entry under this manifest's name (as a collision or a copy would put it).
        byte[] wrongManifest = ManifestCacheCodec.encode(ManifestParser.parse(other, SchemaSource.MANIFEST),
                ManifestCacheCodec.sha256(other), code, SchemaSource.MANIFEST, key);
        // This manifest's entry as another etw4j build wrote it (same name only if the fingerprints collide).
        byte[] otherCode = code.clone();
        otherCode[31] ^= 1;
        byte[] wrongBuild = ManifestCacheCodec.encode(ManifestParser.parse(other, SchemaSource.MANIFEST), digest,
                otherCode, SchemaSource.MANIFEST, key);
        byte[] wrongSource = ManifestCacheCodec.encode(ManifestParser.parse(other, SchemaSource.MANIFEST), digest,
                code, SchemaSource.BUILT_IN, key);
        byte[] good = Files.readAllBytes(entry);
        assertIgnoredAndRewritten(dir, entry, good, wrongManifest, "another manifest's entry");
        assertIgnoredAndRewritten(dir, entry, good, wrongBuild, "another build's entry");
        assertIgnoredAndRewritten(dir, entry, good, wrongSource, "another source's entry");
        assertIgnoredAndRewritten(dir, entry, good, "not an entry".getBytes(StandardCharsets.US_ASCII), "text");
    }

    @Test
    void anEditedManifestHasAnotherEntry(@TempDir Path dir) throws IOException {
        ManifestCache c = ManifestCache.at(dir);
        byte[] edited = bytes(EventDecoderTest.MANIFEST.replace("Start", "Begin"));
        assertFalse(Arrays.equals(SMALL, edited));
        assertNotEquals(c.entryFor(SMALL, SchemaSource.MANIFEST), c.entryFor(edited, SchemaSource.MANIFEST));
        List<ProviderManifest> a = c.load(SMALL, SchemaSource.MANIFEST);
        List<ProviderManifest> b = c.load(edited, SchemaSource.MANIFEST);
        assertEquals(ManifestParser.parse(edited, SchemaSource.MANIFEST), b);
        assertNotEquals(a, b, "the edit is visible");
        assertEquals(0, c.statistics().hits());
        String name = c.entryFor(SMALL, SchemaSource.MANIFEST).getFileName().toString();
        assertTrue(name.startsWith(java.util.HexFormat.of().formatHex(ManifestCacheCodec.sha256(SMALL))), name);
    }

    @Test
    void unparseableXmlIsReportedAndNothingIsCached(@TempDir Path dir) throws IOException {
        ManifestCache c = ManifestCache.at(dir);
        assertThrows(IOException.class, () -> c.load(bytes("<instrumentationManifest>"), SchemaSource.MANIFEST));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(0, s.count());
        } catch (java.nio.file.NoSuchFileException e) {
            // not even created: fine
        }
    }

    @Test
    void anUnwritableCacheOnlyCostsTheParse(@TempDir Path dir) throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        ManifestCache c = ManifestCache.at(notADirectory);
        assertEquals(ManifestParser.parse(SMALL, SchemaSource.MANIFEST), c.load(SMALL, SchemaSource.MANIFEST));
        assertEquals(new ManifestCache.Statistics(0, 1, 0, 0, 1), c.statistics());
    }

    @Test
    void disabledCacheWritesNothing(@TempDir Path dir) throws IOException {
        ManifestCache c = ManifestCache.disabled();
        assertTrue(c.directory().isEmpty());
        assertEquals(ManifestParser.parse(SMALL, SchemaSource.MANIFEST), c.load(SMALL, SchemaSource.MANIFEST));
        assertEquals(new ManifestCache.Statistics(0, 1, 0, 0, 0), c.statistics());
    }

    /**
     * Absolute paths of the OS the test runs on (a literal {@code "/p"} is not absolute on Windows, where it
     * means {@code \\p} on the current drive): the rules are checked on Linux and on Windows alike.
     */
    private static final Path BASE = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();

    private static String abs(String name) {
        return BASE.resolve(name).toString();
    }

    @Test
    void locationFollowsPropertyThenEnvironmentThenXdgThenHome() {
        Path home = BASE.resolve("home");
        String h = home.toString();
        assertEquals(Path.of(abs("p")), ManifestCache.configuredDirectory(abs("p"), abs("e"), false, abs("x"), h));
        assertEquals(Path.of(abs("e")), ManifestCache.configuredDirectory(null, abs("e"), false, abs("x"), h));
        assertEquals(BASE.resolve("x").resolve("etw4j").resolve("manifests"),
                ManifestCache.configuredDirectory(null, null, false, abs("x"), h));
        assertEquals(home.resolve(".cache").resolve("etw4j").resolve("manifests"),
                ManifestCache.configuredDirectory(null, null, false, null, h));
        assertEquals(home.resolve(".cache").resolve("etw4j").resolve("manifests"),
                ManifestCache.configuredDirectory(null, null, false, "relative", h), "XDG: absolute only");
        for (String off : new String[] {"off", "OFF", "none", "false", "", " "}) {
            assertNull(ManifestCache.configuredDirectory(off, abs("e"), false, abs("x"), h), off);
            assertNull(ManifestCache.configuredDirectory(null, off, false, abs("x"), h), off);
        }
        assertNull(ManifestCache.configuredDirectory(null, null, false, null, null));
    }

    @Test
    void onWindowsTheCacheIsInLocalAppData() {
        // MS Learn, KNOWNFOLDERID: FOLDERID_LocalAppData (%LOCALAPPDATA%, default %USERPROFILE%\AppData\Local)
        // is the per-user, non-roaming place for caches; ~/.cache is a Unix convention.
        Path home = BASE.resolve("Users").resolve("u");
        String h = home.toString();
        assertEquals(BASE.resolve("Local").resolve("etw4j").resolve("manifests"),
                ManifestCache.configuredDirectory(null, null, true, abs("Local"), h));
        assertEquals(home.resolve("AppData").resolve("Local").resolve("etw4j").resolve("manifests"),
                ManifestCache.configuredDirectory(null, null, true, null, h), "no %LOCALAPPDATA%: the default");
        assertEquals(home.resolve("AppData").resolve("Local").resolve("etw4j").resolve("manifests"),
                ManifestCache.configuredDirectory(null, null, true, "relative", h), "absolute only");
        assertEquals(Path.of(abs("p")), ManifestCache.configuredDirectory(abs("p"), null, true, abs("Local"), h));
    }

    @Test
    void sharedCacheFollowsTheSystemProperty(@TempDir Path dir) throws IOException {
        String before = System.getProperty(ManifestCache.DIRECTORY_PROPERTY);
        try {
            System.setProperty(ManifestCache.DIRECTORY_PROPERTY, dir.toString());
            assertEquals(dir.toAbsolutePath(), ManifestCache.shared().directory().orElseThrow());
            Path man = Files.write(dir.resolve("m.man"), SMALL);
            ManifestParser.parse(man);
            ManifestParser.parse(man);
            assertEquals(1, ManifestCache.shared().statistics().hits(), "ManifestParser.parse(Path) uses it");
            System.setProperty(ManifestCache.DIRECTORY_PROPERTY, "off");
            assertTrue(ManifestCache.shared().directory().isEmpty());
        } finally {
            if (before == null) {
                System.clearProperty(ManifestCache.DIRECTORY_PROPERTY);
            } else {
                System.setProperty(ManifestCache.DIRECTORY_PROPERTY, before);
            }
        }
    }

    // ------------------------------------------------------------------------------ concurrency

    @Test
    void concurrentLoadsInOneJvmAllGetTheSchemas(@TempDir Path dir) throws Exception {
        byte[] clr = Files.readAllBytes(SharedData.resolve("manifests/ClrEtwAll.man"));
        List<ProviderManifest> expected = ManifestParser.parse(clr, SchemaSource.MANIFEST);
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 3; round++) {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<List<ProviderManifest>>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    Callable<List<ProviderManifest>> load = () -> {
                        go.await();
                        return ManifestCache.at(dir).load(clr, SchemaSource.MANIFEST);
                    };
                    results.add(pool.submit(load));
                }
                go.countDown();
                for (Future<List<ProviderManifest>> f : results) {
                    assertEquals(expected, f.get(), "round " + round);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(1, s.filter(f -> !f.getFileName().toString().equals(ManifestCache.KEY_FILE)).count(),
                    "one entry (beside the key), no temporary files");
        }
        ManifestCache after = ManifestCache.at(dir);
        assertEquals(expected, after.load(clr, SchemaSource.MANIFEST));
        assertEquals(1, after.statistics().hits());
    }

    /** Run by {@link #concurrentJvmsShareOneDirectory}: loads args[1] through a cache in args[0] 8 times. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        Path man = Path.of(args[1]);
        String expected = render(ManifestParser.parse(Files.readAllBytes(man), SchemaSource.MANIFEST));
        for (int i = 0; i < 8; i++) {
            if (i % 3 == 2) {
                // another process's cleanup: the entry disappears under the others
                Files.deleteIfExists(ManifestCache.at(dir).entryFor(Files.readAllBytes(man), SchemaSource.MANIFEST));
            }
            String got = render(ManifestCache.at(dir).load(man));
            if (!got.equals(expected)) {
                System.out.println("MISMATCH at load " + i);
                System.exit(2);
            }
        }
        System.out.println("OK");
    }

    @Test
    void concurrentJvmsShareOneDirectory(@TempDir Path dir) throws Exception {
        Path man = SharedData.resolve("manifests/ClrEtwAll.man");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> jvms = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            jvms.add(new ProcessBuilder(java, "-Xshare:auto", "-cp", System.getProperty("java.class.path"),
                    ManifestCacheTest.class.getName(), dir.toString(), man.toString())
                    .redirectErrorStream(true).start());
        }
        for (Process p : jvms) {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), out);
            assertTrue(out.contains("OK"), out);
        }
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> left = s.toList();
            assertTrue(left.stream().noneMatch(p -> p.getFileName().toString().endsWith(".tmp")),
                    "no temporary file left: " + left);
        }
    }
}
