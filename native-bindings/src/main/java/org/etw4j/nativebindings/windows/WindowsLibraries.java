package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.etw4j.nativebindings.layout.EtwSymbols;

/**
 * Opens the libraries behind the bindings: on Windows advapi32.dll (ETW provider, controller and consumer
 * functions, token privileges), tdh.dll (event decoding) and kernel32.dll (GetCurrentProcess, CloseHandle), by absolute path in System32; or, when the system property
 * {@value #LIBRARY_PROPERTY} names a file, that file instead (the stand-in advapi32 the tests build, on any OS).
 * This is the one place that decides where the ETW functions come from: the generated bindings and
 * {@code DocumentedFunctions} find their symbols through {@link EtwSymbols}, which this fills, so the bindings
 * load on any OS and resolve once this has run.
 *
 * <p>The libraries are opened with {@code SymbolLookup.libraryLookup} (in the global arena: never unloaded), not
 * {@code System.load}/{@code System.loadLibrary}: those tie a library to one class loader (a second class loader,
 * e.g. another web application, gets "already loaded in another classloader") and {@code loadLibrary} searches
 * {@code java.library.path}, which an application may set to a directory without System32. The absolute
 * System32 path also keeps {@code LoadLibrary}'s search order (application directory first) from picking up a
 * planted tdh.dll (tdh is not a KnownDLL). Without SystemRoot/windir the bare names go to LoadLibrary's search.
 *
 * <p>The bindings are Windows x64 (8-byte pointers, x64 structure layouts): {@link #load()} refuses a JVM whose
 * pointers are another size, with a message saying so.
 *
 * <p>Thread-safe and idempotent: the first successful {@link #load()} opens the libraries, later calls do
 * nothing (the choice is made once per class loader). Call it before the first downcall: a generated function
 * whose symbol is looked up before the library is opened fails for good (its holder class does not initialise).
 */
public final class WindowsLibraries {

    /** Bytes per pointer the bindings are generated for (Windows x64). */
    public static final long REQUIRED_POINTER_BYTES = 8;

    /** System property naming a library file that replaces advapi32 and tdh (tests: the stand-in). */
    public static final String LIBRARY_PROPERTY = "etw4j.windows.library";

    private static final List<String> SYSTEM_LIBRARIES = List.of("advapi32.dll", "tdh.dll", "kernel32.dll");

    private static volatile Path loadedSubstitute;
    private static volatile boolean loaded;

    private WindowsLibraries() {
    }

    /** True when running on Windows, where the libraries exist. */
    public static boolean isWindows() {
        return System.getProperty("os.name", "").startsWith("Windows");
    }

    /** The substitute library {@value #LIBRARY_PROPERTY} names now, or null when the system's is meant. */
    public static Path configuredSubstitute() {
        String p = System.getProperty(LIBRARY_PROPERTY);
        return p == null || p.isBlank() ? null : Path.of(p.trim()).toAbsolutePath();
    }

    /**
     * Opens advapi32 and tdh, or the substitute library {@value #LIBRARY_PROPERTY} names.
     *
     * @throws UnsupportedOperationException when not running on Windows and no substitute is named, or on a JVM
     *         whose pointers are not 8 bytes (see {@link #requirePointerSize(long)})
     * @throws UnsatisfiedLinkError if a library cannot be opened (a named substitute that does not exist, too)
     */
    public static void load() {
        if (loaded) {
            return;
        }
        synchronized (WindowsLibraries.class) {
            if (loaded) {
                return;
            }
            requirePointerSize(ValueLayout.ADDRESS.byteSize());
            Path substitute = configuredSubstitute();
            if (substitute != null) {
                if (!Files.isRegularFile(substitute)) {
                    throw new UnsatisfiedLinkError(LIBRARY_PROPERTY + " names " + substitute
                            + ", which does not exist (build it first, or clear the property to use the system's ETW)");
                }
                EtwSymbols.install(open(substitute.toString()));
                loadedSubstitute = substitute;
            } else {
                if (!isWindows()) {
                    throw new UnsupportedOperationException("ETW needs Windows: advapi32.dll and tdh.dll cannot be"
                            + " loaded on " + System.getProperty("os.name") + " (tests may name a stand-in with -D"
                            + LIBRARY_PROPERTY + "=<file>)");
                }
                SymbolLookup all = null;
                for (String file : systemLibraryFiles(System.getenv())) {
                    SymbolLookup one = open(file);
                    all = all == null ? one : all.or(one);
                }
                EtwSymbols.install(all);
            }
            loaded = true;
        }
    }

    /**
     * {@code SymbolLookup.libraryLookup} of a path (when {@code file} has a directory) or a name, in the global
     * arena; a library that cannot be opened is an UnsatisfiedLinkError naming it (libraryLookup says
     * IllegalArgumentException).
     */
    private static SymbolLookup open(String file) {
        try {
            return file.indexOf('/') >= 0 || file.indexOf('\\') >= 0
                    ? SymbolLookup.libraryLookup(Path.of(file), Arena.global())
                    : SymbolLookup.libraryLookup(file, Arena.global());
        } catch (IllegalArgumentException e) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("cannot open " + file + ": " + e.getMessage());
            error.initCause(e);
            throw error;
        }
    }

    /**
     * The files {@link #load()} opens on Windows: advapi32.dll and tdh.dll in {@code %SystemRoot%\System32} (or
     * {@code %windir%}), whatever {@code java.library.path} says; the bare names when neither variable is set.
     */
    static List<String> systemLibraryFiles(Map<String, String> environment) {
        String root = environment.get("SystemRoot");
        if (root == null || root.isBlank()) {
            root = environment.get("windir");
        }
        List<String> files = new ArrayList<>();
        for (String dll : SYSTEM_LIBRARIES) {
            files.add(root == null || root.isBlank() ? dll : root + "\\System32\\" + dll);
        }
        return files;
    }

    /**
     * Refuses a JVM whose pointers are not {@value #REQUIRED_POINTER_BYTES} bytes: the bindings are generated for
     * Windows x64 (pointer-sized fields, structure layouts, the calling convention), so on a 32-bit JVM every
     * structure and call would be wrong.
     *
     * @param pointerBytes {@code ValueLayout.ADDRESS.byteSize()} of this JVM (a parameter so tests can inject 4)
     * @throws UnsupportedOperationException naming the pointer size, when it is not 8
     */
    static void requirePointerSize(long pointerBytes) {
        if (pointerBytes != REQUIRED_POINTER_BYTES) {
            throw new UnsupportedOperationException("etw4j's FFM backend needs a 64-bit JVM: its bindings are generated for"
                    + " Windows x64 (" + REQUIRED_POINTER_BYTES + "-byte pointers), and this JVM has " + pointerBytes
                    + "-byte pointers (os.arch=" + System.getProperty("os.arch") + "). Run a 64-bit JVM, or use the"
                    + " simulated backend (-Detw4j.backend=simulated)");
        }
    }

    /** Whether {@link #load()} has succeeded. */
    public static boolean isLoaded() {
        return loaded;
    }

    /** The substitute library {@link #load()} loaded, or null when it loaded the system's (or nothing yet). */
    public static Path loadedSubstitute() {
        return loadedSubstitute;
    }

    /**
     * The {@code Linker.Option.captureCallState} name under which the "last error" of a function that reports
     * failure through {@code GetLastError} (OpenTraceW) is captured: {@code GetLastError} on Windows; elsewhere,
     * where only a substitute library can run, {@code errno}, which the stand-in sets in its place.
     */
    public static String lastErrorStateName() {
        return EtwSymbols.lastErrorStateName();
    }
}
