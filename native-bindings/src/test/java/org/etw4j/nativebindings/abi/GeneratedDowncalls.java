package org.etw4j.nativebindings.abi;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.SymbolLookup;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.layout.EtwSymbols;
import org.junit.jupiter.api.Assertions;

/**
 * Reads the {@link FunctionDescriptor} of every function jextract generated ({@code EtwNative.F$descriptor()}),
 * the very objects the downcall handles are linked with, on an OS without advapi32.
 *
 * <p>Why this is not a plain call: {@code F$descriptor()} lives in the same holder class as the symbol lookup
 * of {@code F}, which fails for good where the symbol is missing (see native-bindings/jextract/README.md). So
 * the generated classes are loaded a second time, by a class loader of their own, whose copy of
 * {@code EtwSymbols} (where the generated bindings find symbols) is given a stub library defining every name
 * first; the stubs are never called, and the test JVM's own copy of the bindings is left untouched (it still has
 * no library, as the module's tests expect). The stub library is built with the host C compiler
 * (env {@code CC}, default {@code gcc}, as for the stand-in).
 *
 * <p>Test helper; not thread-safe (one call per test class).
 */
final class GeneratedDowncalls {

    /** Why the descriptors cannot be read when the host compiler is missing. */
    static final String MISSING_CC = "the host C compiler (env CC, default gcc) is missing: the generated"
            + " descriptors cannot be read without a library defining their symbols";

    private GeneratedDowncalls() {
    }

    /**
     * The generated descriptor of each function in {@code names}, in that order; empty when the host compiler is
     * missing (a failure instead when env {@code CI=true}, where CI installs it).
     */
    static Optional<Map<String, FunctionDescriptor>> read(List<String> names, Path workDir) throws Exception {
        Optional<Path> stub = buildStubLibrary(names, workDir);
        if (stub.isEmpty()) {
            return Optional.empty();
        }
        URL[] path = {codeSource(EtwNative.class), codeSource(GeneratedDowncalls.class)};
        try (URLClassLoader isolated = new URLClassLoader("etw4j-abi-signatures", path,
                ClassLoader.getPlatformClassLoader())) {
            Class<?> loader = Class.forName(IsolatedLibraryLoader.class.getName(), true, isolated);
            loader.getMethod("load", String.class).invoke(null, stub.get().toString());
            Class<?> bindings = Class.forName(EtwNative.class.getName(), true, isolated);
            if (bindings == EtwNative.class) {
                throw new IllegalStateException("the bindings were not loaded by the isolated class loader");
            }
            Map<String, FunctionDescriptor> descriptors = new LinkedHashMap<>();
            for (String name : names) {
                descriptors.put(name, (FunctionDescriptor) bindings.getMethod(name + "$descriptor").invoke(null));
            }
            return Optional.of(descriptors);
        }
    }

    private static URL codeSource(Class<?> c) {
        return c.getProtectionDomain().getCodeSource().getLocation();
    }

    private static Optional<Path> buildStubLibrary(List<String> names, Path workDir)
            throws IOException, InterruptedException {
        String cc = Optional.ofNullable(System.getenv("CC")).filter(s -> !s.isBlank()).orElse("gcc");
        StringBuilder c = new StringBuilder("/* Symbols only: never called (GeneratedDowncalls). */\n");
        for (String name : names) {
            c.append("void ").append(name).append("(void) {}\n");
        }
        Path source = workDir.resolve("etw4j_abi_symbols.c");
        Path library = workDir.resolve(System.mapLibraryName("etw4j_abi_symbols"));
        Files.writeString(source, c, StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(cc, "-shared", "-fPIC", "-o", library.toString(),
                source.toString()));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(workDir.resolve("cc.out").toFile()).start();
        } catch (IOException notFound) {
            if (org.etw4j.testing.LinuxCi.proofsRequired()) {
                Assertions.fail(MISSING_CC + " (" + notFound.getMessage() + "); CI=true, so this is a failure");
            }
            return Optional.empty();
        }
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException(cc + " could not build the stub library: " + String.join(" ", command) + "\n"
                    + Files.readString(workDir.resolve("cc.out"), StandardCharsets.UTF_8));
        }
        return Optional.of(library.toAbsolutePath());
    }

    /**
     * Loaded by the isolated class loader to give the stub library to that loader's copy of {@code EtwSymbols}
     * (the test JVM's own copy stays empty).
     */
    public static final class IsolatedLibraryLoader {
        private IsolatedLibraryLoader() {
        }

        public static void load(String path) {
            EtwSymbols.install(SymbolLookup.libraryLookup(Path.of(path), Arena.global()));
        }
    }
}
