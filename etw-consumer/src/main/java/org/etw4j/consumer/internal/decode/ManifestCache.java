package org.etw4j.consumer.internal.decode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import org.etw4j.Guid;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;

/**
 * A cache of parsed instrumentation manifests on disk, so that a large manifest (ClrEtwAll.man, 0.5 MB of XML)
 * is parsed once per machine rather than once per process: the providers are stored in a compact binary form
 * ({@link ManifestCacheCodec}) and read back instead of the XML.
 * Thread-safe; several threads and several JVMs may share one directory.
 *
 * <p><b>Key and invalidation.</b> An entry is named by the SHA-256 of the manifest's bytes, the
 * {@link SchemaSource} and the <em>code fingerprint</em>: the SHA-256 of the codec's format version and of the
 * parser and of every type a parsed schema is made of ({@link #FINGERPRINT_CLASSES}): of the path, size and
 * modification time of the jar they come from, or of their class files when they are not in a jar. An edited
 * manifest has another digest, and another etw4j build (any rebuilt jar, released or not; any changed class file)
 * another fingerprint, so neither ever reads an old entry; old entries are left in place (a few
 * hundred KB each), and deleting the directory at any time is safe. The entry repeats all three in its header
 * and carries the SHA-256 of its payload: an entry that is truncated, corrupt or not what its name says is
 * ignored, the XML parsed, and the entry rewritten. A cache that cannot be read or written (read-only home,
 * full disk) only costs the parse; loading never fails because of it.
 *
 * <p><b>Trust</b> (issue 22, item 8: a huge entry or one linked to {@code /dev/zero} ran the reader out of memory,
 * one linked to a FIFO hung it, and an entry edited with its checksum recomputed was used). The directory is
 * created owner-only (POSIX {@code rwx------}); an entry is opened without following links and read only when it is
 * a regular file of at most {@link #MAX_ENTRY_BYTES} bytes; and every entry carries an HMAC-SHA256 under a random
 * key kept in the directory ({@value #KEY_FILE}, owner-only, 32 bytes, created on first write), over its header
 * (which holds the manifest's SHA-256) and its payload, so an entry is only used when it was written by someone
 * who could read that key. Where POSIX permissions exist, a key file that is not a regular file owned by the user
 * with no group or other access turns the cache off for that load (the XML is parsed).
 *
 * <p><b>Writes</b> go to a temporary file in the same directory, then are renamed over the entry with
 * {@link StandardCopyOption#ATOMIC_MOVE}; a reader sees the old entry, the new one or none, never part of one.
 * Concurrent writers of the same entry write the same bytes, so which rename wins does not matter. Where the
 * file system cannot rename atomically nothing is written.
 *
 * <p><b>Location</b> ({@link #shared()}): the system property {@value #DIRECTORY_PROPERTY}, else the environment
 * variable {@value #DIRECTORY_ENV}, else the platform's per-user cache folder: on Windows
 * {@code %LOCALAPPDATA%\etw4j\manifests} (else {@code %USERPROFILE%\AppData\Local\etw4j\manifests}), the
 * local, non-roaming application-data folder (MS Learn, "KNOWNFOLDERID": FOLDERID_LocalAppData); elsewhere
 * {@code $XDG_CACHE_HOME/etw4j/manifests}, else {@code ~/.cache/etw4j/manifests} (XDG Base Directory
 * Specification). A relative base is ignored. The value {@code off} (also {@code none}, {@code false}, empty)
 * disables it.
 *
 * <p>Used by {@link ManifestParser#parse(Path)}, so by {@link ManifestRegistry#register(Path)},
 * {@code EventStream.addManifest(Path)} and the CLI's {@code --manifest}; in-band (EventSource) manifests of a
 * trace are parsed without it.
 */
public final class ManifestCache {
    /** System property naming the cache directory, or {@code off}. */
    public static final String DIRECTORY_PROPERTY = "etw4j.manifest.cache";
    /** Environment variable naming the cache directory, or {@code off} (the system property wins). */
    public static final String DIRECTORY_ENV = "ETW4J_MANIFEST_CACHE";
    /** The classes whose compiled form decides what a manifest parses to; part of the code fingerprint. */
    static final List<Class<?>> FINGERPRINT_CLASSES = List.of(ManifestParser.class, ManifestCacheCodec.class,
            ManifestCache.class, ProviderManifest.class, ProviderManifest.EventKey.class, EventSchema.class,
            FieldSpec.class, DataSpec.class, StructSpec.class, SizeRule.class, ValueMap.class, InType.class,
            OutType.class, SchemaSource.class, Guid.class);

    /** Largest entry read: four times the largest manifest the parser accepts (entries are a fraction of it). */
    static final long MAX_ENTRY_BYTES = 4L * ManifestParser.MAX_BYTES;
    /** The file holding the directory's MAC key. */
    static final String KEY_FILE = "key";
    private static final int KEY_BYTES = 32;
    private static final java.util.Set<java.nio.file.attribute.PosixFilePermission> OWNER_ONLY_DIRECTORY =
            java.nio.file.attribute.PosixFilePermissions.fromString("rwx------");
    private static final java.util.Set<java.nio.file.attribute.PosixFilePermission> OWNER_ONLY_FILE =
            java.nio.file.attribute.PosixFilePermissions.fromString("rw-------");

    private static final Object SHARED_LOCK = new Object();
    private static ManifestCache shared;
    private static volatile byte[] fingerprint;

    private final Path directory;
    private volatile byte[] key;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder written = new LongAdder();
    private final LongAdder writeFailures = new LongAdder();

    /** Made on first use: only problems are logged, and the logging framework costs a cold start ~0.1 s. */
    private static final class Log {
        static final System.Logger LOG = System.getLogger(ManifestCache.class.getName());
    }

    private static void debug(java.util.function.Supplier<String> message) {
        Log.LOG.log(System.Logger.Level.DEBUG, message);
    }

    private ManifestCache(Path directory) {
        this.directory = directory;
    }

    /**
     * What a cache did since it was made. Immutable value; thread-safe.
     *
     * @param hits          loads answered from an entry
     * @param misses        loads that parsed the XML (no usable entry, or the cache is off)
     * @param rejected      entries found but not used (truncated, corrupt, other manifest or build); each is
     *                      also a miss and is rewritten
     * @param written       entries written
     * @param writeFailures entries that could not be written (the load still succeeded)
     */
    public record Statistics(long hits, long misses, long rejected, long written, long writeFailures) {
    }

    /** A cache in {@code directory} (created when first written). */
    public static ManifestCache at(Path directory) {
        return new ManifestCache(Objects.requireNonNull(directory, "directory").toAbsolutePath());
    }

    /** A cache that stores nothing: every load parses the XML. */
    public static ManifestCache disabled() {
        return new ManifestCache(null);
    }

    /**
     * The cache at the configured location (see the class comment), one instance per location: the location is
     * looked up at every call, so a changed system property takes effect at the next load.
     */
    public static ManifestCache shared() {
        boolean windows = System.getProperty("os.name", "").startsWith("Windows");
        Path dir = configuredDirectory(System.getProperty(DIRECTORY_PROPERTY), System.getenv(DIRECTORY_ENV),
                windows, System.getenv(windows ? "LOCALAPPDATA" : "XDG_CACHE_HOME"), System.getProperty("user.home"));
        synchronized (SHARED_LOCK) {
            if (shared == null || !Objects.equals(shared.directory, dir)) {
                shared = dir == null ? disabled() : at(dir);
            }
            return shared;
        }
    }

    /**
     * The directory the configuration names, or {@code null} when the cache is off.
     *
     * @param windows        whether the Windows rule applies ({@code cacheHome} is then %LOCALAPPDATA%)
     * @param cacheHome      %LOCALAPPDATA% on Windows, $XDG_CACHE_HOME elsewhere; used only when absolute
     */
    static Path configuredDirectory(String property, String env, boolean windows, String cacheHome, String userHome) {
        String chosen = property != null ? property : env;
        if (chosen != null) {
            String v = chosen.trim();
            String lower = v.toLowerCase(Locale.ROOT);
            if (v.isEmpty() || lower.equals("off") || lower.equals("none") || lower.equals("false")) {
                return null;
            }
            return Path.of(v).toAbsolutePath();
        }
        Path base;
        if (cacheHome != null && !cacheHome.isBlank() && Path.of(cacheHome).isAbsolute()) {
            base = Path.of(cacheHome); // the XDG spec ignores relative values; so do we for %LOCALAPPDATA%
        } else if (userHome != null && !userHome.isBlank()) {
            base = windows ? Path.of(userHome, "AppData", "Local") : Path.of(userHome, ".cache");
        } else {
            return null;
        }
        return base.resolve("etw4j").resolve("manifests");
    }

    /** The directory entries are kept in; empty when the cache is off. */
    public java.util.Optional<Path> directory() {
        return java.util.Optional.ofNullable(directory);
    }

    /** Counts since this instance was made. */
    public Statistics statistics() {
        return new Statistics(hits.sum(), misses.sum(), rejected.sum(), written.sum(), writeFailures.sum());
    }

    /**
     * The providers of a manifest file ({@link SchemaSource#MANIFEST}), from the cache when it holds them, else
     * parsed (and stored). Equal to {@link ManifestParser#parse(byte[], SchemaSource)} of the file's bytes.
     *
     * @throws IOException when the file cannot be read or does not parse (nothing is cached then)
     */
    public List<ProviderManifest> load(Path manifestFile) throws IOException {
        byte[] xml;
        try (InputStream in = Files.newInputStream(manifestFile)) {
            // One byte past the bound, so that the parser reports the oversized manifest as it always has.
            xml = in.readNBytes(ManifestParser.MAX_BYTES + 1);
        }
        return load(xml, SchemaSource.MANIFEST);
    }

    /**
     * The providers of manifest XML bytes, from the cache when it holds them, else parsed (and stored).
     *
     * @throws IOException when the XML does not parse (nothing is cached then)
     */
    public List<ProviderManifest> load(byte[] xml, SchemaSource source) throws IOException {
        Objects.requireNonNull(source, "source");
        byte[] code = directory == null || xml.length > ManifestParser.MAX_BYTES ? null : fingerprint();
        if (code == null) {
            misses.increment();
            return ManifestParser.parse(xml, source);
        }
        byte[] digest = ManifestCacheCodec.sha256(xml);
        Path entry = directory.resolve(entryName(digest, code, source));
        byte[] k = existingKey();
        List<ProviderManifest> cached = k == null ? null : read(entry, digest, code, source, k);
        if (cached != null) {
            hits.increment();
            return cached;
        }
        misses.increment();
        List<ProviderManifest> parsed = ManifestParser.parse(xml, source);
        if (k == null) {
            k = createKey();
        }
        if (k == null) {
            writeFailures.increment();
        } else {
            write(entry, ManifestCacheCodec.encode(parsed, digest, code, source, k));
        }
        return parsed;
    }

    /** {@code <manifest sha256>-<source>-<first 16 hex digits of the code fingerprint>.bin}. */
    static String entryName(byte[] manifestDigest, byte[] code, SchemaSource source) {
        HexFormat hex = HexFormat.of();
        return hex.formatHex(manifestDigest) + "-" + source.name().toLowerCase(Locale.ROOT) + "-"
                + hex.formatHex(code, 0, 8) + ".bin";
    }

    /** The file an entry for these bytes would be kept in, or {@code null} when the cache is off. */
    Path entryFor(byte[] xml, SchemaSource source) {
        byte[] code = fingerprint();
        return directory == null || code == null ? null
                : directory.resolve(entryName(ManifestCacheCodec.sha256(xml), code, source));
    }

    private List<ProviderManifest> read(Path entry, byte[] digest, byte[] code, SchemaSource source, byte[] k) {
        byte[] bytes;
        try {
            bytes = readRegularFile(entry, MAX_ENTRY_BYTES);
        } catch (NoSuchFileException e) {
            return null;
        } catch (NotUsable e) {
            rejected.increment();
            debug(() -> "manifest cache entry " + entry + " ignored: " + e.getMessage());
            return null;
        } catch (IOException | RuntimeException e) {
            debug(() -> "manifest cache entry " + entry + " not readable: " + e);
            return null;
        }
        try {
            return ManifestCacheCodec.decode(bytes, digest, code, source, k);
        } catch (ManifestCacheCodec.Rejected e) {
            rejected.increment();
            debug(() -> "manifest cache entry " + entry + " ignored: " + e.getMessage());
            return null;
        }
    }

    /** A file the cache does not read: a link, a device, a FIFO, a directory, too large, or not owner-only. */
    private static final class NotUsable extends IOException {
        private static final long serialVersionUID = 1L;

        NotUsable(String why) {
            super(why);
        }
    }

    /**
     * The bytes of {@code file} when it is a regular file (not a link to one) of at most {@code max} bytes; checked
     * before opening, so that a FIFO or device is never opened, and again on the open file.
     */
    private static byte[] readRegularFile(Path file, long max) throws IOException {
        java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(file,
                java.nio.file.attribute.BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if (!a.isRegularFile()) {
            throw new NotUsable(a.isSymbolicLink() ? "a symbolic link (not followed)" : "not a regular file");
        }
        if (a.size() > max) {
            throw new NotUsable(a.size() + " bytes, over the " + max + "-byte bound");
        }
        try (java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(file, java.util.Set.of(
                java.nio.file.StandardOpenOption.READ, java.nio.file.LinkOption.NOFOLLOW_LINKS))) {
            long size = ch.size();
            if (size > max) {
                throw new NotUsable(size + " bytes, over the " + max + "-byte bound");
            }
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate((int) size + 1);
            while (buf.hasRemaining() && ch.read(buf) >= 0) {
                // until the end, or one byte past the size seen (the file grew: not used)
            }
            if (buf.position() != size) {
                throw new NotUsable("changed while it was read");
            }
            return Arrays.copyOf(buf.array(), (int) size);
        }
    }

    /** The directory's MAC key when there is a usable one, else null. */
    private byte[] existingKey() {
        byte[] k = key;
        if (k != null) {
            return k;
        }
        Path file = directory.resolve(KEY_FILE);
        try {
            byte[] bytes = readRegularFile(file, KEY_BYTES);
            if (bytes.length != KEY_BYTES || !ownerOnly(file)) {
                debug(() -> "manifest cache key " + file + " not used: not " + KEY_BYTES + " owner-only bytes");
                return null;
            }
            key = bytes;
            return bytes;
        } catch (IOException | RuntimeException e) {
            if (!(e instanceof NoSuchFileException)) {
                debug(() -> "manifest cache key " + file + " not used: " + e);
            }
            return null;
        }
    }

    /** Creates the directory (owner-only) and its key when there is none; the key to use, or null. */
    private byte[] createKey() {
        Path file = directory.resolve(KEY_FILE);
        Path tmp = null;
        try {
            createDirectory();
            byte[] fresh = new byte[KEY_BYTES];
            new java.security.SecureRandom().nextBytes(fresh);
            tmp = createOwnerOnlyTemp();
            Files.write(tmp, fresh);
            try {
                Files.move(tmp, file); // never over an existing key: another writer's is as good
                tmp = null;
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // another JVM made it first
            }
        } catch (IOException | RuntimeException e) {
            debug(() -> "manifest cache key " + file + " not written: " + e);
        } finally {
            deleteQuietly(tmp);
        }
        return existingKey();
    }

    /** Whether {@code file} is owned by this user with no group or other access (true where POSIX is absent). */
    private static boolean ownerOnly(Path file) throws IOException {
        java.nio.file.attribute.PosixFileAttributeView view = Files.getFileAttributeView(file,
                java.nio.file.attribute.PosixFileAttributeView.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if (view == null) {
            return true; // Windows: the user's profile directory's ACL protects it
        }
        java.nio.file.attribute.PosixFileAttributes a = view.readAttributes();
        java.util.Set<java.nio.file.attribute.PosixFilePermission> p = a.permissions();
        if (!OWNER_ONLY_FILE.containsAll(p)) {
            return false;
        }
        String me = System.getProperty("user.name");
        return me == null || a.owner().getName().equals(me);
    }

    private void createDirectory() throws IOException {
        if (Files.isDirectory(directory)) {
            return;
        }
        if (directory.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.createDirectories(directory,
                    java.nio.file.attribute.PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY));
        } else {
            Files.createDirectories(directory);
        }
    }

    private Path createOwnerOnlyTemp() throws IOException {
        // Files.createTempFile is owner-only (rw-------) on POSIX file systems.
        return Files.createTempFile(directory, ".entry-", ".tmp");
    }

    private static void deleteQuietly(Path tmp) {
        if (tmp != null) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException | RuntimeException e) {
                // best effort: a stray temporary file is ignored by readers
            }
        }
    }

    /** The directory's key (tests). */
    byte[] keyForTests() {
        return existingKey();
    }

    private void write(Path entry, byte[] bytes) {
        if (bytes == null) {
            return; // not representable exactly (ManifestCacheCodec.encode)
        }
        Path tmp = null;
        try {
            createDirectory();
            tmp = createOwnerOnlyTemp();
            Files.write(tmp, bytes);
            Files.move(tmp, entry, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            tmp = null;
            written.increment();
        } catch (AtomicMoveNotSupportedException e) {
            writeFailures.increment();
            debug(() -> "manifest cache in " + directory
                    + " not written: the file system cannot rename atomically");
        } catch (IOException | RuntimeException e) {
            writeFailures.increment();
            debug(() -> "manifest cache entry " + entry + " not written: " + e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException | RuntimeException e) {
                    // best effort: a stray temporary file is ignored by readers
                }
            }
        }
    }

    /**
     * The code fingerprint (see the class comment), computed once per JVM; {@code null} (cache off) when a class
     * file cannot be read, since then a changed parser could not be told apart.
     */
    static byte[] fingerprint() {
        byte[] f = fingerprint;
        if (f == null) {
            f = computeFingerprint();
            fingerprint = f == null ? new byte[0] : f;
        }
        return f == null || f.length == 0 ? null : f;
    }

    private static byte[] computeFingerprint() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(Integer.toString(ManifestCacheCodec.FORMAT_VERSION).getBytes(StandardCharsets.US_ASCII));
            java.util.Set<Path> jarsSeen = new java.util.HashSet<>();
            for (Class<?> c : FINGERPRINT_CLASSES) {
                String name = c.getName();
                md.update(name.getBytes(StandardCharsets.UTF_8));
                Path jar = jarOf(c);
                if (jar != null) {
                    // A packaged build: the jar's path, size and modification time stand for its classes (a
                    // rebuilt jar is a new file; reading the class files cost a cold start ~10x more).
                    if (jarsSeen.add(jar)) {
                        java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(jar,
                                java.nio.file.attribute.BasicFileAttributes.class);
                        md.update((jar + "|" + a.size() + "|" + a.lastModifiedTime().to(
                                java.util.concurrent.TimeUnit.NANOSECONDS)).getBytes(StandardCharsets.UTF_8));
                    }
                    continue;
                }
                // Classes in a directory (a development build, the tests) or an image: their bytes.
                String file = name.substring(name.lastIndexOf('.') + 1) + ".class";
                try (InputStream in = c.getResourceAsStream(file)) {
                    if (in == null) {
                        debug(() -> "manifest cache off: class file of " + name + " not readable");
                        return null;
                    }
                    md.update(in.readAllBytes());
                }
            }
            return md.digest();
        } catch (IOException | java.security.NoSuchAlgorithmException | RuntimeException e) {
            debug(() -> "manifest cache off: no code fingerprint: " + e);
            return null;
        }
    }

    /** The jar file {@code c} was loaded from, or {@code null} (a directory, a run-time image, unknown). */
    private static Path jarOf(Class<?> c) {
        try {
            java.security.CodeSource cs = c.getProtectionDomain().getCodeSource();
            if (cs == null || cs.getLocation() == null || !"file".equals(cs.getLocation().getProtocol())) {
                return null;
            }
            Path p = Path.of(cs.getLocation().toURI());
            return Files.isRegularFile(p) ? p : null;
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return null;
        }
    }
}
