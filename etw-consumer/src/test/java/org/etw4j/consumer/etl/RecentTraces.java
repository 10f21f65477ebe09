package org.etw4j.consumer.etl;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apache.commons.compress.archivers.sevenz.SevenZArchiveEntry;
import org.apache.commons.compress.archivers.sevenz.SevenZFile;

/**
 * Public traces from recent Windows versions that the shared corpus does not hold, committed as the 7z archives
 * their projects published (see {@code src/test/resources/recent-traces/README.md} for source and licence) and
 * unpacked once into {@code target/recent-traces/}.
 *
 * <p>Stateless apart from that folder; safe from parallel test classes (an unpacked file is moved into place
 * atomically, and its sha256 is checked on every call, so a stale or partial file is never read).
 */
final class RecentTraces {

    private RecentTraces() {}

    /**
     * The unpacked {@code .etl} of archive {@code name}.7z, whose only member must have the given sha256.
     *
     * @throws IOException when the archive is missing from the test resources or its member has another digest
     */
    static Path etl(String name, String sha256) throws IOException {
        Path dir = Path.of("target", "recent-traces");
        Path etl = dir.resolve(name + ".etl");
        if (Files.isRegularFile(etl) && sha256(etl).equals(sha256)) {
            return etl;
        }
        Files.createDirectories(dir);
        Path archive = dir.resolve(name + ".7z");
        try (InputStream in = RecentTraces.class.getResourceAsStream("/recent-traces/" + name + ".7z")) {
            if (in == null) {
                throw new IOException("test resource /recent-traces/" + name + ".7z is missing");
            }
            Files.copy(in, archive, StandardCopyOption.REPLACE_EXISTING);
        }
        Path partial = Files.createTempFile(dir, name, ".part");
        try (SevenZFile sevenZ = SevenZFile.builder().setPath(archive).get()) {
            SevenZArchiveEntry entry = sevenZ.getNextEntry();
            if (entry == null) {
                throw new IOException(archive + ": no member");
            }
            try (OutputStream out = Files.newOutputStream(partial)) {
                byte[] buf = new byte[1 << 16];
                for (int n; (n = sevenZ.read(buf)) > 0; ) {      // reads the current entry, the only one
                    out.write(buf, 0, n);
                }
            }
        }
        String actual = sha256(partial);
        if (!actual.equals(sha256)) {
            Files.delete(partial);
            throw new IOException(archive + ": member sha256 " + actual + ", expected " + sha256);
        }
        Files.move(partial, etl, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return etl;
    }

    private static String sha256(Path file) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }
}
