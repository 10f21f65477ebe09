package org.etw4j.nativebindings.abi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assertions;

/**
 * The Windows x64 cross compiler, x86_64-w64-mingw32-gcc, used at test time to compute the Windows ABI
 * (compile only: nothing Windows runs). Found through env {@code ETW4J_MINGW_GCC} or PATH.
 *
 * <p>Test helper; instances are immutable and thread-safe. When the compiler is absent, {@link #locate()}
 * lets the caller skip its tests with {@link #MISSING}, except when env {@code CI=true}, where it fails: CI
 * installs the compiler (Debian package gcc-mingw-w64-x86-64), so its absence there is a broken setup.
 */
final class MingwToolchain {

    static final String COMPILER = "x86_64-w64-mingw32-gcc";

    /** Flags shared by every compilation: Windows 10 API level, Unicode names; the headers unmodified. */
    static final List<String> FLAGS = List.of("-D_WIN32_WINNT=0x0A00", "-DWINVER=0x0A00", "-DUNICODE", "-D_UNICODE");

    private final Path compiler;

    private MingwToolchain(Path compiler) {
        this.compiler = compiler;
    }

    /** Why the ABI cannot be computed when the compiler is missing. */
    static final String MISSING = COMPILER + " not found (set ETW4J_MINGW_GCC or install the Debian packages"
            + " gcc-mingw-w64-x86-64 and mingw-w64-x86-64-dev): the Windows x64 ABI cannot be computed";

    /**
     * The toolchain, or empty when the compiler is missing and the caller should skip; when env
     * {@code CI=true} a missing compiler fails the caller instead (see the class comment).
     */
    static Optional<MingwToolchain> locate() {
        Optional<Path> found = find();
        if (found.isEmpty() && org.etw4j.testing.LinuxCi.proofsRequired()) {
            Assertions.fail(MISSING + "; CI=true, so this is a failure, not a skip");
        }
        return found.map(MingwToolchain::new);
    }

    private static Optional<Path> find() {
        String explicit = System.getenv("ETW4J_MINGW_GCC");
        if (explicit != null && !explicit.isBlank()) {
            Path p = Path.of(explicit);
            return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, COMPILER);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Compiles {@code source} with {@code -S} and returns the assembly text. */
    String compileToAssembly(Path workDir, String fileName, String source) throws IOException, InterruptedException {
        Path c = workDir.resolve(fileName + ".c");
        Path s = workDir.resolve(fileName + ".s");
        Files.writeString(c, source, StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(compiler.toString(), "-S", "-O0", "-w"));
        command.addAll(FLAGS);
        command.addAll(List.of("-I", workDir.toString(), "-o", s.toString(), c.toString()));
        run(command, workDir);
        return Files.readString(s, StandardCharsets.UTF_8);
    }

    /**
     * Compiles {@code source} for syntax and types only, with every warning an error ({@code -Werror}): the
     * compiler's verdict on C that must type-check exactly. Throws {@link IOException} with the compiler's
     * messages when it does not.
     */
    void compileStrictly(Path workDir, String fileName, String source) throws IOException, InterruptedException {
        Path c = workDir.resolve(fileName + ".c");
        Files.writeString(c, source, StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(compiler.toString(), "-fsyntax-only", "-std=gnu11", "-Wall",
                "-Wextra", "-Werror"));
        command.addAll(FLAGS);
        command.addAll(List.of("-I", workDir.toString(), c.toString()));
        run(command, workDir);
    }

    /**
     * The prototypes of every function {@code source} declares (its headers included), as the compiler itself
     * prints them with {@code -aux-info}: one {@code extern RET NAME (T1, T2);} line per function, each preceded
     * by a comment naming the header and line.
     */
    String prototypes(Path workDir, String fileName, String source) throws IOException, InterruptedException {
        Path c = workDir.resolve(fileName + ".c");
        Path aux = workDir.resolve(fileName + ".aux");
        Files.writeString(c, source, StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(compiler.toString(), "-fsyntax-only", "-w", "-aux-info",
                aux.toString()));
        command.addAll(FLAGS);
        command.addAll(List.of("-I", workDir.toString(), c.toString()));
        run(command, workDir);
        return Files.readString(aux, StandardCharsets.UTF_8);
    }

    /** Runs the preprocessor with {@code -dM} on {@code source} and returns the macro definitions. */
    String macroDefinitions(Path workDir, String fileName, String source) throws IOException, InterruptedException {
        Path c = workDir.resolve(fileName + ".c");
        Files.writeString(c, source, StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(compiler.toString(), "-E", "-dM"));
        command.addAll(FLAGS);
        command.addAll(List.of("-I", workDir.toString(), c.toString()));
        return run(command, workDir);
    }

    private static String run(List<String> command, Path workDir) throws IOException, InterruptedException {
        Path out = workDir.resolve("gcc.out");
        Process process = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException(COMPILER + " timed out: " + String.join(" ", command));
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException(COMPILER + " failed (exit " + process.exitValue() + "): "
                    + String.join(" ", command) + "\n" + output);
        }
        return output;
    }
}
