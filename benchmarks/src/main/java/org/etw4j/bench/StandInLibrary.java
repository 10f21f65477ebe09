package org.etw4j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The ETW stand-in library ({@code libetw_standin.so}, C sources in native-bindings/src/test/native) as the
 * benchmarks use it: where the file is, and downcall handles to its control functions ({@code EtwStandIn_*}) and
 * its C write loop.
 *
 * <p>Immutable and thread-safe once {@link #open opened}. The library is opened in the global arena: a JVM cannot
 * unload it while the backends' bindings point into it, so it stays until the JVM exits; there is nothing to
 * close. Opening the same file that the FFM backend ({@code SymbolLookup.libraryLookup}) and the JNA backend ({@code dlopen}
 * through JNA) load gives the one library instance of the process: the dynamic loader keeps one copy per file.
 */
final class StandInLibrary {
    /** System property naming the library file; without it, {@link #locate()} looks in the build's places. */
    static final String PROPERTY = "etw4j.standin";
    /** Where the benchmark build puts the library, relative to the repository root. */
    static final String DEFAULT_RELATIVE = "benchmarks/target/native/libetw_standin.so";
    static final String FILE_NAME = "libetw_standin.so";

    private static final Linker LINKER = Linker.nativeLinker();

    final Path path;
    /** {@code void EtwStandIn_Install(const ETW_STANDIN_ENGINE *engine)}. */
    final MethodHandle install;
    /** {@code ULONG EtwStandIn_EngineSize(void)}. */
    final MethodHandle engineSize;
    /** {@code ULONG EtwStandIn_EngineOffsetOf(const char *name)}: 0xFFFFFFFF for an unknown entry. */
    final MethodHandle engineOffsetOf;
    /** {@code ULONG EtwStandIn_SizeOf(const char *name)}: 0 for an unknown structure. */
    final MethodHandle sizeOf;
    /**
     * {@code ULONGLONG EtwStandIn_WriteTransferLoop(ULONGLONG n, REGHANDLE, PCEVENT_DESCRIPTOR, LPCGUID, LPCGUID,
     * ULONG, PEVENT_DATA_DESCRIPTOR)}: n calls of the exported EventWriteTransfer; returns how many failed.
     */
    final MethodHandle writeTransferLoop;
    /** The address of the exported {@code EventWriteTransfer} in this library instance. */
    final MemorySegment eventWriteTransfer;

    private StandInLibrary(Path path, SymbolLookup lookup) {
        this.path = path;
        install = down(lookup, "EtwStandIn_Install", FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
        engineSize = down(lookup, "EtwStandIn_EngineSize", FunctionDescriptor.of(ValueLayout.JAVA_INT));
        engineOffsetOf = down(lookup, "EtwStandIn_EngineOffsetOf", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        sizeOf = down(lookup, "EtwStandIn_SizeOf", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        writeTransferLoop = down(lookup, "EtwStandIn_WriteTransferLoop", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        eventWriteTransfer = symbol(lookup, "EventWriteTransfer");
    }

    /** Opens the library {@link #locate()} finds. */
    static StandInLibrary open() {
        return open(locate());
    }

    /** Opens {@code file} (an existing stand-in library) for the rest of the JVM's life. */
    static StandInLibrary open(Path file) {
        return new StandInLibrary(file, SymbolLookup.libraryLookup(file, Arena.global()));
    }

    /**
     * The library file, as a real path: the file {@value #PROPERTY} names; else {@value #DEFAULT_RELATIVE} under the
     * working directory (the repository root); else {@code native/}{@value #FILE_NAME} or {@value #FILE_NAME} next to
     * the benchmarks jar.
     *
     * @throws IllegalStateException naming every place looked at, and how to build the file, when none has it
     */
    static Path locate() {
        String named = System.getProperty(PROPERTY);
        if (named != null && !named.isBlank()) {
            Path p = Path.of(named.trim()).toAbsolutePath();
            if (!Files.isRegularFile(p)) {
                throw new IllegalStateException("-D" + PROPERTY + " names " + p + ", which does not exist: build the ETW"
                        + " stand-in library with `./mvnw package` (module benchmarks; needs gcc) or with"
                        + " native-bindings/src/test/native/build-standin.sh <dir>");
            }
            return realPath(p);
        }
        List<Path> candidates = new ArrayList<>();
        candidates.add(Path.of(DEFAULT_RELATIVE).toAbsolutePath());
        Path jarDir = jarDirectory();
        if (jarDir != null) {
            candidates.add(jarDir.resolve("native").resolve(FILE_NAME));
            candidates.add(jarDir.resolve(FILE_NAME));
        }
        for (Path p : candidates) {
            if (Files.isRegularFile(p)) {
                return realPath(p);
            }
        }
        throw new IllegalStateException("the ETW stand-in library " + FILE_NAME + " is missing; looked at " + candidates
                + ". `./mvnw package` builds it into " + DEFAULT_RELATIVE + " when gcc is installed (a build without gcc"
                + " prints '[etw-standin] WARNING: gcc not found'); or name the file with -D" + PROPERTY + "=<file>");
    }

    /** The directory of the jar (or the parent of the classes directory) this class was loaded from, or null. */
    private static Path jarDirectory() {
        try {
            var source = StandInLibrary.class.getProtectionDomain().getCodeSource();
            if (source == null || source.getLocation() == null) {
                return null;
            }
            Path location = Path.of(source.getLocation().toURI()).toAbsolutePath();
            return location.getParent();
        } catch (URISyntaxException | RuntimeException e) {
            return null; // not a file location: only the other places are looked at
        }
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (java.io.IOException e) {
            return p;
        }
    }

    /** {@code EtwStandIn_EngineOffsetOf(name)}; throws when the stand-in has no such table entry. */
    long engineOffsetOf(String name) {
        try (Arena call = Arena.ofConfined()) {
            int offset = (int) engineOffsetOf.invokeExact(call.allocateFrom(name));
            if (offset < 0) {
                throw new IllegalStateException("the stand-in's engine table has no entry " + name + " (" + path + ")");
            }
            return offset;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code EtwStandIn_SizeOf(name)}: the size of a Windows structure as the stand-in was built. */
    int sizeOf(String name) {
        try (Arena call = Arena.ofConfined()) {
            return (int) sizeOf.invokeExact(call.allocateFrom(name));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code EtwStandIn_EngineSize()}: bytes of the engine table this library was built with. */
    int engineSize() {
        try {
            return (int) engineSize.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code EtwStandIn_Install(table)}. */
    void install(MemorySegment table) {
        try {
            install.invokeExact(table);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static MethodHandle down(SymbolLookup lookup, String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(symbol(lookup, name), descriptor);
    }

    private static MemorySegment symbol(SymbolLookup lookup, String name) {
        return lookup.find(name).orElseThrow(() -> new IllegalStateException("the ETW stand-in library has no symbol "
                + name + ": rebuild it from native-bindings/src/test/native (`./mvnw package`)"));
    }

    @Override
    public String toString() {
        return "StandInLibrary[" + path + "]";
    }
}
