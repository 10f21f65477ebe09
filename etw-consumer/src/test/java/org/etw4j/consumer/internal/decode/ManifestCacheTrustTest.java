package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import org.etw4j.consumer.SchemaSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the manifest cache refuses to trust (issue 22, item 8; ../shared/hardening/repro_manifest_cache.sh and
 * poison_manifest_cache.py): entries that are links, FIFOs or huge are not read (before: OutOfMemoryError or a hang),
 * an entry edited with its checksum recomputed is not used (before: its planted field names were decoded), and the
 * directory and key are owner-only. Each case loads the manifest's own schemas and counts the entry as rejected.
 */
class ManifestCacheTrustTest {
    private static final byte[] SMALL = EventDecoderTest.MANIFEST.getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private Path goodEntry() throws IOException {
        ManifestCache c = ManifestCache.at(dir.resolve("cache"));
        c.load(SMALL, SchemaSource.MANIFEST);
        return c.entryFor(SMALL, SchemaSource.MANIFEST);
    }

    /** A fresh cache over the same directory loads the parsed schemas, rejecting the entry in place. */
    private void assertRejected(String what) throws IOException {
        ManifestCache c = ManifestCache.at(dir.resolve("cache"));
        List<ProviderManifest> loaded = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> c.load(SMALL, SchemaSource.MANIFEST), what);
        assertEquals(ManifestParser.parse(SMALL, SchemaSource.MANIFEST), loaded, what);
        assertEquals(0, c.statistics().hits(), what);
        assertEquals(1, c.statistics().rejected(), what);
    }

    private static boolean posix(Path p) {
        return p.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    @Test
    void anEntryEditedWithItsChecksumRecomputedIsNotUsed() throws IOException {
        Path entry = goodEntry();
        byte[] b = Files.readAllBytes(entry);
        int header = ManifestCacheCodec.HEADER_SIZE;
        // poison_manifest_cache.py: rename a field in the payload, then recompute the 32 bytes before the payload as
        // its SHA-256 (what format 1 checked).
        String payload = new String(b, header, b.length - header, StandardCharsets.ISO_8859_1);
        String renamed = payload.replace("Kind", "Kxnd");
        assertFalse(renamed.equals(payload), "the payload names a field to rename");
        byte[] edited = renamed.getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(edited, 0, b, header, edited.length);
        byte[] sha;
        try {
            sha = MessageDigest.getInstance("SHA-256").digest(edited);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        System.arraycopy(sha, 0, b, header - 32, 32);
        Files.write(entry, b);
        assertRejected("edited entry");
    }

    @Test
    void aSymbolicLinkIsNotFollowed() throws IOException {
        Path entry = goodEntry();
        Path copy = Files.copy(entry, dir.resolve("elsewhere.bin"));
        Files.delete(entry);
        try {
            Files.createSymbolicLink(entry, copy);
        } catch (UnsupportedOperationException | IOException e) {
            assumeTrue(false, "no symbolic links here: " + e);
        }
        assertRejected("a link to a valid entry");
        Path zero = Path.of("/dev/zero");
        if (Files.exists(zero)) {
            Files.delete(entry);
            Files.createSymbolicLink(entry, zero);
            assertRejected("a link to /dev/zero");
        }
    }

    @Test
    void aFifoIsNeverOpened() throws Exception {
        Path entry = goodEntry();
        Files.delete(entry);
        assumeTrue(posix(dir), "POSIX only");
        Process mk = new ProcessBuilder("mkfifo", entry.toString()).inheritIO().start();
        assumeTrue(mk.waitFor() == 0, "mkfifo");
        assertRejected("a FIFO");
    }

    @Test
    void aHugeEntryIsNotRead() throws IOException {
        Path entry = goodEntry();
        try (RandomAccessFile f = new RandomAccessFile(entry.toFile(), "rw")) {
            f.setLength(ManifestCache.MAX_ENTRY_BYTES + 1); // sparse on the usual file systems
        }
        assertRejected("an entry over the bound");
    }

    @Test
    void theDirectoryAndTheKeyAreOwnerOnly() throws IOException {
        Path entry = goodEntry();
        assumeTrue(posix(dir), "POSIX only");
        Path cache = dir.resolve("cache");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                cache.resolve(ManifestCache.KEY_FILE))));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(entry)));
        // A key others could read is not used: the cache is off for that load (parses, writes nothing, reads nothing).
        Files.setPosixFilePermissions(cache.resolve(ManifestCache.KEY_FILE), PosixFilePermissions.fromString("rw-r--r--"));
        ManifestCache c = ManifestCache.at(cache);
        assertEquals(ManifestParser.parse(SMALL, SchemaSource.MANIFEST), c.load(SMALL, SchemaSource.MANIFEST));
        assertEquals(0, c.statistics().hits());
        assertEquals(0, c.statistics().written());
    }

    @Test
    void aValidEntryIsStillUsed() throws IOException {
        goodEntry();
        ManifestCache c = ManifestCache.at(dir.resolve("cache"));
        assertEquals(ManifestParser.parse(SMALL, SchemaSource.MANIFEST), c.load(SMALL, SchemaSource.MANIFEST));
        assertEquals(new ManifestCache.Statistics(1, 0, 0, 0, 0), c.statistics());
        assertTrue(ByteBuffer.wrap(Files.readAllBytes(c.entryFor(SMALL, SchemaSource.MANIFEST))).getInt(8) == 2,
                "format 2");
    }
}
