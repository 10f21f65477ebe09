package org.etw4j.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Option;

/**
 * Where a command writes its result ({@code -o FILE}), opened the way users expect of command-line tools: an
 * existing file is refused unless {@code --force}, {@code -o -} is standard output, a symbolic link is never
 * followed (with {@code --force} the link itself is replaced, never what it points to), a directory or a read-only
 * file is never replaced, and the result is written to a temporary file in the same directory that is renamed
 * into place by {@link #commit()}: a run that fails (a full disk, a bad trace) leaves no partial file and the old
 * file, if any, as it was.
 *
 * <p>Not thread-safe: one command's thread. {@link #close()} is idempotent; without a {@link #commit()} it deletes
 * the temporary file. The checks run when the target is opened, before the command's long read; the rename is
 * atomic where the file system allows (same directory). A file created at the target by another process between
 * the check and the rename is replaced (the check is not a lock).
 */
final class OutputTarget implements AutoCloseable {
    /** The {@code -o} value that means standard output. */
    static final String STDOUT = "-";

    /**
     * The {@code --force} option of the commands that write files.
     *
     * <p>A picocli mixin: one instance per command line, not thread-safe.
     */
    static final class Force {
        @Option(names = "--force", description = "replace the output file when it exists (never a directory, a "
                + "read-only file, or what a symbolic link points to)")
        boolean force;
    }

    private final Path target;
    private final Path temporary;
    private final Writer writer;
    private boolean committed;
    private boolean closed;

    private OutputTarget(Path target, Path temporary, Writer writer) {
        this.target = target;
        this.temporary = temporary;
        this.writer = writer;
    }

    /**
     * Whether {@code output} is, or links to, something other than a regular file or a directory: a device such as
     * {@code /dev/null} or a terminal, a named pipe, a socket.
     */
    private static boolean isDevice(Path output) {
        return !output.toString().isEmpty() && Files.exists(output) && !Files.isRegularFile(output)
                && !Files.isDirectory(output);
    }

    /** Whether {@code output} (an {@code -o} value; may be null) means standard output. */
    static boolean isStdout(Path output) {
        return output == null || output.toString().equals(STDOUT);
    }

    /**
     * Opens {@code output} for writing: standard output ({@code stdout}) when it is null or {@code -}, else a
     * temporary file beside it, after the checks above.
     *
     * @throws UsageException when {@code output} is empty
     * @throws CliException   when the target may not or cannot be written (said why)
     */
    static OutputTarget open(Path output, boolean force, PrintWriter stdout) {
        if (isStdout(output)) {
            return new OutputTarget(null, null, stdout);
        }
        if (isDevice(output)) {
            // /dev/null, /dev/stdout, a named pipe: written in place, as a shell redirection would (a rename would
            // replace the device node itself), and there is no file to spoil
            try {
                return new OutputTarget(null, null, new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(
                        output, StandardOpenOption.WRITE), StandardCharsets.UTF_8), 1 << 16));
            } catch (IOException e) {
                throw new CliException(describe(e, output), e);
            }
        }
        Path target = checkTarget(output, force);
        Path dir = target.getParent();
        // Not Files.createTempFile: its owner-only permissions would stay on the result; this one gets the umask's.
        Path tmp = dir.resolve("." + target.getFileName() + "."
                + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
        try {
            Writer w = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), StandardCharsets.UTF_8), 1 << 16);
            return new OutputTarget(target, tmp, w);
        } catch (IOException e) {
            throw new CliException(describe(e, dir), e);
        }
    }

    /**
     * The checks of {@link #open} for an output the command does not write itself ({@code etw record}: ETW writes
     * the .etl): returns the absolute target, which does not exist afterwards (with {@code force} an existing
     * file or link was deleted, never what a link points to), in a directory where a file can be created.
     */
    static Path prepareInPlace(Path output, boolean force) {
        if (isStdout(output) || isDevice(output)) {
            throw new UsageException("--output: a trace is written to a regular file, not to standard output or a "
                    + "device; give a file name");
        }
        Path target = checkTarget(output, force);
        Path dir = target.getParent();
        Path probe = dir.resolve("." + target.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current()
                .nextLong()) + ".tmp");
        try {
            Files.newOutputStream(probe, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
            Files.delete(probe);
            Files.deleteIfExists(target); // a link is deleted itself, not followed
        } catch (IOException e) {
            throw new CliException(describe(e, dir), e);
        }
        return target;
    }

    private static Path checkTarget(Path output, boolean force) {
        if (output.toString().isEmpty()) {
            throw new UsageException("--output must name a file (or - for standard output)");
        }
        Path target = output.toAbsolutePath().normalize();
        if (Files.isDirectory(target)) {
            throw new CliException(output + " is a directory; give a file name");
        }
        boolean link = Files.isSymbolicLink(target);
        if (link || Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            if (!force) {
                throw new CliException(output + " exists (--force replaces it" + (link ? "; it is a symbolic link, "
                        + "and --force replaces the link, not what it points to)" : ", -o - writes to standard output)"));
            }
            if (!link && readOnly(target)) {
                throw new CliException(output + " is read-only; not replaced");
            }
        }
        Path dir = target.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new CliException("no such directory: " + dir);
        }
        return target;
    }

    /** No write permission for anyone (or none for this user): root's access() check alone would say writable. */
    private static boolean readOnly(Path f) {
        if (!Files.isWritable(f)) {
            return true;
        }
        PosixFileAttributeView posix = Files.getFileAttributeView(f, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (posix == null) {
            return false;
        }
        try {
            Set<PosixFilePermission> p = posix.readAttributes().permissions();
            return !p.contains(PosixFilePermission.OWNER_WRITE) && !p.contains(PosixFilePermission.GROUP_WRITE)
                    && !p.contains(PosixFilePermission.OTHERS_WRITE);
        } catch (IOException e) {
            return false;
        }
    }

    /** A file system error while creating a file in {@code dir}, as the user can act on it. */
    static String describe(IOException e, Path dir) {
        if (e instanceof AccessDeniedException) {
            return "permission denied: cannot create a file in " + dir;
        }
        if (e instanceof NoSuchFileException) {
            return "no such directory: " + dir;
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            if (f.getReason().contains("Read-only file system")) {
                return dir + " is on a read-only file system";
            }
            return f.getReason() + ": " + f.getFile();
        }
        return EtwCommand.oneLine(e);
    }

    /** Where to write: the temporary file, or standard output. Not to be closed by the caller. */
    Writer writer() {
        return writer;
    }

    /** Whether this writes to standard output. */
    boolean isStdout() {
        return target == null;
    }

    /** The file written (absolute), or null for standard output. */
    Path path() {
        return target;
    }

    /** Flushes and, for a file, renames the temporary file into place (the old file, or link, is replaced). */
    void commit() throws IOException {
        if (target == null) {
            writer.flush(); // standard output stays open; a device's writer is closed by close()
            committed = true;
            return;
        }
        try {
            writer.close();
        } catch (IOException e) {
            throw new CliException("writing " + target + " failed: " + EtwCommand.oneLine(e) + "; nothing written", e);
        }
        if (Files.isDirectory(target)) { // made a directory since the check: rename would fail obscurely
            throw new CliException(target + " is a directory; give a file name");
        }
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.AtomicMoveNotSupportedException e) {
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
        }
        committed = true;
    }

    /** Without a commit: deletes the temporary file (the target stays as it was). Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (target == null) {
            if (!(writer instanceof PrintWriter)) { // a device opened here, not the command's standard output
                try {
                    writer.close();
                } catch (IOException ignored) {
                    // said by the write or the flush that failed first
                }
            }
            return;
        }
        if (!committed) {
            try {
                writer.close();
            } catch (IOException ignored) {
                // a full disk: the file goes anyway
            }
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException ignored) {
                // nothing more to do; the name says what it is (".NAME.RANDOM.tmp")
            }
        }
    }
}
